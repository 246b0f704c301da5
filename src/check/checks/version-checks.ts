/**
 * Service parameters (rules 50, 52, 53, 55; A2A 1.0 §3.2.6, §3.6, §4.6): an unsupported `A2A-Version` gets
 * VersionNotSupportedError (-32009), the version also travels as a REST query parameter, a
 * request without the header is 0.3 (a 1.0-only interface must refuse it), an unknown extension
 * asked for is ignored and not echoed, a required extension not activated gets -32008, and an
 * interface tenant is honoured.
 */
import { randomUUID } from 'node:crypto';
import type { CheckContext } from '../probes/check-context.js';
import { isError } from '../probes/error-checks.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { expectRawError, userMessage } from '../probes/judging.js';
import { WireProbe } from '../probes/wire-probe.js';

/** An extension URI no agent implements. */
const UNKNOWN_EXTENSION = 'https://example.com/concord-check/no-such-extension/v1';

function idOf(body: string | undefined): number | undefined {
  if (body === undefined) return undefined;
  const parsed = JSON.parse(body) as { id?: unknown };
  return typeof parsed.id === 'number' ? parsed.id : undefined;
}

/** Rule 50 on a 1.0 interface; `others` lets it see whether the same URL also serves 0.3. */
export async function checkVersionNegotiation(
  ctx: CheckContext,
  target: ProbeTarget,
  others: ProbeTarget[],
): Promise<void> {
  if (target.version !== '1.0') return;
  const probe = ctx.probe(target);
  const unknownId = `concord-check-${randomUUID()}`;
  const wrong = probe.getRequest(unknownId);
  wrong.headers!['a2a-version'] = '99.0';
  const refused = await ctx.call(target, wrong, idOf(wrong.body));
  ctx.outcome(target, 'version-99', refused.reading);
  expectRawError(
    ctx,
    target,
    50,
    refused.exchange,
    refused.reading,
    'VersionNotSupportedError',
    'A2A-Version: 99.0',
  );

  if (target.binding === 'HTTP+JSON') {
    // A2A 1.0 §3.6.1: over REST the version may be a query parameter instead of the header.
    const query = probe.rest('GET', `tasks/${encodeURIComponent(unknownId)}?A2A-Version=1.0`);
    delete query.headers!['a2a-version'];
    const { exchange, reading } = await ctx.call(target, query);
    ctx.recorder.expect(50, reading.kind === 'error' && reading.error.reason === 'TASK_NOT_FOUND', () => ({
      where: target.label,
      expected:
        'with ?A2A-Version=1.0 and no header, GetTask of an unknown id is the 1.0 TaskNotFoundError (ErrorInfo TASK_NOT_FOUND)',
      ...WireProbe.evidence(exchange),
    }));
  }
  const task = ctx.facts(target).task;
  const serves03 = others.some(
    (o) => o.url === target.url && o.binding === target.binding && o.version === '0.3',
  );
  if (task === undefined || serves03) return;
  // No header means 0.3 (A2A 1.0 §3.6); an interface that only speaks 1.0 must not answer as 1.0.
  const bare = probe.getRequest(task.id);
  delete bare.headers!['a2a-version'];
  const { exchange, reading } = await ctx.call(target, bare, idOf(bare.body));
  ctx.recorder.expect(50, reading.kind === 'error', () => ({
    where: target.label,
    expected: 'a request without A2A-Version is 0.3, which this 1.0-only interface must refuse (-32009)',
    ...WireProbe.evidence(exchange),
  }));
}

/** Rules 52 and 53 on one interface. */
export async function checkExtensions(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const probe = ctx.probe(target);
  const header = target.version === '1.0' ? 'a2a-extensions' : 'x-a2a-extensions';
  const sent = probe.sendRequest({ message: userMessage(ctx) });
  sent.request.headers![header] = UNKNOWN_EXTENSION;
  const { exchange, reading } = await ctx.call(target, sent.request, sent.id);
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  const required = ctx.promises.extensions.filter((e) => e.required);
  if (required.length === 0) {
    ctx.recorder.expect(53, reading.kind === 'result', () =>
      evidence('an unsupported extension asked for is ignored; the send succeeds'),
    );
    const echoed = exchange.answer?.headers[header] ?? exchange.answer?.headers['a2a-extensions'] ?? '';
    ctx.recorder.expect(53, !echoed.includes(UNKNOWN_EXTENSION), () =>
      evidence(`an extension that was not activated is not echoed in ${header}`),
    );
    ctx.recorder.skip(52, 'the card declares no required extension');
    return;
  }
  ctx.recorder.skip(53, 'the card declares a required extension; a send without it is refused (rule 52)');
  if (target.version !== '1.0') return;
  expectRawError(
    ctx,
    target,
    52,
    exchange,
    reading,
    'ExtensionSupportRequiredError',
    `a send that does not activate ${required.map((e) => e.uri).join(', ')}`,
  );
}

/** Rule 55: calls that carry the interface's tenant work. */
export function checkTenant(ctx: CheckContext, target: ProbeTarget): void {
  if (target.version !== '1.0') return;
  if (target.tenant === undefined) {
    ctx.recorder.skip(55, 'no interface declares a tenant');
    return;
  }
  const facts = ctx.facts(target);
  const ok = facts.core.get('send') === true && facts.core.get('get') === true;
  ctx.recorder.expect(
    55,
    ok,
    () =>
      facts.coreEvidence ?? { where: target.label, expected: `calls carrying tenant ${target.tenant} work` },
  );
}

/** Rule 56: a call without credentials is refused when the card asks for them. */
export async function checkAuthentication(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  if (!ctx.promises.requiresAuth) {
    ctx.recorder.skip(56, 'the card declares no security requirements');
    return;
  }
  const probe = ctx.probe(target);
  const sent = probe.sendRequest({ message: userMessage(ctx) });
  delete sent.request.headers!.authorization;
  const { exchange, reading } = await ctx.call(target, sent.request, sent.id);
  const status = exchange.answer?.status;
  const refused =
    status === 401 ||
    status === 403 ||
    (reading.kind === 'error' && isError(reading.error, 'UnauthenticatedError'));
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  if (
    ctx.recorder.expect(56, refused, () =>
      evidence('a send without credentials is refused with 401 (or 403)'),
    ) &&
    status === 401
  )
    if (exchange.answer?.headers['www-authenticate'] === undefined)
      ctx.recorder.warn(56, evidence('a 401 SHOULD carry WWW-Authenticate (A2A 1.0 §7.4)'));
}
