/**
 * Key sets for card verification fetched the way the client fetches everything else (decision
 * 0039): a JWKS URL or a trusted `jku` is a URL someone else may have chosen, so it goes through
 * the SSRF guard with the DNS answer pinned (pinned-http.ts), never through a bare `fetch`. No
 * interceptors and no credentials: a key set is public, like the card.
 */
import type { JwksFetcher } from '../../card/index.js';
import type { NetworkPolicy } from '../http/address-guard.js';
import { A2ALocalError } from '../client-errors.js';
import { Deadline } from '../http/deadline.js';
import { sendHttp } from '../http/pinned-http.js';
import { parseJsonBody } from '../transports/wire-errors.js';

/** Options of `createJwksFetcher`: the network policy and a per-fetch timeout. */
export interface JwksFetcherOptions extends NetworkPolicy {
  /** Per-fetch timeout in ms (default 10 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * A `fetchJwks` for `verifyAgentCard` (`VerifyCardOptions.fetchJwks`) that honours the network
 * policy. `resolveAgentCard` and `A2AClient.connect` install one on their own.
 */
export function createJwksFetcher(options: JwksFetcherOptions = {}): JwksFetcher {
  return async (url) => {
    const deadline = new Deadline(options.signal, options.timeoutMs ?? 10_000);
    try {
      const answer = await sendHttp(
        { method: 'GET', url, headers: { accept: 'application/jwk-set+json, application/json' } },
        options,
        deadline,
      );
      if (answer.status !== 200) {
        answer.close();
        throw new A2ALocalError('BAD_RESPONSE', `${url.href} answered HTTP ${answer.status}, not a key set`, {
          httpStatus: answer.status,
          url: url.href,
        });
      }
      return parseJsonBody(await answer.text(), answer.status, url.href);
    } finally {
      deadline.dispose();
    }
  };
}
