/**
 * Following redirects on card fetches and A2A calls (docs/decisions/0137-client-transport.md).
 * At most MAX_REDIRECTS hops, each one a new request through `sendHttp`, so the SSRF guard checks
 * every hop's target before connecting. 307 and 308 keep the method and body (RFC 9110 §15.4.8,
 * §15.4.9); so do 301 and 302: RFC 9110 §15.4.2/§15.4.3 only allow the historical POST-to-GET
 * rewrite, and a JSON-RPC or REST call re-sent as a bodiless GET means nothing. A 303 sends the
 * client to GET another resource (§15.4.4): followed for a GET, refused for a call with a body.
 * A hop to another origin drops the credentials: Authorization, Proxy-Authorization, Cookie and
 * every header the client's credentials set (an API key), as browsers do for Authorization.
 */
import { A2ALocalError } from '../client-errors.js';
import type { NetworkPolicy } from './address-guard.js';
import type { ConnectionPool } from './connection-pool.js';
import type { Deadline } from './deadline.js';
import { sendHttp, type HttpAnswer, type HttpRequestSpec } from './pinned-http.js';

/** The most redirects one request follows. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that carry credentials whoever set them. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * The request for the hop to `location`, answered with `status` to `request`. `credentialHeaders`
 * names the headers the client's credentials set; they stay only on a same-origin hop.
 */
export function nextHop(
  request: HttpRequestSpec,
  status: number,
  location: string,
  credentialHeaders: ReadonlySet<string>,
): HttpRequestSpec {
  let url: URL;
  try {
    url = new URL(location, request.url);
  } catch {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `${request.url.href} answered ${status} with an unusable Location ${JSON.stringify(location)}`,
      { httpStatus: status, url: request.url.href },
    );
  }
  url.hash = '';
  if (status === 303 && request.method !== 'GET' && request.method !== 'HEAD') {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `${request.method} ${request.url.href} answered 303 See Other to ${url.href}; ` +
        'an A2A call cannot be re-sent there as a GET',
      { httpStatus: status, url: request.url.href },
    );
  }
  const headers = { ...request.headers };
  if (url.origin !== request.url.origin) {
    for (const name of CREDENTIAL_HEADERS) delete headers[name];
    for (const name of credentialHeaders) delete headers[name];
  }
  const hop: HttpRequestSpec = { method: request.method, url, headers };
  if (request.body !== undefined) hop.body = request.body;
  return hop;
}

/**
 * Sends `spec` and follows redirects, all under one `deadline`; resolves at the final answer's
 * headers. A redirect without a Location is an answer like any other.
 */
export async function sendFollowingRedirects(
  spec: HttpRequestSpec,
  policy: NetworkPolicy,
  deadline: Deadline,
  pool: ConnectionPool | undefined,
  credentialHeaders: ReadonlySet<string>,
): Promise<HttpAnswer> {
  let request = spec;
  for (let hops = 0; ; hops++) {
    const answer = await sendHttp(request, policy, deadline, pool);
    const location = answer.headers.location;
    if (!REDIRECT_STATUSES.has(answer.status) || location === undefined) return answer;
    answer.discard();
    if (hops === MAX_REDIRECTS) {
      throw new A2ALocalError(
        'BAD_RESPONSE',
        `${spec.method} ${spec.url.href} was redirected more than ${MAX_REDIRECTS} times (last to ${location})`,
        { httpStatus: answer.status, url: answer.url.href },
      );
    }
    request = nextHop(request, answer.status, location, credentialHeaders);
  }
}
