/**
 * How the checks judge what came back: the wire shape of a raw result (rules 15-17, then the
 * strict decoding of the version's codec), and whether an error is the one a rule expects, with
 * the evidence recorded either way. Also the text messages the checks send.
 */
import { randomUUID } from 'node:crypto';
import type { A2AErrorType, Message } from '../../protocol/index.js';
import { CheckContext, type ClientOutcome } from './check-context.js';
import { describeError, expectedError, isError } from './error-checks.js';
import type { ProbeTarget } from './probe-targets.js';
import { describeProblems, timestampProblems, v03ShapeProblems, v10ShapeProblems } from './shape-checks.js';
import { WireProbe, type Exchange, type Reading } from './wire-probe.js';

/** A user text message with a fresh id. */
export function userText(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** The run's own message (its `--text`, or its `--data` part) with a fresh id. */
export function userMessage(ctx: CheckContext, extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ ...ctx.run.message }], ...extra };
}

/** Judges the wire shape of a raw result (rules 15-17); returns the decoded value or undefined. */
export function judgeShape<T>(
  ctx: CheckContext,
  target: ProbeTarget,
  exchange: Exchange,
  value: unknown,
  kinds: { v03: string[]; v10?: string[] },
  decode: (value: unknown) => T,
): T | undefined {
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  const rec = ctx.recorder;
  if (target.version === '1.0') {
    const problems = v10ShapeProblems(value, kinds.v10);
    rec.expect(16, problems.length === 0, () => evidence(describeProblems(problems)));
    const times = timestampProblems(value);
    rec.expect(17, times.length === 0, () => evidence(describeProblems(times)));
  } else if (target.binding === 'JSONRPC') {
    const problems = v03ShapeProblems(value, kinds.v03);
    rec.expect(15, problems.length === 0, () => evidence(describeProblems(problems)));
  }
  try {
    return decode(value);
  } catch (error) {
    // The shape rule of the dialect; 0.3 REST is ProtoJSON of the 0.3 proto (decision 0008).
    const rule = target.version === '1.0' ? 16 : target.binding === 'JSONRPC' ? 15 : 62;
    rec.fail(rule, evidence(`a payload the ${target.version} schema accepts: ${(error as Error).message}`));
    return undefined;
  }
}

/** Expects `outcome` to be the error `type`; records under `rule`. */
export function expectClientError(
  ctx: CheckContext,
  target: ProbeTarget,
  rule: number,
  outcome: ClientOutcome<unknown>,
  type: A2AErrorType,
  what: string,
): boolean {
  const ok = !outcome.ok && isError(outcome.error, type);
  return ctx.recorder.expect(rule, ok, () =>
    CheckContext.clientEvidence(
      target,
      outcome,
      `${what}: ${expectedError(type)}${!outcome.ok && outcome.error !== undefined ? `, got ${describeError(outcome.error)}` : ''}`,
    ),
  );
}

/** Expects a raw reading to be the error `type`; records under `rule`. */
export function expectRawError(
  ctx: CheckContext,
  target: ProbeTarget,
  rule: number,
  exchange: Exchange,
  reading: Reading,
  type: A2AErrorType,
  what: string,
): boolean {
  const ok = reading.kind === 'error' && isError(reading.error, type);
  return ctx.recorder.expect(rule, ok, () => ({
    where: target.label,
    expected: `${what}: ${expectedError(type)}${reading.kind === 'error' ? `, got ${describeError(reading.error)}` : ''}`,
    ...WireProbe.evidence(exchange),
  }));
}
