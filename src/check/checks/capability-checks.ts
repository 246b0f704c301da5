/**
 * Capability flags against behaviour (rules 6, 39-43; A2A 1.0 §3.3.4): without `pushNotifications`
 * every push-config call must be PushNotificationNotSupportedError; with it, a config must
 * persist, be listed, and go away for good on an idempotent delete. Without `streaming` the
 * streaming calls are UnsupportedOperationError (1.0); without an extended card, so is
 * GetExtendedAgentCard, and with one, it needs credentials of a scheme the card declares (41).
 */
import { randomUUID } from 'node:crypto';
import type { StreamResponse, Task } from '../../protocol/index.js';
import { CheckContext, type ClientOutcome } from '../probes/check-context.js';
import { isError } from '../probes/error-checks.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { expectClientError, userMessage } from '../probes/judging.js';
import { WireProbe } from '../probes/wire-probe.js';

/** Where the check asks agents to deliver push notifications; never called by the check itself. */
const WEBHOOK = 'https://example.com/concord-check/webhook';

async function drain(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

/** Push-config rules on one interface; `task` is the task the text created, if any. */
export async function checkPush(
  ctx: CheckContext,
  target: ProbeTarget,
  task: Task | undefined,
): Promise<void> {
  const taskId = task?.id ?? `concord-check-${randomUUID()}`;
  if (!ctx.promises.pushNotifications) {
    // 1.0 names the error (rule 39); in 0.3 it is what the flag's absence means (rule 6).
    const rule = target.version === '1.0' ? 39 : 6;
    const calls: [
      string,
      (c: Parameters<Parameters<CheckContext['viaClient']>[1]>[0]) => Promise<unknown>,
    ][] = [
      ['create', (c) => c.createTaskPushNotificationConfig({ taskId, url: WEBHOOK })],
      ['get', (c) => c.getTaskPushNotificationConfig({ taskId, id: 'concord-check' })],
      ['list', (c) => c.listTaskPushNotificationConfigs({ taskId })],
      ['delete', (c) => c.deleteTaskPushNotificationConfig({ taskId, id: 'concord-check' })],
    ];
    for (const [name, call] of calls) {
      const outcome = await ctx.viaClient(target, call);
      ctx.outcome(target, `push-${name}`, outcome);
      expectClientError(
        ctx,
        target,
        rule,
        outcome,
        'PushNotificationNotSupportedError',
        `push config ${name} without capabilities.pushNotifications`,
      );
    }
    for (const rule of [42, 43]) ctx.recorder.skip(rule, 'the card declares no push notification support');
    return;
  }
  ctx.recorder.skip(39, 'the card declares push notification support');
  await checkPushConfigs(ctx, target, taskId);
}

async function checkPushConfigs(ctx: CheckContext, target: ProbeTarget, taskId: string): Promise<void> {
  const rec = ctx.recorder;
  const v10 = target.version === '1.0';
  const evidence = (o: ClientOutcome<unknown>, expected: string) =>
    CheckContext.clientEvidence(target, o, expected);
  const created = await ctx.viaClient(target, (c) =>
    c.createTaskPushNotificationConfig({ taskId, url: WEBHOOK }),
  );
  if (!created.ok) {
    if (isError(created.error, 'PushNotificationNotSupportedError')) {
      rec.fail(
        6,
        evidence(created, 'capabilities.pushNotifications is true, so push configs can be created'),
      );
      for (const rule of [42, 43]) rec.skip(rule, 'no push config could be created (rule 6)');
      return;
    }
    for (const rule of [42, 43])
      rec.skip(rule, `the agent refused a config for ${WEBHOOK} on task ${taskId}: ${created.received}`);
    return;
  }
  rec.pass(6);
  if (!v10) return;
  const id = created.value.id;
  if (id === undefined || id === '') {
    rec.fail(42, evidence(created, 'CreateTaskPushNotificationConfig returns the config with its id'));
    return;
  }
  const got = await ctx.viaClient(target, (c) => c.getTaskPushNotificationConfig({ taskId, id }));
  rec.expect(42, got.ok && got.value.url === WEBHOOK, () =>
    evidence(got, `GetTaskPushNotificationConfig returns config ${id}`),
  );
  const listed = await ctx.viaClient(target, (c) => c.listTaskPushNotificationConfigs({ taskId }));
  rec.expect(42, listed.ok && listed.value.configs.some((c) => c.id === id), () =>
    evidence(listed, `the config list holds ${id}`),
  );
  const missing = await ctx.viaClient(target, (c) =>
    c.getTaskPushNotificationConfig({ taskId, id: `missing-${randomUUID()}` }),
  );
  rec.expect(43, !missing.ok && missing.error !== undefined, () =>
    evidence(missing, 'getting a config that does not exist fails'),
  );
  const deleted = await ctx.viaClient(target, (c) => c.deleteTaskPushNotificationConfig({ taskId, id }));
  rec.expect(43, deleted.ok, () => evidence(deleted, `DeleteTaskPushNotificationConfig of ${id} succeeds`));
  const again = await ctx.viaClient(target, (c) => c.deleteTaskPushNotificationConfig({ taskId, id }));
  rec.expect(43, again.ok, () => evidence(again, 'a second delete succeeds too (delete is idempotent)'));
  const gone = await ctx.viaClient(target, (c) => c.getTaskPushNotificationConfig({ taskId, id }));
  rec.expect(43, !gone.ok && gone.error !== undefined, () =>
    evidence(gone, 'a deleted config can no longer be read'),
  );
}

/** Streaming and extended-card capability rules on one interface. */
export async function checkOptionalOperations(
  ctx: CheckContext,
  target: ProbeTarget,
  task: Task | undefined,
): Promise<void> {
  const rec = ctx.recorder;
  const v10 = target.version === '1.0';
  if (!ctx.promises.streaming && v10) {
    const stream = await ctx.viaClient(target, (c) =>
      drain(c.sendStreamingMessage({ message: userMessage(ctx) })),
    );
    ctx.outcome(target, 'stream', stream);
    expectClientError(
      ctx,
      target,
      40,
      stream,
      'UnsupportedOperationError',
      'SendStreamingMessage without capabilities.streaming',
    );
    const id = task?.id ?? `concord-check-${randomUUID()}`;
    const sub = await ctx.viaClient(target, (c) => drain(c.subscribeToTask({ id })));
    expectClientError(
      ctx,
      target,
      40,
      sub,
      'UnsupportedOperationError',
      'SubscribeToTask without capabilities.streaming',
    );
  }
  if (!ctx.promises.extendedCard) {
    rec.skip(41, 'the card offers no extended card');
    if (!v10) return;
    const card = await ctx.viaClient(target, (c) => c.getExtendedAgentCard());
    ctx.outcome(target, 'extended-card', card);
    expectClientError(
      ctx,
      target,
      40,
      card,
      'UnsupportedOperationError',
      'GetExtendedAgentCard without capabilities.extendedAgentCard',
    );
    return;
  }
  await checkExtendedCard(ctx, target);
}

async function checkExtendedCard(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const rec = ctx.recorder;
  const probe = ctx.probe(target);
  rec.expect(41, ctx.promises.schemes.length > 0, () => ({
    where: 'card',
    expected:
      'an extended card needs authentication with a scheme the public card declares, and it declares none',
  }));
  const anonymous =
    target.binding === 'JSONRPC'
      ? probe.jsonRpc(probe.method('getExtendedAgentCard')!, target.version === '1.0' ? {} : undefined)
      : {
          request: probe.rest('GET', target.version === '1.0' ? 'extendedAgentCard' : 'card'),
          id: undefined,
        };
  // Without the credentials this time (rule 41).
  delete anonymous.request.headers!.authorization;
  const { exchange } = await ctx.call(target, anonymous.request, anonymous.id);
  const status = exchange.answer?.status;
  rec.expect(41, status === 401 || status === 403, () => ({
    where: target.label,
    expected: 'the extended card without credentials is refused with 401 (or 403)',
    ...WireProbe.evidence(exchange),
  }));
  if (ctx.settings.token === undefined) {
    rec.skip(40, 'pass --token to fetch the extended card');
    return;
  }
  const card = await ctx.viaClient(target, (c) => c.getExtendedAgentCard());
  const ok = card.ok || isError(card.error, 'ExtendedAgentCardNotConfiguredError');
  if (target.version === '1.0')
    rec.expect(40, ok, () =>
      CheckContext.clientEvidence(
        target,
        card,
        'GetExtendedAgentCard returns the card, or ExtendedAgentCardNotConfiguredError',
      ),
    );
  rec.expect(6, ok, () =>
    CheckContext.clientEvidence(target, card, 'the extended card the card advertises can be fetched'),
  );
}
