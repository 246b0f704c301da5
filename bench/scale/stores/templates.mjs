// The rows of a realistic finished task, as Concord itself writes them (bench/scale/stores.mjs).
//
// Nothing here spells out a row format: a handful of template tasks go through the store's own
// `commit` (the same path a served task takes), their rows are read back column by column, and the
// placeholders in them (task id, context id, timestamps, idempotency key) become holes that the
// fill renders per task. Snapshots, event rows (schema 8's one row per commit on SQLite, one per
// event on PostgreSQL), `held_keys`, idempotency keys and status keys are therefore exactly what
// the store under test writes, whatever its schema version.

// Placeholders as long as the values they stand for, so a template's size is the real size.
export const HOLES = {
  taskId: '@@TASK_ID_PLACEHOLDER_XXXXXXXXXXXX@@', // 36, a UUID
  contextId: '@@CONTEXT_PLACEHOLDER_XXXXXXXXXXXX@@', // 36
  idempotencyKey: '@@IDEMPOTENCY_KEY_XXXXXXXXXXXXXXXX@@', // 36
  submittedAt: '@@SUBMITTED_AT_XXXXXXX@@', // 24, Date#toISOString
  workingAt: '@@WORKING_AT_XXXXXXXXX@@', // 24
  finishedAt: '@@FINISHED_AT_XXXXXXXX@@', // 24
  // The status key (status-time.ts) of the last status: finishedAt with six more fraction digits.
  statusKey: '@@STATUS_KEY_XXXXXXXXXXXXXXX@@', // 30
};
for (const [name, hole] of Object.entries(HOLES)) {
  const want = { taskId: 36, contextId: 36, idempotencyKey: 36, statusKey: 30 }[name] ?? 24;
  if (hole.length !== want) throw new Error(`placeholder ${name} is ${hole.length} long, not ${want}`);
}

/**
 * The final states of the filled tasks and their shares (per 1,000): mostly completed, some failed
 * or canceled, a few still waiting for input or working.
 */
export const STATE_MIX = [
  ['TASK_STATE_COMPLETED', 850],
  ['TASK_STATE_FAILED', 60],
  ['TASK_STATE_CANCELED', 50],
  ['TASK_STATE_INPUT_REQUIRED', 25],
  ['TASK_STATE_WORKING', 15],
];

/**
 * Artifact text lengths, about 0.5-1 KB: the lower end of issue 27's 0.5-2 KB, so 10 million tasks
 * fit the disk of the machine the full run is made on (each task is held twice: snapshot and event).
 */
export const ARTIFACT_SIZES = [500, 800, 1200];

/** Deterministic prose-like text of `length` characters (compressible as real text is, not more). */
function prose(length, seed) {
  const words = [
    'the',
    'agent',
    'found',
    'three',
    'sources',
    'for',
    'query',
    'result',
    'summary',
    'of',
    'report',
    'data',
    'shows',
    'that',
    'revenue',
    'grew',
    'in',
    'each',
    'quarter',
    'with',
    'margin',
  ];
  let x = seed * 2654435761;
  let out = '';
  while (out.length < length) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += words[x % words.length] + (x % 11 === 0 ? '. ' : ' ');
  }
  return out.slice(0, length);
}

const agentMessage = (n, text) => ({
  messageId: `${HOLES.taskId}-a${n}`,
  role: 'ROLE_AGENT',
  parts: [{ text }],
  contextId: HOLES.contextId,
  taskId: HOLES.taskId,
});

/**
 * The commits of one template task ending in `state`, with an artifact of `artifactLength`
 * characters when it completed: the user's message creates it (submitted), the agent starts
 * (working), then finishes, fails, is canceled or asks for input.
 */
export function templateCommits(state, artifactLength, keyed) {
  const user = {
    messageId: `${HOLES.taskId}-u1`,
    role: 'ROLE_USER',
    parts: [{ text: 'Summarise the quarterly revenue figures and list the sources you used.' }],
    contextId: HOLES.contextId,
    taskId: HOLES.taskId,
  };
  const base = { id: HOLES.taskId, contextId: HOLES.contextId };
  const submitted = {
    ...base,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: HOLES.submittedAt },
    history: [user],
  };
  const working = agentMessage(1, 'Looking through the quarterly filings.');
  const workingTask = {
    ...base,
    status: { state: 'TASK_STATE_WORKING', message: working, timestamp: HOLES.workingAt },
    history: [user],
  };
  const statusUpdate = (task) => ({
    statusUpdate: { taskId: HOLES.taskId, contextId: HOLES.contextId, status: task.status },
  });
  const commits = [
    {
      task: submitted,
      events: [{ task: submitted }],
      ...(keyed ? { idempotencyKey: HOLES.idempotencyKey } : {}),
    },
    { task: workingTask, events: [statusUpdate(workingTask)] },
  ];
  if (state === 'TASK_STATE_WORKING') {
    // Still working: the last status is the working one, stamped at the finish time.
    workingTask.status.timestamp = HOLES.finishedAt;
    return commits;
  }
  const closing = {
    TASK_STATE_COMPLETED: 'Here is the summary.',
    TASK_STATE_FAILED: 'The filings could not be read.',
    TASK_STATE_CANCELED: 'Canceled at the user\u2019s request.',
    TASK_STATE_INPUT_REQUIRED: 'Which fiscal year do you mean?',
  }[state];
  const last = {
    ...base,
    status: { state, message: agentMessage(2, closing), timestamp: HOLES.finishedAt },
    history: [user, working],
  };
  const events = [];
  if (state === 'TASK_STATE_COMPLETED') {
    const artifact = {
      artifactId: `${HOLES.taskId}-r1`,
      name: 'summary',
      parts: [{ text: prose(artifactLength, artifactLength) }],
    };
    last.artifacts = [artifact];
    events.push({
      artifactUpdate: { taskId: HOLES.taskId, contextId: HOLES.contextId, artifact, lastChunk: true },
    });
  }
  events.push(statusUpdate(last));
  commits.push({ task: last, events });
  return commits;
}

/** A template text split at its holes: [literal, hole name, literal, ..., literal]. */
export function compile(text) {
  const names = Object.keys(HOLES);
  const pattern = new RegExp(
    names.map((n) => HOLES[n].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'g',
  );
  const byHole = new Map(names.map((n) => [HOLES[n], n]));
  const out = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(text.slice(at, m.index), byHole.get(m[0]));
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  return out.length === 1 ? out[0] : out;
}

/** Fills a compiled template with `values` (hole name -> string); constants pass through. */
export function render(compiled, values) {
  if (!Array.isArray(compiled)) return compiled;
  let s = compiled[0];
  for (let i = 1; i < compiled.length; i += 2) s += values[compiled[i]] + compiled[i + 1];
  return s;
}

/**
 * A captured column value as a template. The status key is the one column the store derived from a
 * placeholder it could not read (the finish time, not yet an RFC 3339 timestamp, read as "now"):
 * it becomes the statusKey hole, which holds what status-time.ts makes of the real finish time.
 */
export function hole(table, column, value) {
  if (table === 'tasks' && column === 'status_ts') return compile(HOLES.statusKey);
  return typeof value === 'string' ? compile(value) : value;
}
