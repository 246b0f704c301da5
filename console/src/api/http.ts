/**
 * Requests from the console to its own origin: the agents' A2A HTTP+JSON endpoints (A2A 1.0
 * §11) and the host's APIs, all relative to the page (`/console/`), so a proxy's path prefix
 * is kept. Every answer that is not a success becomes an ApiError carrying what the server said
 * (the A2A error envelope's status and message, and the violations' fields when it names some).
 */
import { loadCredential, present } from './session';

/** A refused or failed request, as the server explained it. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** The HTTP status (0 when the request never got an answer). */
    readonly status: number,
    /** The A2A error status (`UNAUTHENTICATED`, `INVALID_ARGUMENT`…), when the body said one. */
    readonly code: string | undefined,
    /** The fields the server named as wrong, with what was wrong. */
    readonly violations: readonly { field: string; description: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Listeners told when a request is refused for want of credentials (the app then asks for them). */
const unauthenticated = new Set<() => void>();
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticated.add(listener);
  return () => unauthenticated.delete(listener);
}

/** The URL of `path`, relative to the console page (e.g. `../agents`). */
export function urlOf(path: string): URL {
  return new URL(path, document.baseURI);
}

/** Fetches `path` with the credential and A2A 1.0; throws ApiError for any non-2xx answer. */
export async function call(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const url = urlOf(path);
  const headers = new Headers(init.headers);
  headers.set('a2a-version', headers.get('a2a-version') ?? '1.0');
  present(loadCredential(), url, headers);
  const { json, ...rest } = init;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    rest.body = JSON.stringify(json);
  }
  let response: Response;
  try {
    response = await fetch(url, { ...rest, headers, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(`The host did not answer (${(error as Error).message})`, 0, undefined);
  }
  if (response.ok) return response;
  throw await errorOf(response);
}

/** GETs (or sends) JSON and parses the answer. */
export async function callJson<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const response = await call(path, init);
  return (await response.json()) as T;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  let code: string | undefined;
  let violations: { field: string; description: string }[] = [];
  try {
    const body = (await response.json()) as {
      error?: { status?: string; message?: string; details?: Record<string, unknown>[] };
    };
    if (body.error !== undefined) {
      message = body.error.message ?? message;
      code = body.error.status;
      for (const detail of body.error.details ?? []) {
        const list = (detail.fieldViolations ?? detail.violations) as
          { field: string; description: string }[] | undefined;
        if (Array.isArray(list)) violations = violations.concat(list);
      }
    }
  } catch {
    // Not JSON: the status line says enough.
  }
  if (response.status === 401) for (const listener of unauthenticated) listener();
  return new ApiError(message, response.status, code, violations);
}
