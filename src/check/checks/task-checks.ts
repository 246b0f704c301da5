/**
 * The life of one task on one interface, using only what every agent guarantees: send a text
 * message (raw, so the result's wire shape is judged: rules 15-17), follow the task with GetTask
 * (rule 25), try to cancel it (28), send to it once it is finished (22, 23) or with an unknown
 * task id (21), and check ids (18, 19) and blocking (24). A send the agent answers with a
 * Message instead of a Task is valid (A2A 1.0 §3.1.1); the task rules are then skipped here.
 */
import { randomUUID } from 'node:crypto';
import {
  isInterruptedState,
  isTerminalState,
  type Message,
  type SendMessageResponse,
  type Task,
} from '../../protocol/index.js';
import { CheckContext } from '../probes/check-context.js';
import { describeError, isError } from '../probes/error-checks.js';
import { expectClientError, expectRawError, judgeShape, userMessage } from '../probes/judging.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { WireProbe } from '../probes/wire-probe.js';

function taskOf(response: SendMessageResponse | undefined): Task | undefined {
  return response !== undefined && 'task' in response ? response.task : undefined;
}

/** True when the run sends text and the card's input modes leave text out. */
function textRefused(ctx: CheckContext): boolean {
  const modes = ctx.card.defaultInputModes;
  return ctx.run.message.text !== undefined && modes.length > 0 && !modes.includes('text/plain');
}

/** Sends the text, follows the task, and records what the interface's core operations did. */
export async function checkTaskLife(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const rec = ctx.recorder;
  const probe = ctx.probe(target);
  const facts = ctx.facts(target);
  const sent = probe.sendRequest({ message: userMessage(ctx) });
  const { exchange, reading } = await ctx.call(target, sent.request, sent.id);
  ctx.outcome(target, 'send', reading);
  if (reading.kind !== 'result') {
    facts.core.set('send', false);
    facts.coreEvidence = {
      where: target.label,
      expected: `a send of the check's message succeeds${textRefused(ctx) ? "; the card's defaultInputModes take no text/plain: pass --data <json> with a request the agent accepts" : ''}`,
      ...WireProbe.evidence(exchange),
    };
    return;
  }
  const response = judgeShape(
    ctx,
    target,
    exchange,
    reading.value,
    { v03: ['task', 'message'], v10: ['task', 'message'] },
    (v) => probe.codec.decodeSendMessageResponse(v, ''),
  );
  // The operation answered; a result that does not decode is the shape rules' finding (15, 16, 62).
  facts.core.set('send', true);
  if (response === undefined) return;
  const task = taskOf(response);
  if (task === undefined) {
    facts.message = (response as { message: Message }).message;
    for (const rule of [18, 19, 22, 23, 24, 25, 28])
      rec.skip(rule, 'the agent answered the text with a Message, not a Task');
    // No task to follow: GetTask and CancelTask are judged on an unknown id (TaskNotFoundError).
    const answered = await checkUnknownIds(ctx, target);
    facts.core.set('get', answered.get);
    facts.core.set('cancel', answered.cancel);
    return;
  }
  facts.task = task;
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  rec.expect(18, task.id.trim() !== '', () => evidence('the new task has a server-generated id'));
  rec.expect(19, task.contextId.trim() !== '', () =>
    evidence('the task carries the contextId the server generated'),
  );
  if (target.version === '1.0') {
    const state = task.status.state;
    rec.expect(24, isTerminalState(state) || isInterruptedState(state), () =>
      evidence(`a blocking send (the default) returns a terminal or interrupted task, got ${state}`),
    );
  }
  const second = await ctx.viaClient(target, (c) => c.sendMessage({ message: userMessage(ctx) }));
  const other = second.ok ? taskOf(second.value) : undefined;
  if (other !== undefined)
    rec.expect(18, other.id !== task.id, () =>
      CheckContext.clientEvidence(target, second, `a second task gets a new id, not ${task.id}`),
    );
  await checkGet(ctx, target, task);
  await checkUnknownIds(ctx, target);
  await checkCancelAndFollowUps(ctx, target, task);
}

/**
 * GetTask and CancelTask of an unknown id get TaskNotFoundError (rules 25, 28), and so does a 1.0
 * message naming one (21); returns whether each operation answered so.
 */
async function checkUnknownIds(
  ctx: CheckContext,
  target: ProbeTarget,
): Promise<{ get: boolean; cancel: boolean }> {
  const probe = ctx.probe(target);
  const unknown = probe.getRequest(`concord-check-${randomUUID()}`);
  const id = target.binding === 'JSONRPC' ? (JSON.parse(unknown.body!) as { id: number }).id : undefined;
  const missing = await ctx.call(target, unknown, id);
  ctx.outcome(target, 'get-unknown', missing.reading);
  const get = expectRawError(
    ctx,
    target,
    25,
    missing.exchange,
    missing.reading,
    'TaskNotFoundError',
    'GetTask of an unknown id',
  );
  const gone = await ctx.viaClient(target, (c) => c.cancelTask({ id: `concord-check-${randomUUID()}` }));
  ctx.outcome(target, 'cancel-unknown', gone);
  const cancel = expectClientError(ctx, target, 28, gone, 'TaskNotFoundError', 'CancelTask of an unknown id');
  if (target.version === '1.0') {
    const stray = await ctx.viaClient(target, (c) =>
      c.sendMessage({ message: userMessage(ctx, { taskId: `concord-check-${randomUUID()}` }) }),
    );
    expectClientError(ctx, target, 21, stray, 'TaskNotFoundError', 'a message naming an unknown taskId');
  }
  return { get, cancel };
}

async function checkGet(ctx: CheckContext, target: ProbeTarget, task: Task): Promise<void> {
  const rec = ctx.recorder;
  const probe = ctx.probe(target);
  const get = async (historyLength?: number) => {
    const request = probe.getRequest(task.id, historyLength);
    const id = target.binding === 'JSONRPC' ? (JSON.parse(request.body!) as { id: number }).id : undefined;
    const { exchange, reading } = await ctx.call(target, request, id);
    const evidence = (expected: string) => ({
      where: target.label,
      expected,
      ...WireProbe.evidence(exchange),
    });
    if (reading.kind !== 'result') {
      rec.fail(
        25,
        evidence(
          `GetTask of the task just created returns it${reading.kind === 'error' ? `, got ${describeError(reading.error)}` : ''}`,
        ),
      );
      return undefined;
    }
    return {
      got: judgeShape(ctx, target, exchange, reading.value, { v03: ['task'] }, (v) =>
        probe.codec.decodeTask(v, ''),
      ),
      evidence,
    };
  };
  const full = await get();
  ctx.facts(target).core.set('get', full !== undefined);
  if (full?.got !== undefined) {
    const { got, evidence } = full;
    const sameState = !isTerminalState(task.status.state) || got.status.state === task.status.state;
    rec.expect(25, got.id === task.id && sameState, () =>
      evidence(
        `GetTask returns task ${task.id} in its current state ${task.status.state}, got ${got.id} in ${got.status.state}`,
      ),
    );
    rec.expect(25, (got.artifacts?.length ?? 0) >= (task.artifacts?.length ?? 0), () =>
      evidence(`GetTask returns the task's ${task.artifacts?.length ?? 0} artifact(s)`),
    );
  }
  const one = await get(1);
  if (one?.got !== undefined)
    rec.expect(25, (one.got.history?.length ?? 0) <= 1, () =>
      one.evidence('historyLength=1 returns at most one message'),
    );
  if (target.version === '1.0') {
    const none = await get(0);
    if (none?.got !== undefined)
      rec.expect(25, (none.got.history?.length ?? 0) === 0, () =>
        none.evidence('historyLength=0 returns no history (1.0)'),
      );
  }
}

async function checkCancelAndFollowUps(ctx: CheckContext, target: ProbeTarget, task: Task): Promise<void> {
  const rec = ctx.recorder;
  const facts = ctx.facts(target);
  const cancel = await ctx.viaClient(target, (c) => c.cancelTask({ id: task.id }));
  ctx.outcome(target, 'cancel-finished', cancel);
  if (isTerminalState(task.status.state)) {
    facts.core.set(
      'cancel',
      expectClientError(
        ctx,
        target,
        28,
        cancel,
        'TaskNotCancelableError',
        `CancelTask of a ${task.status.state} task`,
      ),
    );
  } else {
    const ok = cancel.ok ? cancel.value.id === task.id : isError(cancel.error, 'TaskNotCancelableError');
    facts.core.set('cancel', ok);
    rec.expect(28, ok, () =>
      CheckContext.clientEvidence(
        target,
        cancel,
        'CancelTask of an open task returns it, or TaskNotCancelableError',
      ),
    );
  }
  const finished = await ctx.viaClient(target, (c) => c.getTask({ id: task.id }));
  if (!finished.ok || !isTerminalState(finished.value.status.state)) {
    for (const rule of [22, 23])
      rec.skip(rule, 'the task the text created did not finish (it waits for input)');
    return;
  }
  const state = finished.value.status.state;
  const follow = await ctx.viaClient(target, (c) =>
    c.sendMessage({ message: userMessage(ctx, { taskId: task.id, contextId: task.contextId }) }),
  );
  if (target.version === '1.0')
    expectClientError(ctx, target, 22, follow, 'UnsupportedOperationError', `a message to a ${state} task`);
  else
    rec.expect(22, !follow.ok && follow.error !== undefined, () =>
      CheckContext.clientEvidence(target, follow, `a message to a ${state} task is rejected with an error`),
    );
  const restarted = follow.ok ? taskOf(follow.value) : undefined;
  const after = await ctx.viaClient(target, (c) => c.getTask({ id: task.id }));
  const still =
    after.ok &&
    after.value.status.state === state &&
    (restarted === undefined || restarted.id !== task.id || isTerminalState(restarted.status.state));
  rec.expect(23, still, () =>
    CheckContext.clientEvidence(
      target,
      after.ok && restarted !== undefined ? follow : after,
      `task ${task.id} stays ${state} after a follow-up message`,
    ),
  );
}
