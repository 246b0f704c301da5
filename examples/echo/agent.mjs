// @ts-check
/**
 * The echo agent: Concord's smallest complete example. It exercises every server behaviour a
 * client can observe, and the acceptance tests rely on each of them:
 * - any text         -> a completed task with one artifact containing the text;
 * - `stream <n>`     -> n artifact chunks 100 ms apart (append / lastChunk), then completed;
 * - `ask`            -> input-required; the next message on the task completes it;
 * - `wait`           -> stays working until canceled;
 * - a data part      -> echoed back as a data artifact.
 */

/** @typedef {import('concord-a2a').AgentExecutor} AgentExecutor */
/** @typedef {import('concord-a2a').AgentCardInput} AgentCardInput */

/** @type {AgentCardInput} */
export const agentCard = {
  name: 'Echo Agent',
  description: 'Echoes what it receives; streams, asks for input and waits on request.',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Returns the text or data it was sent.',
      tags: ['echo', 'test'],
      examples: ['hello', 'stream 5', 'ask', 'wait'],
    },
  ],
};

/** Resolves after `ms`, or rejects when `signal` aborts. */
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

/** @type {AgentExecutor} */
export const executor = {
  async execute(context, updater) {
    const text = context.message.parts
      .filter((part) => part.text !== undefined)
      .map((part) => part.text)
      .join('\n');
    const command = text.trim();

    // A follow-up to a question we asked completes the task.
    if (context.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
      updater.addArtifact([{ text: `echo: ${text}` }], { name: 'echo' });
      updater.complete();
      return;
    }

    const dataParts = context.message.parts.filter((part) => part.data !== undefined);
    if (dataParts.length > 0) {
      updater.addArtifact(
        dataParts.map((part) =>
          part.mediaType === undefined ? { data: part.data } : { data: part.data, mediaType: part.mediaType },
        ),
        { name: 'data' },
      );
      updater.complete();
      return;
    }

    const stream = /^stream\s+(\d+)$/i.exec(command);
    if (stream !== null) {
      const n = Math.min(Math.max(Number(stream[1]), 1), 1000);
      updater.startWork(`Streaming ${n} chunks`);
      /** @type {string | undefined} */
      let artifactId;
      try {
        for (let i = 1; i <= n; i++) {
          await sleep(100, context.signal);
          artifactId = updater.addArtifact([{ text: `chunk ${i} of ${n}\n` }], {
            name: 'stream',
            ...(artifactId === undefined ? {} : { artifactId, append: true }),
            lastChunk: i === n,
          });
        }
      } catch {
        return; // canceled: Concord records the cancellation
      }
      updater.complete();
      return;
    }

    if (command.toLowerCase() === 'ask') {
      updater.requireInput('What should I echo?');
      return;
    }

    if (command.toLowerCase() === 'wait') {
      updater.startWork('Waiting until canceled');
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      return;
    }

    updater.addArtifact([{ text: `echo: ${text}` }], { name: 'echo' });
    updater.complete();
  },
};

export default { agentCard, executor };
