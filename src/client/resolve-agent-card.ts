/**
 * `resolveAgentCard`: the card resolver on its own, for callers that only want the card (the CLI's
 * `card fetch`, directories) with the same cache, SSRF guard, retries and verification as
 * `A2AClient.connect`.
 */
import type { NetworkPolicy } from './address-guard.js';
import { fetchAgentCard, type CardFetchOptions, type ResolvedCard } from './card-resolver.js';
import { HttpPipeline } from './client-http.js';
import type { ClientInterceptor } from './interceptors.js';

/** Options of `resolveAgentCard`. */
export interface ResolveAgentCardOptions extends CardFetchOptions, NetworkPolicy {
  interceptors?: readonly ClientInterceptor[];
}

/** Fetches, verifies (when `verify` is given) and decodes the card behind `url`. */
export function resolveAgentCard(
  url: string | URL,
  options: ResolveAgentCardOptions = {},
): Promise<ResolvedCard> {
  const network: NetworkPolicy = {
    ...(options.allowPrivateNetworks === undefined
      ? {}
      : { allowPrivateNetworks: options.allowPrivateNetworks }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  };
  const http = new HttpPipeline({
    network,
    interceptors: options.interceptors ?? [],
    credentials: () => [],
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  return fetchAgentCard(http, url, options);
}
