/**
 * JSON-RPC input no client would send (rules 11-14): malformed JSON (-32700 with `id: null`), a
 * request object without a method (-32600), an unknown method (-32601), a send without its
 * message (-32602), and every method name of the version, called with made-up ids, answered
 * with anything but -32601 (A2A 1.0 §5.3, §9.5; A2A 0.3 §3.5.6).
 */
import { randomUUID } from 'node:crypto';
import type { CheckContext } from '../probes/check-context.js';
import { jsonRpcProblem } from '../probes/envelope-checks.js';
import { describeError, expectedError, isError } from '../probes/error-checks.js';
import { JSON_RPC_METHOD_NAMES, type OperationName } from '../../protocol/internal.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { jsonOf } from '../probes/raw-http.js';
import { WireProbe, type Exchange, type Reading } from '../probes/wire-probe.js';

/** Minimal params per operation, naming a task that does not exist. */
function paramsFor(operation: OperationName, version: '0.3' | '1.0', taskId: string): unknown {
  const v10 = version === '1.0';
  switch (operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return {}; // no message: -32602 proves the name is known without starting a task
    case 'getTask':
    case 'cancelTask':
    case 'subscribeToTask':
      return { id: taskId };
    case 'listTasks':
      return { pageSize: 1 };
    case 'createTaskPushNotificationConfig':
      return v10
        ? { taskId, url: 'https://example.com/concord-check/webhook' }
        : { taskId, pushNotificationConfig: { url: 'https://example.com/concord-check/webhook' } };
    case 'getTaskPushNotificationConfig':
    case 'deleteTaskPushNotificationConfig':
      return v10
        ? { taskId, id: 'concord-check' }
        : { id: taskId, pushNotificationConfigId: 'concord-check' };
    case 'listTaskPushNotificationConfigs':
      return v10 ? { taskId } : { id: taskId };
    case 'getExtendedAgentCard':
      return v10 ? {} : undefined;
    default:
      return operation satisfies never;
  }
}

/** Whether the card lets this operation exist in 0.3 (0.3 does not say what a missing capability answers). */
function offeredIn03(ctx: CheckContext, operation: OperationName): boolean {
  if (operation === 'sendStreamingMessage' || operation === 'subscribeToTask') return ctx.promises.streaming;
  if (operation.includes('PushNotificationConfig')) return ctx.promises.pushNotifications;
  if (operation === 'getExtendedAgentCard') return ctx.promises.extendedCard;
  return true;
}

/** Rules 11-14 on a JSON-RPC interface. */
export async function checkJsonRpc(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const rec = ctx.recorder;
  const probe = ctx.probe(target);
  const send = probe.method('sendMessage')!;

  const malformed = probe.jsonRpc(send, undefined, {
    body: `{"jsonrpc": "2.0", "id": 1, "method": "${send}", "params": {`,
  });
  const parse = await ctx.call(target, malformed.request, null);
  expectCode(ctx, target, parse, 'JSONParseError', 'malformed JSON');

  const noMethod = probe.jsonRpc(send, undefined, {
    body: JSON.stringify({ jsonrpc: '2.0', id: 'concord-check', params: {} }),
  });
  const invalid = await ctx.call(target, noMethod.request);
  // JSON-RPC 2.0 §5: the id is echoed when it could be read, null otherwise; accept either.
  const json = invalid.exchange.answer === undefined ? undefined : jsonOf(invalid.exchange.answer);
  const envelope = [jsonRpcProblem(json, 'concord-check'), jsonRpcProblem(json, null)];
  if (invalid.exchange.answer !== undefined)
    rec.expect(11, envelope.includes(undefined), () => ({
      where: target.label,
      expected: envelope[0] ?? '',
      ...WireProbe.evidence(invalid.exchange),
    }));
  expectCode(ctx, target, invalid, 'InvalidRequestError', 'a request object without a method');

  const unknown = probe.jsonRpc('concord.check/noSuchMethod', {});
  expectCode(
    ctx,
    target,
    await ctx.call(target, unknown.request, unknown.id),
    'MethodNotFoundError',
    'an unknown method',
  );

  const bad = probe.jsonRpc(send, { message: { messageId: 42 } });
  expectCode(
    ctx,
    target,
    await ctx.call(target, bad.request, bad.id),
    'InvalidParamsError',
    `${send} with an invalid message`,
  );

  await checkMethodNames(ctx, target);
}

function expectCode(
  ctx: CheckContext,
  target: ProbeTarget,
  call: { exchange: Exchange; reading: Reading },
  type: Parameters<typeof isError>[1],
  what: string,
): void {
  const { reading } = call;
  const ok = reading.kind === 'error' && isError(reading.error, type);
  ctx.recorder.expect(12, ok, () => ({
    where: target.label,
    expected: `${what}: ${expectedError(type)}${reading.kind === 'error' ? `, got ${describeError(reading.error)}` : ''}`,
    ...WireProbe.evidence(call.exchange),
  }));
}

async function checkMethodNames(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const probe = ctx.probe(target);
  const rule = target.version === '1.0' ? 14 : 13;
  const taskId = `concord-check-${randomUUID()}`;
  for (const operation of Object.keys(JSON_RPC_METHOD_NAMES[target.version]) as OperationName[]) {
    const method = probe.method(operation)!;
    if (target.version === '0.3' && !offeredIn03(ctx, operation)) {
      ctx.recorder.skip(rule, `${method}: the card does not offer it, and 0.3 names no error for that`);
      continue;
    }
    const call = probe.jsonRpc(method, paramsFor(operation, target.version, taskId));
    const streaming = operation === 'sendStreamingMessage' || operation === 'subscribeToTask';
    if (streaming) call.request.headers!.accept = 'text/event-stream';
    // A stream that starts anyway is a known method too; stop reading at the first bytes.
    const { exchange, reading } = await ctx.call(
      target,
      call.request,
      streaming ? undefined : call.id,
      (_, c) => {
        if (c.mediaType === 'text/event-stream') c.stop();
      },
    );
    const known =
      !(reading.kind === 'error' && isError(reading.error, 'MethodNotFoundError')) &&
      exchange.answer !== undefined;
    ctx.recorder.expect(rule, known, () => ({
      where: target.label,
      expected: `${method} is a method of A2A ${target.version}, answered with anything but -32601`,
      ...WireProbe.evidence(exchange),
    }));
  }
}
