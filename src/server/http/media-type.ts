/**
 * The media type of an HTTP+JSON answer (decision 0134): the one the request used. A2A 1.0.0 and
 * the seeds write `application/json`; 1.0.1 prefers `application/a2a+json` (A2A 1.0 §11.1;
 * decision 0134), and strict clients of either reject the other. So a request whose body is declared as one
 * of them gets that one back; any other request (no body, as GET and DELETE send) is answered in
 * the first of them its `Accept` lists; with neither, `application/json`, which every JSON client
 * reads.
 * Error bodies follow the same rule. JSON-RPC always answers `application/json` (A2A 1.0 §9.1).
 */
import type { HttpRequest } from './http-types.js';

export const JSON_MEDIA_TYPE = 'application/json';
export const A2A_JSON_MEDIA_TYPE = 'application/a2a+json';

function baseOf(value: string): string {
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/** The first of the two JSON types an `Accept` value lists with a non-zero quality. */
function fromAccept(accept: string): string | undefined {
  for (const range of accept.split(',')) {
    const base = baseOf(range);
    if (base !== JSON_MEDIA_TYPE && base !== A2A_JSON_MEDIA_TYPE) continue;
    if (/;\s*q\s*=\s*0(?:\.0*)?\s*(?:;|$)/i.test(range)) continue;
    return base;
  }
  return undefined;
}

/** The `Content-Type` of an HTTP+JSON answer to `request`. */
export function restMediaType(request: HttpRequest): string {
  const declared = request.header('content-type');
  if (declared !== undefined) {
    const base = baseOf(declared);
    if (base === A2A_JSON_MEDIA_TYPE || base === JSON_MEDIA_TYPE) return base;
  }
  const accept = request.header('accept');
  return (accept === undefined ? undefined : fromAccept(accept)) ?? JSON_MEDIA_TYPE;
}
