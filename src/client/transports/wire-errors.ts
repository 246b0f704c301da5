/**
 * Reads A2A errors off the wire, whatever envelope carried them (A2A 1.0 §9.5, §11.6): the 1.0 JSON-RPC
 * `error.data` array of typed details, the 0.3 JSON-RPC free-form `error.data`, and the REST
 * google.rpc.Status body (A2A 1.0 §11.6). Anything else that is not a success is BAD_RESPONSE.
 */
import { ERROR_CATALOG, type FieldViolation } from '../../protocol/internal.js';
import { A2AClientError, A2ALocalError, type WireErrorFacts } from '../client-errors.js';

const CODE_BY_REASON = new Map(Object.values(ERROR_CATALOG).map((e) => [e.reason, e.code]));

type Facts = Pick<WireErrorFacts, 'reason' | 'metadata' | 'violations'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

function violationsOf(value: unknown): FieldViolation[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isObject)
    .map((v) => ({ field: String(v.field ?? ''), description: String(v.description ?? '') }));
}

/** Facts from a typed `details` list (ErrorInfo, BadRequest), ignoring details of other types. */
function fromDetails(details: unknown[]): Facts {
  const facts: Facts = {};
  for (const detail of details) {
    if (!isObject(detail)) continue;
    const type = String(detail['@type'] ?? '');
    if (type.endsWith('google.rpc.ErrorInfo')) {
      if (typeof detail.reason === 'string') facts.reason = detail.reason;
      const metadata = stringMap(detail.metadata);
      if (metadata !== undefined) facts.metadata = metadata;
    } else if (type.endsWith('google.rpc.BadRequest')) {
      const violations = violationsOf(detail.fieldViolations);
      if (violations !== undefined) facts.violations = violations;
    }
  }
  return facts;
}

/** Facts from a 0.3 JSON-RPC `error.data` object (Concord's form; other servers put anything). */
function fromLegacyData(data: Record<string, unknown>): Facts {
  const facts: Facts = {};
  if (typeof data.reason === 'string') facts.reason = data.reason;
  const metadata = stringMap(data.metadata);
  if (metadata !== undefined) facts.metadata = metadata;
  const violations = violationsOf(data.violations);
  if (violations !== undefined) facts.violations = violations;
  return facts;
}

/** The A2AClientError of a JSON-RPC error object, or undefined when `error` is not one. */
export function jsonRpcError(httpStatus: number, body: Record<string, unknown>): A2AClientError | undefined {
  const error = body.error;
  if (!isObject(error) || typeof error.code !== 'number') return undefined;
  const facts = Array.isArray(error.data)
    ? fromDetails(error.data)
    : isObject(error.data)
      ? fromLegacyData(error.data)
      : {};
  return new A2AClientError({
    code: error.code,
    httpStatus,
    message: typeof error.message === 'string' ? error.message : `JSON-RPC error ${error.code}`,
    body,
    ...facts,
  });
}

/**
 * The A2AClientError of a REST error body, or undefined when `body` is not one. Besides the
 * google.rpc.Status form (A2A 1.0 §11.6), the bare `{code, message, data?}` that a2a-js answers
 * on 0.3 REST is read too: 0.3 defines no REST error body (A2A 0.3 §8 is JSON-RPC only).
 */
export function restError(httpStatus: number, body: unknown): A2AClientError | undefined {
  if (isObject(body) && typeof body.code === 'number' && typeof body.message === 'string') {
    const facts = Array.isArray(body.data)
      ? fromDetails(body.data)
      : isObject(body.data)
        ? fromLegacyData(body.data)
        : {};
    return new A2AClientError({ code: body.code, httpStatus, message: body.message, body, ...facts });
  }
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const error = body.error;
  const facts = Array.isArray(error.details) ? fromDetails(error.details) : {};
  const code = facts.reason === undefined ? undefined : CODE_BY_REASON.get(facts.reason);
  return new A2AClientError({
    code: code ?? 0,
    httpStatus,
    message: typeof error.message === 'string' ? error.message : `HTTP ${httpStatus}`,
    body,
    ...facts,
  });
}

/** Parses an answer body as JSON, or throws BAD_RESPONSE naming the URL and status. */
export function parseJsonBody(text: string, status: number, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const snippet = text.length > 120 ? `${text.slice(0, 120)}...` : text;
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `${url} answered HTTP ${status} with a body that is not JSON: ${JSON.stringify(snippet)}`,
      {
        httpStatus: status,
        url,
      },
    );
  }
}

/** BAD_RESPONSE for a non-2xx answer that carries no A2A error. */
export function unexpectedStatus(status: number, url: string): A2ALocalError {
  return new A2ALocalError('BAD_RESPONSE', `${url} answered HTTP ${status} without an A2A error body`, {
    httpStatus: status,
    url,
  });
}
