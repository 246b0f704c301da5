/**
 * The event hub's bound on what a slow subscriber may hold (src/server/task-run/event-hub.ts):
 * besides a count of events, the bytes of their parts, so a reader that falls behind a large
 * artifact sent in chunks is cut off (and resumes from the durable log) instead of holding the
 * artifact in the server (issue 27).
 */
import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../../src/protocol/index.js';
import { EventHub } from '../../src/server/task-run/event-hub.js';

const chunk = (seq: number, chars: number) => ({
  seq,
  event: {
    artifactUpdate: {
      taskId: 't',
      contextId: 'c',
      artifact: { artifactId: 'a', parts: [{ raw: 'A'.repeat(chars) }] },
      append: seq > 1,
    },
  } satisfies StreamResponse,
});

describe('event hub: the bytes a subscriber may hold', () => {
  it('cuts off a subscriber that does not read once its queue outweighs the budget', () => {
    const hub = new EventHub({ maxQueuedBytes: 10_000 });
    const slow = hub.subscribe('t');
    for (let seq = 1; seq <= 3; seq++) hub.publish('t', [chunk(seq, 3_000)]);
    expect(slow.overflowed).toBe(false);
    hub.publish('t', [chunk(4, 3_000)]);
    expect(slow.overflowed).toBe(true);
    // Cut off, it no longer listens: the task has no subscriber left.
    expect(hub.hasSubscribers('t')).toBe(false);
  });

  it('keeps a subscriber that reads, however much passes through it', async () => {
    const hub = new EventHub({ maxQueuedBytes: 10_000 });
    const reader = hub.subscribe('t');
    const iterator = reader[Symbol.asyncIterator]();
    for (let seq = 1; seq <= 50; seq++) {
      hub.publish('t', [chunk(seq, 4_000)]);
      const next = await iterator.next();
      expect(next.value?.seq).toBe(seq);
    }
    expect(reader.overflowed).toBe(false);
    reader.close();
  });

  it('counts a record until it is handed on, not only while it waits', async () => {
    const hub = new EventHub({ maxQueuedBytes: 10_000 });
    const reader = hub.subscribe('t');
    const iterator = reader[Symbol.asyncIterator]();
    hub.publish('t', [chunk(1, 3_000), chunk(2, 3_000), chunk(3, 3_000)]);
    // The reader took the batch and handed on the first record; two still weigh 6,000 bytes.
    expect((await iterator.next()).value?.seq).toBe(1);
    hub.publish('t', [chunk(4, 3_000)]);
    expect(reader.overflowed).toBe(false);
    hub.publish('t', [chunk(5, 3_000)]);
    expect(reader.overflowed).toBe(true);
  });
});
