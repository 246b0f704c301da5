/**
 * applyEvents (src/server/task-run/task-projection.ts), the one definition of how events change a
 * task: a batch of appended artifact chunks is applied in place on the batch's own copy (issue 27:
 * a copy per chunk cost the square of the chunks), yet neither the base task nor the events, which
 * readers and the store still hold, ever change.
 */
import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../../src/protocol/index.js';
import { applyEvents } from '../../src/server/task-run/task-projection.js';

const chunk = (artifactId: string, text: string, append = true): StreamResponse => ({
  artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId, parts: [{ text }] }, append },
});

describe('applyEvents on a batch of artifact chunks', () => {
  it('appends, replaces and adds in order without changing the base or the events', () => {
    const base: Task = {
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      artifacts: [{ artifactId: 'a', parts: [{ text: 'a0' }] }],
    };
    const events = [
      chunk('a', 'a1'),
      chunk('a', 'a2'),
      chunk('b', 'b0', false),
      chunk('b', 'b1'),
      chunk('a', 'A', false),
      chunk('a', 'A1'),
      chunk('b', 'b2'),
    ];
    const baseBefore = structuredClone(base);
    const eventsBefore = structuredClone(events);
    const after = applyEvents(base, events);
    expect(after.artifacts).toEqual([
      { artifactId: 'a', parts: [{ text: 'A' }, { text: 'A1' }] },
      { artifactId: 'b', parts: [{ text: 'b0' }, { text: 'b1' }, { text: 'b2' }] },
    ]);
    expect(base).toEqual(baseBefore);
    expect(events).toEqual(eventsBefore);
    // A second batch on the result leaves the first result as it was.
    const again = applyEvents(after, [chunk('a', 'A2'), chunk('a', 'A3')]);
    expect(again.artifacts![0]!.parts.map((p) => p.text)).toEqual(['A', 'A1', 'A2', 'A3']);
    expect(after.artifacts![0]!.parts.map((p) => p.text)).toEqual(['A', 'A1']);
  });

  it('keeps appended metadata keys, the later winning', () => {
    const first: StreamResponse = {
      artifactUpdate: {
        taskId: 't',
        contextId: 'c',
        artifact: { artifactId: 'a', parts: [{ text: '1' }], metadata: { x: 1, y: 1 } },
      },
    };
    const next = (n: number): StreamResponse => ({
      artifactUpdate: {
        taskId: 't',
        contextId: 'c',
        artifact: { artifactId: 'a', parts: [{ text: String(n) }], metadata: { y: n } },
        append: true,
      },
    });
    const base: Task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    const after = applyEvents(base, [first, next(2), next(3)]);
    expect(after.artifacts![0]!.metadata).toEqual({ x: 1, y: 3 });
    expect(after.artifacts![0]!.parts.map((p) => p.text)).toEqual(['1', '2', '3']);
    expect(
      (first as { artifactUpdate: { artifact: { parts: unknown[] } } }).artifactUpdate.artifact.parts,
    ).toHaveLength(1);
  });
});
