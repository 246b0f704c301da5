/**
 * Rule 11 on every raw JSON-RPC answer the check receives: a JSON body (`application/json`) that
 * is a JSON-RPC 2.0 response, echoing the request's `id` (`null` when the request could not be
 * parsed), with exactly one of `result` and `error`, and an error with an integer `code` and a
 * string `message` (JSON-RPC 2.0 §5; A2A 1.0 §9.5).
 */
import type { CheckRecorder } from '../check-report.js';
import type { ProbeTarget } from './probe-targets.js';
import { jsonOf } from './raw-http.js';
import { WireProbe, type Exchange } from './wire-probe.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with one JSON-RPC response object, or undefined. */
export function jsonRpcProblem(json: unknown, id: number | string | null): string | undefined {
  if (!isObject(json)) return 'the body is not a JSON-RPC response object';
  if (json.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(json.jsonrpc)}, not "2.0"`;
  if (!('id' in json)) return 'the response has no id';
  if (json.id !== id) return `id is ${JSON.stringify(json.id)}; the request's id was ${JSON.stringify(id)}`;
  const hasResult = 'result' in json;
  const hasError = 'error' in json;
  if (hasResult && hasError) return 'the response has both result and error';
  if (!hasResult && !hasError) return 'the response has neither result nor error';
  if (hasError) {
    const error = json.error;
    if (!isObject(error)) return 'error is not an object';
    if (typeof error.code !== 'number' || !Number.isInteger(error.code))
      return 'error.code is not an integer';
    if (typeof error.message !== 'string') return 'error.message is not a string';
  }
  return undefined;
}

/** Judges a raw JSON-RPC exchange on `target` under rule 11; returns true when it was valid. */
export function judgeJsonRpcEnvelope(
  recorder: CheckRecorder,
  target: ProbeTarget,
  exchange: Exchange,
  id: number | string | null,
): boolean {
  const answer = exchange.answer;
  if (answer === undefined) return false;
  // Authentication failures belong to the HTTP layer (A2A 1.0 §7.4), not to JSON-RPC.
  if (answer.status === 401 || answer.status === 403) return true;
  const evidence = () => ({ where: target.label, expected: '', ...WireProbe.evidence(exchange) });
  if (answer.mediaType !== 'application/json' && !answer.mediaType.endsWith('+json')) {
    recorder.fail(11, {
      ...evidence(),
      expected: `a JSON-RPC answer is application/json, got "${answer.mediaType}"`,
    });
    return false;
  }
  const problem = jsonRpcProblem(jsonOf(answer), id);
  return recorder.expect(11, problem === undefined, () => ({ ...evidence(), expected: problem ?? '' }));
}
