/**
 * Judging A2A errors: does an error stand for the one a rule expects (by JSON-RPC code, by
 * ErrorInfo reason, or on REST without an ErrorInfo by the 1.0.1 HTTP status), and is its
 * envelope right for the version (rule 47: the 1.0 JSON-RPC `error.data` array with an
 * ErrorInfo; rule 48: the 1.0 REST status and google.rpc.Status body; A2A 1.0 §9.5, §11.6).
 */
import { A2A_ERROR_DOMAIN, ERROR_CATALOG, type A2AErrorType } from '../../protocol/internal.js';
import type { CheckRecorder, Evidence } from '../check-report.js';
import type { ProbeTarget } from './probe-targets.js';
import type { WireError } from './wire-probe.js';

const REASON_BY_CODE = new Map(Object.values(ERROR_CATALOG).map((e) => [e.code, e.reason]));
const A2A_REASONS = new Set(REASON_BY_CODE.values());

/** True for an ErrorInfo reason of A2A's own table (not an extension's). */
export function isA2AReason(reason: string | undefined): boolean {
  return reason !== undefined && A2A_REASONS.has(reason);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `error` is the catalog error `type`. */
export function isError(error: WireError | undefined, type: A2AErrorType): boolean {
  if (error === undefined) return false;
  const entry = ERROR_CATALOG[type];
  if (error.code === entry.code || error.reason === entry.reason) return true;
  // A REST error carries no A2A code. Without an A2A reason — none, or an extension's own (AAP's
  // SCHEMA_VALIDATION_FAILED) — its status says which A2A error it stands for (A2A 1.0 §5.4;
  // rule 48 judges the body).
  return error.code === undefined && !isA2AReason(error.reason) && error.httpStatus === entry.httpStatus;
}

/** How an error reads in evidence: `-32001 TASK_NOT_FOUND (HTTP 404)`. */
export function describeError(error: WireError): string {
  const parts = [error.code === undefined ? 'no code' : String(error.code)];
  if (error.reason !== undefined) parts.push(error.reason);
  return `${parts.join(' ')} (HTTP ${error.httpStatus})`;
}

/** The expected error in words: `TaskNotFoundError (-32001)`. */
export function expectedError(type: A2AErrorType): string {
  return `${type} (${ERROR_CATALOG[type].code})`;
}

function errorInfos(list: unknown[]): Record<string, unknown>[] {
  return list.filter(
    (d): d is Record<string, unknown> =>
      isObject(d) && String(d['@type'] ?? '').endsWith('google.rpc.ErrorInfo'),
  );
}

/** Rule 47: a 1.0 JSON-RPC error's `data`. */
function judgeJsonRpcData(recorder: CheckRecorder, error: WireError, evidence: () => Evidence): void {
  const body = isObject(error.body) && isObject(error.body.error) ? error.body.error : {};
  const data = body.data;
  const code = error.code ?? 0;
  const a2a = code <= -32001 && code >= -32099;
  if (data === undefined && !a2a) return;
  const problem = (() => {
    if (!Array.isArray(data)) return 'error.data is not an array of typed details';
    if (data.some((d) => !isObject(d) || typeof d['@type'] !== 'string'))
      return 'every error.data element needs an @type';
    if (!a2a) return undefined;
    const info = errorInfos(data)[0];
    if (info === undefined) return 'an A2A error needs a google.rpc.ErrorInfo in error.data';
    if (info.domain !== A2A_ERROR_DOMAIN)
      return `ErrorInfo.domain is ${JSON.stringify(info.domain)}, not "${A2A_ERROR_DOMAIN}"`;
    const expected = REASON_BY_CODE.get(code);
    if (expected !== undefined && info.reason !== expected)
      return `ErrorInfo.reason is ${JSON.stringify(info.reason)}; code ${code} is ${expected}`;
    return undefined;
  })();
  recorder.expect(47, problem === undefined, () => ({ ...evidence(), expected: problem ?? '' }));
}

/** Rule 48: a 1.0 REST error's status and body. */
function judgeRestBody(recorder: CheckRecorder, error: WireError, evidence: () => Evidence): void {
  const body = isObject(error.body) && isObject(error.body.error) ? error.body.error : undefined;
  const problem = (() => {
    if (body === undefined) return 'a REST error body is {"error": {code, status, message, details}}';
    if (typeof body.code !== 'number' || typeof body.status !== 'string' || typeof body.message !== 'string')
      return 'error.code (number), error.status (string) and error.message (string) are required';
    if (!Array.isArray(body.details)) return 'error.details must be an array';
    const info = errorInfos(body.details)[0];
    if (info === undefined || typeof info.reason !== 'string')
      return 'error.details must include a google.rpc.ErrorInfo with a reason';
    const entry = Object.values(ERROR_CATALOG).find((e) => e.reason === info.reason);
    if (entry !== undefined && info.domain === A2A_ERROR_DOMAIN && entry.httpStatus !== error.httpStatus)
      return `${info.reason} is HTTP ${entry.httpStatus} in the 1.0.1 table, not ${error.httpStatus}`;
    return undefined;
  })();
  recorder.expect(48, problem === undefined, () => ({ ...evidence(), expected: problem ?? '' }));
}

/** Judges the envelope of an error received on `target` (1.0 only; 0.3 defines none for REST). */
export function judgeErrorEnvelope(
  recorder: CheckRecorder,
  target: ProbeTarget,
  error: WireError,
  evidence: () => Evidence,
): void {
  if (target.version !== '1.0') return;
  // Authentication failures happen at the HTTP layer (A2A 1.0 §7.4): no A2A envelope is owed.
  if (error.httpStatus === 401 || error.httpStatus === 403) return;
  if (target.binding === 'JSONRPC') judgeJsonRpcData(recorder, error, evidence);
  else judgeRestBody(recorder, error, evidence);
}
