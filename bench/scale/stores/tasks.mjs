// Who the i-th filled task is (bench/scale/stores.mjs): its ids, times, final state, artifact size
// and whether its send carried an idempotency key, all derived from i alone, so a store grown from
// one size to the next holds the same tasks as one filled at once, and the benchmark can pick
// existing task ids and contexts at random without reading them back.

import { ARTIFACT_SIZES, STATE_MIX, render } from './templates.mjs';

/** Tasks per context: a conversation of a few tasks, close together in time. */
export const TASKS_PER_CONTEXT = 4;
/** How far back the finished times reach. */
export const SPAN_MS = 30 * 86_400_000;
const GOLDEN = 0.6180339887498949;

/** A 32-bit mix of i (splitmix-style), for per-task choices that look random but repeat. */
function mix(i) {
  let x = (i + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const hex = (n, width) => n.toString(16).padStart(width, '0');

/**
 * A UUID-shaped id whose first twelve digits count up with n: the fill appends to the primary
 * key's B-tree instead of inserting at random, which is what keeps 10 million tasks to minutes.
 */
function sequentialId(kind, n) {
  const h = mix(n * 2 + kind);
  const head = hex(n, 12);
  return `${head.slice(0, 8)}-${head.slice(8)}-4${hex(h & 0xfff, 3)}-${(8 + (kind & 3)).toString(16)}${hex((h >>> 12) & 0xfff, 3)}-${hex(mix(h), 8)}${hex(h >>> 16, 4)}`;
}

const STATE_TABLE = (() => {
  const table = [];
  for (const [state, share] of STATE_MIX) for (let k = 0; k < share; k++) table.push(state);
  return table;
})();

/** The index of the template of (state, artifact size, keyed) in `templateKeys()` order. */
export function templateKeys() {
  const keys = [];
  for (const [state] of STATE_MIX) {
    for (const size of ARTIFACT_SIZES) for (const keyed of [false, true]) keys.push({ state, size, keyed });
  }
  return keys;
}
const templateIndex = new Map(templateKeys().map((k, i) => [`${k.state}/${k.size}/${k.keyed}`, i]));

/** The i-th task (i from 0), relative to `now` (epoch ms). */
export function taskAt(i, now) {
  const h = mix(i);
  const context = Math.floor(i / TASKS_PER_CONTEXT);
  // Contexts spread evenly over the span whatever the size; a context's tasks minutes apart.
  const contextStart = now - SPAN_MS * ((context * GOLDEN) % 1) - 3_600_000;
  const finished = Math.floor(contextStart + (i % TASKS_PER_CONTEXT) * 300_000 + (h % 60_000));
  const state = STATE_TABLE[h % STATE_TABLE.length];
  const size = ARTIFACT_SIZES[(h >>> 10) % ARTIFACT_SIZES.length];
  const keyed = (h >>> 14) % 5 === 0;
  const finishedAt = new Date(finished).toISOString();
  return {
    template: templateIndex.get(`${state}/${size}/${keyed}`),
    state,
    values: {
      taskId: sequentialId(0, i),
      contextId: sequentialId(1, context),
      idempotencyKey: sequentialId(2, i),
      submittedAt: new Date(finished - 20_000).toISOString(),
      workingAt: new Date(finished - 19_000).toISOString(),
      finishedAt,
      statusKey: `${finishedAt.slice(0, 23)}000000Z`,
    },
  };
}

/**
 * The rows of tasks [from, to) as the fills write them: each task's template rows (`templates`, as
 * a prepare step captured them) with its own values rendered in, task after task.
 * `visit(row, values)` gets the captured row and that task's column values.
 */
export function forEachFilledRow(templates, from, to, now, visit) {
  for (let i = from; i < to; i++) {
    const task = taskAt(i, now);
    for (const row of templates[task.template])
      visit(
        row,
        row.values.map((v) => render(v, task.values)),
      );
  }
}
