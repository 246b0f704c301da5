/**
 * Validation of input (rule 59; A2A 1.0 §5.7, §13.4): a message whose only part has no content
 * is refused with InvalidParamsError (HTTP 400 over REST), malformed JSON over REST is refused
 * with 400, and in 1.0 unknown fields are ignored rather than refused.
 */
import { randomUUID } from 'node:crypto';
import type { CheckContext } from '../probes/check-context.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { expectRawError } from '../probes/judging.js';
import { WireProbe } from '../probes/wire-probe.js';

/** The message, in the interface's dialect, with one part that has no content. */
function emptyPartMessage(target: ProbeTarget): Record<string, unknown> {
  const messageId = randomUUID();
  if (target.version === '1.0') return { messageId, role: 'ROLE_USER', parts: [{}] };
  if (target.binding === 'JSONRPC')
    return { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text' }] };
  return { messageId, role: 'ROLE_USER', content: [{}] };
}

/** Rule 59 on one interface. */
export async function checkInputValidation(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const probe = ctx.probe(target);
  const params = { message: emptyPartMessage(target) };
  const empty =
    target.binding === 'JSONRPC'
      ? probe.jsonRpc(probe.method('sendMessage')!, params)
      : { request: probe.rest('POST', 'message:send', params), id: undefined };
  const refused = await ctx.call(target, empty.request, empty.id);
  ctx.outcome(target, 'empty-part', refused.reading);
  expectRawError(
    ctx,
    target,
    59,
    refused.exchange,
    refused.reading,
    'InvalidParamsError',
    'a message part with no content',
  );

  if (target.binding === 'HTTP+JSON') {
    const broken = probe.rest('POST', 'message:send', '{"message": {');
    const { exchange, reading } = await ctx.call(target, broken);
    ctx.recorder.expect(59, reading.kind === 'error' && exchange.answer?.status === 400, () => ({
      where: target.label,
      expected: 'malformed JSON is refused with HTTP 400',
      ...WireProbe.evidence(exchange),
    }));
  }
  if (target.version !== '1.0') return;
  // A2A 1.0 §5.7: unknown fields SHOULD be ignored; rule 59 makes it the 1.0 behaviour.
  const message = {
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts: [{ ...ctx.run.message }],
    concordCheckUnknown: 1,
  };
  const extra = { message, concordCheckUnknownField: true };
  const lenient =
    target.binding === 'JSONRPC'
      ? probe.jsonRpc(
          probe.method('sendMessage')!,
          target.tenant === undefined ? extra : { ...extra, tenant: target.tenant },
        )
      : { request: probe.rest('POST', 'message:send', extra), id: undefined };
  const accepted = await ctx.call(target, lenient.request, lenient.id);
  ctx.recorder.expect(59, accepted.reading.kind === 'result', () => ({
    where: target.label,
    expected: 'unknown fields in a 1.0 request are ignored, not refused',
    ...WireProbe.evidence(accepted.exchange),
  }));
}
