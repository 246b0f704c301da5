/**
 * `resolveAgentCard`: the card resolver on its own, for callers that only want the card
 * (directories, `concord card`) with the same cache, SSRF guard, retries and verification as
 * `A2AClient.connect`; `fetchAgentCardJson` stops before decoding, for linters.
 */
import { networkPolicyOf, type NetworkPolicy } from '../http/address-guard.js';
import {
  fetchAgentCard,
  fetchAgentCardJson as fetchCardJson,
  type CardFetchOptions,
  type FetchedCardJson,
  type ResolvedCard,
} from './card-resolver.js';
import { HttpPipeline } from '../http/client-http.js';
import type { ClientInterceptor } from '../auth/interceptors.js';

/** Options of `resolveAgentCard`. */
export interface ResolveAgentCardOptions extends CardFetchOptions, NetworkPolicy {
  interceptors?: readonly ClientInterceptor[];
}

function pipelineFor(options: ResolveAgentCardOptions): HttpPipeline {
  return new HttpPipeline({
    network: networkPolicyOf(options),
    interceptors: options.interceptors ?? [],
    credentials: () => [],
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

/** Fetches, verifies (when `verify` is given) and decodes the card behind `url`. */
export function resolveAgentCard(
  url: string | URL,
  options: ResolveAgentCardOptions = {},
): Promise<ResolvedCard> {
  return fetchAgentCard(pipelineFor(options), url, options);
}

/**
 * Fetches the card JSON behind `url` exactly as served, with the same location rules, cache, SSRF
 * guard and retries, but neither verifies nor decodes it: for linters (`concord card`) that must
 * report what is wrong with a card the client would refuse. `verify` is ignored.
 */
export function fetchAgentCardJson(
  url: string | URL,
  options: ResolveAgentCardOptions = {},
): Promise<FetchedCardJson> {
  return fetchCardJson(pipelineFor(options), url, options);
}
