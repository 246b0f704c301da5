/**
 * JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification), as A2A uses them (A2A 1.0 §9;
 * conformance rules 11-12 in src/check/rules.ts). Parsing separates the three failures the spec tells apart: not JSON (-32700),
 * not a request object (-32600), and, later, an unknown method (-32601).
 */
import { A2AError } from './errors.js';
import { nestedTooDeep, pathPastDepth } from './json-depth.js';

/** A request or notification id; `null` is echoed when the id could not be read. */
export type JsonRpcId = string | number | null;

/** A parsed, structurally valid request. */
export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Thrown when the envelope is bad; carries the id to echo if one could be read. */
export class JsonRpcEnvelopeError extends A2AError {
  constructor(
    readonly id: JsonRpcId,
    error: A2AError,
  ) {
    super(error.type, error.message, { violations: error.violations, metadata: error.metadata });
  }
}

function readId(value: Record<string, unknown>): JsonRpcId | undefined {
  const id = value.id;
  if (id === null || typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  return undefined;
}

/**
 * Parses the body text of a JSON-RPC POST. Batch arrays are rejected with -32600: A2A defines
 * no batch semantics, streaming methods cannot be batched, and one request per HTTP exchange keeps
 * auth and limits per call (decision recorded in docs/decisions/0003-json-rpc-batches.md).
 */
export function parseJsonRpcRequest(body: string, maxDepth?: number): JsonRpcRequest {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparseable';
    throw new JsonRpcEnvelopeError(
      null,
      new A2AError('JSONParseError', `Invalid JSON payload: ${detail}`, {
        violations: [{ field: '', description: detail }],
      }),
    );
  }
  // The nesting bound comes before the envelope is judged: nothing reads a member of a document
  // nested past it (decision 0144). Its id is echoed when it can be read.
  const past = maxDepth === undefined ? undefined : pathPastDepth(value, maxDepth);
  if (past !== undefined && maxDepth !== undefined) {
    // Only an object or array can be nested too deeply, so `value` is one of those here.
    const id = Array.isArray(value) ? undefined : readId(value as Record<string, unknown>);
    throw new JsonRpcEnvelopeError(id ?? null, nestedTooDeep(past, maxDepth));
  }
  return validateJsonRpcRequest(value);
}

/** Validates an already parsed JSON-RPC request object. */
export function validateJsonRpcRequest(value: unknown): JsonRpcRequest {
  if (Array.isArray(value)) {
    throw new JsonRpcEnvelopeError(
      null,
      invalidRequest('', 'batch requests are not supported; send one JSON-RPC request per HTTP request'),
    );
  }
  if (typeof value !== 'object' || value === null) {
    throw new JsonRpcEnvelopeError(null, invalidRequest('', 'expected a JSON-RPC request object'));
  }
  const obj = value as Record<string, unknown>;
  const id = readId(obj);
  const echo = id ?? null;
  if (obj.jsonrpc !== '2.0')
    throw new JsonRpcEnvelopeError(echo, invalidRequest('/jsonrpc', 'must be "2.0"'));
  // A request without `id` is a notification by JSON-RPC's letter, but every A2A method returns a
  // result, so it is answered as if `id` were null; its method and params are judged first, as
  // the official SDKs and the conformance kit do (decision 0135).
  if (id === undefined && 'id' in obj)
    throw new JsonRpcEnvelopeError(null, invalidRequest('/id', 'must be a string, a number or null'));
  if (typeof obj.method !== 'string' || obj.method.length === 0) {
    throw new JsonRpcEnvelopeError(echo, invalidRequest('/method', 'must be a non-empty string'));
  }
  const params = obj.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    throw new JsonRpcEnvelopeError(echo, invalidRequest('/params', 'must be an object or an array'));
  }
  return { id: echo, method: obj.method, params };
}

function invalidRequest(field: string, description: string): A2AError {
  return new A2AError('InvalidRequestError', `Invalid JSON-RPC request: ${field || '/'} ${description}`, {
    violations: [{ field: field || '/', description }],
  });
}

/** Serialises a success response; the result is already in wire form. */
export function jsonRpcResult(id: JsonRpcId, result: unknown): string {
  const [before, after] = jsonRpcResultAround(id);
  return `${before}${JSON.stringify(result === undefined ? null : result)}${after}`;
}

/** The text of a success response before and after its result, for a result written in pieces. */
export function jsonRpcResultAround(id: JsonRpcId): [string, string] {
  return [`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, '}'];
}

/** Serialises an error response. */
export function jsonRpcError(id: JsonRpcId, error: JsonRpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}
