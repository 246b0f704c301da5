// @ts-check
/**
 * The system under test for the A2A conformance kits (a2aproject/a2a-tck). Both kits expect an
 * agent that behaves in set ways; this one behaves as their reference agents do.
 *
 * - The 1.0 kit (branch `1.0-dev`) picks a behaviour by the **messageId prefix** (`tck-…`), as
 *   the kit's own Python SUT does: see BEHAVIOURS below, checked in order, because
 *   `tck-artifact-file-url` must win over `tck-artifact-file`.
 * - The 0.3 kit (branch `0.3.0-beta-x`) sends ordinary messages and then follow-ups, cancels and
 *   history reads on the same task, so the task must stay open. Concord's blocking send answers
 *   only at a terminal or interrupted state (decision 0005), so an open task here is an
 *   input-required one: every message whose id does not start with `tck-` asks for more input
 *   (the kit accepts input-required wherever it lists states). `test-resubscribe-message-id…`
 *   works for a few seconds and then completes, so a resubscribe finds it running.
 *
 * Waits come from the environment, so tests can shorten them: TCK_DELAY_MS (delayed-complete,
 * default 2000, the kit's streaming timeout) and TCK_RESUBSCRIBE_MS (default 4000).
 */

/** @typedef {import('concord-a2a').AgentExecutor} AgentExecutor */
/** @typedef {import('concord-a2a').AgentCardInput} AgentCardInput */
/** @typedef {import('concord-a2a').TaskUpdater} TaskUpdater */
/** @typedef {import('concord-a2a').RequestContext} RequestContext */

/** @type {AgentCardInput} */
export const agentCard = {
  name: 'TCK Agent',
  description: 'System under test for the A2A conformance kits: behaves by messageId prefix.',
  version: '1.0.0',
  // Push is configured by `concord serve` (on unless --no-push); the card follows the server.
  capabilities: { streaming: true, pushNotifications: true },
  // Real media types, so that the kit's unsupported one is refused (CORE-SEND-003, decision 0141):
  // its valid sends are text, data (JSON) and text/plain files.
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'tck',
      name: 'TCK',
      description:
        'Answers the conformance kits by messageId prefix (tck-complete-task, tck-input-required, …).',
      tags: ['tck'],
      examples: ['messageId tck-complete-task-1', 'messageId tck-input-required-1'],
    },
  ],
};

/** The file artifact the kits check: the bytes "tck" as text/plain. */
const FILE_PART = { raw: 'dGNr', mediaType: 'text/plain', filename: 'output.txt' };

/** Milliseconds from an environment variable, or the default. */
function waitMs(name, fallback) {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Resolves after `ms`, or rejects when `signal` aborts (a cancel). */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** working → one text artifact → completed. */
function streamed(text) {
  /** @param {RequestContext} _context @param {TaskUpdater} updater */
  return (_context, updater) => {
    updater.startWork();
    updater.addArtifact([{ text }]);
    updater.complete();
  };
}

/** One artifact → completed. */
function artifact(part) {
  /** @param {RequestContext} _context @param {TaskUpdater} updater */
  return (_context, updater) => {
    updater.addArtifact([part]);
    updater.complete();
  };
}

/** working → a wait → completed; a cancel during the wait ends it (Concord records it). */
function delayed(variable, fallback, message) {
  /** @param {RequestContext} context @param {TaskUpdater} updater */
  return async (context, updater) => {
    updater.startWork();
    try {
      await sleep(waitMs(variable, fallback), context.signal);
    } catch {
      return;
    }
    updater.complete(message);
  };
}

/**
 * messageId prefix → behaviour, in the order the reference SUT checks them.
 * @type {[string, (context: RequestContext, updater: TaskUpdater) => void | Promise<void>][]}
 */
const BEHAVIOURS = [
  [
    'tck-stream-artifact-chunked',
    (_context, updater) => {
      updater.startWork();
      const artifactId = updater.addArtifact([{ text: 'chunk-1 ' }], { lastChunk: false });
      updater.addArtifact([{ text: 'chunk-2' }], { artifactId, append: true, lastChunk: true });
      updater.complete();
    },
  ],
  ['test-resubscribe-message-id', delayed('TCK_RESUBSCRIBE_MS', 4000, undefined)],
  ['tck-stream-artifact-text', streamed('Streamed text content')],
  [
    'tck-stream-artifact-file',
    (_context, updater) => {
      updater.startWork();
      updater.addArtifact([FILE_PART]);
      updater.complete();
    },
  ],
  ['tck-stream-ordering-001', streamed('Ordered output')],
  [
    'tck-artifact-file-url',
    artifact({ url: 'https://example.com/output.txt', mediaType: 'text/plain', filename: 'output.txt' }),
  ],
  ['tck-message-response', (_context, updater) => updater.reply('Direct message response')],
  ['tck-input-required', (_context, updater) => updater.requireInput('Input required')],
  ['tck-auth-required', (_context, updater) => updater.requireAuth('Authorization required')],
  ['tck-delayed-complete', delayed('TCK_DELAY_MS', 2000, 'Done after delay')],
  ['tck-complete-task', (_context, updater) => updater.complete('Hello from TCK')],
  ['tck-artifact-text', artifact({ text: 'Generated text content' })],
  ['tck-artifact-file', artifact(FILE_PART)],
  ['tck-artifact-data', artifact({ data: { key: 'value', count: 42 } })],
  ['tck-reject-task', (_context, updater) => updater.reject('rejected')],
  ['tck-stream-001', streamed('Stream hello from TCK')],
  ['tck-stream-002', (_context, updater) => updater.complete()],
  ['tck-stream-003', streamed('Stream task lifecycle')],
];

/** @type {AgentExecutor} */
export const executor = {
  async execute(context, updater) {
    const id = context.message.messageId;
    for (const [prefix, behave] of BEHAVIOURS) {
      if (id.startsWith(prefix)) return behave(context, updater);
    }
    if (id.startsWith('tck-')) {
      updater.complete(`Unhandled messageId prefix: ${id}`);
      return;
    }
    // The 0.3 kit: keep the task open for its follow-ups, cancels and history reads.
    updater.requireInput('Send another message to continue this task, or cancel it.');
  },
};

export default { agentCard, executor };
