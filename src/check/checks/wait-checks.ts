/**
 * Rules that need a task which stays open, enabled by `--wait-text` (a text the agent answers by
 * working until the task is canceled, such as the echo example's `wait`): returnImmediately
 * returns at once (24), a mismatched contextId is refused (20), SubscribeToTask starts with the
 * Task (34), concurrent subscribers see the same events and one leaving does not disturb the
 * others (36), the streams close once the task is canceled (35), and cancel returns the canceled
 * task, idempotently (28).
 */
import { randomUUID } from 'node:crypto';
import { isTerminalState, type StreamResponse, type Task } from '../../protocol/index.js';
import { CheckContext, type ClientOutcome } from '../probes/check-context.js';
import { isError } from '../probes/error-checks.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { userMessage, userText } from '../probes/judging.js';

interface Subscriber {
  events: StreamResponse[];
  /** Resolves at the first event (or the end). */
  started: Promise<void>;
  done: Promise<ClientOutcome<StreamResponse[]>>;
  abort: AbortController;
}

function subscribe(ctx: CheckContext, target: ProbeTarget, id: string): Subscriber {
  const events: StreamResponse[] = [];
  const abort = new AbortController();
  let started: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (started = resolve));
  const done = ctx.viaClient(target, async (c) => {
    try {
      for await (const event of c.subscribeToTask({ id }, { signal: abort.signal })) {
        events.push(event);
        started();
      }
    } finally {
      started();
    }
    return events;
  });
  return { events, started: first, done, abort };
}

function signature(event: StreamResponse): string {
  if ('statusUpdate' in event) return `status ${event.statusUpdate.status.state}`;
  if ('artifactUpdate' in event) return `artifact ${event.artifactUpdate.artifact.artifactId}`;
  if ('task' in event) return `task ${event.task.status.state}`;
  return 'message';
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return Promise.race([
    promise,
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref()),
  ]);
}

/** Runs the open-task rules on one interface. */
export async function checkWaitingTask(
  ctx: CheckContext,
  target: ProbeTarget,
  waitText: string,
): Promise<void> {
  const rec = ctx.recorder;
  const v10 = target.version === '1.0';
  const started = await ctx.viaClient(target, (c) =>
    c.sendMessage({ message: userText(waitText), configuration: { returnImmediately: true } }),
  );
  const task: Task | undefined = started.ok && 'task' in started.value ? started.value.task : undefined;
  if (v10)
    rec.expect(24, started.ok, () =>
      CheckContext.clientEvidence(
        target,
        started,
        'returnImmediately: true returns while the task still runs',
      ),
    );
  if (task === undefined || isTerminalState(task.status.state)) {
    for (const rule of [20, 34, 36])
      rec.skip(rule, `the wait text ${JSON.stringify(waitText)} did not leave a task open`);
    return;
  }
  if (v10) {
    const mismatch = await ctx.viaClient(target, (c) =>
      c.sendMessage({
        message: userMessage(ctx, { taskId: task.id, contextId: `concord-check-${randomUUID()}` }),
      }),
    );
    rec.expect(20, !mismatch.ok && mismatch.error !== undefined, () =>
      CheckContext.clientEvidence(
        target,
        mismatch,
        `a message to task ${task.id} with a contextId that is not the task's is rejected`,
      ),
    );
  }
  const streaming = ctx.promises.streaming && v10;
  const subscribers = streaming ? [0, 1, 2].map(() => subscribe(ctx, target, task.id)) : [];
  await within(Promise.all(subscribers.map((s) => s.started)), ctx.run.timeoutMs);
  for (const s of subscribers.slice(0, 1)) {
    const first = s.events[0];
    rec.expect(34, first !== undefined && 'task' in first && first.task.id === task.id, () => ({
      where: target.label,
      expected: `SubscribeToTask of ${task.id} starts with the Task`,
      received: first === undefined ? 'no event' : JSON.stringify(first).slice(0, 400),
    }));
  }
  // The third subscriber leaves early; the other two must not notice (A2A 1.0 §3.5.2).
  subscribers[2]?.abort.abort();
  const canceled = await ctx.viaClient(target, (c) => c.cancelTask({ id: task.id }));
  const ok = canceled.ok
    ? canceled.value.status.state === 'TASK_STATE_CANCELED'
    : isError(canceled.error, 'TaskNotCancelableError');
  rec.expect(28, ok, () =>
    CheckContext.clientEvidence(
      target,
      canceled,
      'CancelTask of a working task returns it canceled (or TaskNotCancelableError)',
    ),
  );
  if (canceled.ok) {
    const again = await ctx.viaClient(target, (c) => c.cancelTask({ id: task.id }));
    const idempotent = again.ok
      ? again.value.status.state === 'TASK_STATE_CANCELED'
      : isError(again.error, 'TaskNotCancelableError');
    rec.expect(28, idempotent, () =>
      CheckContext.clientEvidence(
        target,
        again,
        'cancelling a canceled task again returns it or TaskNotCancelableError',
      ),
    );
    const got = await ctx.viaClient(target, (c) => c.getTask({ id: task.id }));
    rec.expect(28, got.ok && got.value.status.state === 'TASK_STATE_CANCELED', () =>
      CheckContext.clientEvidence(target, got, 'GetTask shows the task canceled'),
    );
  }
  if (!streaming) return;
  const ends = await Promise.all(subscribers.slice(0, 2).map((s) => within(s.done, ctx.run.timeoutMs)));
  const [a, b] = subscribers;
  const closed = ends.every((e) => e !== 'timeout');
  rec.expect(35, closed, () => ({
    where: target.label,
    expected: `every subscription of ${task.id} closes once it is canceled`,
  }));
  if (!canceled.ok) return;
  for (const end of ends) {
    if (end !== 'timeout' && !end.ok)
      rec.fail(
        36,
        CheckContext.clientEvidence(target, end, 'each subscription carries valid events until it closes'),
      );
  }
  const seqA = a!.events.slice(1).map(signature);
  const seqB = b!.events.slice(1).map(signature);
  rec.expect(36, seqA.join() === seqB.join() && seqA.length > 0, () => ({
    where: target.label,
    expected: 'two subscribers of one task get the same events in the same order, though a third left early',
    received: `first: [${seqA.join(', ')}]; second: [${seqB.join(', ')}]`,
  }));
}
