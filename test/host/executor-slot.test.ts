/**
 * The executor slot a mounted agent's server keeps (decision 0022): after a reload replaces the
 * executor, new messages run on the new one, a message already running finishes on the one it
 * started on (and a cancel reaches that one), and the replaced executor is disposed only when its
 * last message has ended.
 */
import { describe, expect, it } from 'vitest';
import { ExecutorSlot, type DisposableExecutor } from '../../src/host/executor-slot.js';
import type { RequestContext, TaskUpdater } from '../../src/server/index.js';

interface Probe extends DisposableExecutor {
  ran: string[];
  canceled: string[];
  disposed: number;
  /** Ends the running execution of a task. */
  finish(taskId: string): void;
}

function probe(): Probe {
  const waiting = new Map<string, () => void>();
  const p: Probe = {
    ran: [],
    canceled: [],
    disposed: 0,
    execute(context) {
      p.ran.push(context.taskId);
      return new Promise<void>((done) => waiting.set(context.taskId, done));
    },
    cancel(context) {
      p.canceled.push(context.taskId);
    },
    dispose() {
      p.disposed++;
      return Promise.resolve();
    },
    finish(taskId) {
      waiting.get(taskId)?.();
    },
  };
  return p;
}

const context = (taskId: string): RequestContext => ({ taskId }) as RequestContext;
const updater = {} as TaskUpdater;
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('ExecutorSlot', () => {
  it('keeps running messages on the old executor and disposes it when they end', async () => {
    const errors: unknown[] = [];
    const a = probe();
    const b = probe();
    const slot = new ExecutorSlot(a, (e) => errors.push(e));
    const first = slot.executor.execute(context('t1'), updater);
    slot.replace(b);
    const second = slot.executor.execute(context('t2'), updater);
    expect(a.ran).toEqual(['t1']);
    expect(b.ran).toEqual(['t2']);
    // A cancel reaches the executor the task runs on.
    await slot.executor.cancel!(context('t1'), updater);
    await slot.executor.cancel!(context('t2'), updater);
    expect(a.canceled).toEqual(['t1']);
    expect(b.canceled).toEqual(['t2']);
    expect(a.disposed).toBe(0);
    a.finish('t1');
    await first;
    await tick();
    expect(a.disposed).toBe(1);
    b.finish('t2');
    await second;
    expect(b.disposed).toBe(0);
    await slot.close();
    expect(b.disposed).toBe(1);
    expect(a.disposed).toBe(1);
    expect(errors).toEqual([]);
  });

  it('disposes an idle replaced executor at once, and every executor on close', async () => {
    const a = probe();
    const b = probe();
    const c = probe();
    const slot = new ExecutorSlot(a, () => undefined);
    slot.replace(b);
    await tick();
    expect(a.disposed).toBe(1);
    const running = slot.executor.execute(context('t3'), updater);
    slot.replace(c);
    await slot.close();
    expect([b.disposed, c.disposed]).toEqual([1, 1]);
    b.finish('t3');
    await running;
    await tick();
    // Not disposed twice when its last message ends after the close.
    expect(b.disposed).toBe(1);
  });
});
