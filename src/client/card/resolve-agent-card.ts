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
import { HttpPipeline, tlsOptionsOf } from '../http/client-http.js';
import type { Credential } from '../auth/auth.js';
import { fetchAiCatalog, fetchCatalogAgentCard, type AgentCatalog } from './catalog-resolver.js';
import type { RetryOptions } from '../http/retry.js';
import type { ClientInterceptor } from '../auth/interceptors.js';

/** Options of `resolveAgentCard`. */
export interface ResolveAgentCardOptions extends CardFetchOptions, NetworkPolicy {
  interceptors?: readonly ClientInterceptor[];
  /** Do not verify the TLS certificate (development only; see `A2AClientCommonOptions.insecureTls`). */
  insecureTls?: boolean | undefined;
  /** A client certificate and key (PEM) for mutual TLS (see `A2AClientCommonOptions.clientCertificate`). */
  clientCertificate?: { cert: string; key: string } | undefined;
  /** Roots (PEM) trusted besides the default ones (see `A2AClientCommonOptions.trustedCertificates`). */
  trustedCertificates?: string | readonly string[] | undefined;
  /**
   * Find the agent this names (identifier, id or name) in the origin's AI Catalog and resolve its
   * card, for an origin that serves several agents (decision 0167).
   */
  agent?: string | undefined;
  /** Credentials the AI Catalog fetch presents (a catalog may list more to a caller who proves more). */
  credentials?: readonly Credential[] | undefined;
}

/** Options of `discoverAgents`. */
export interface DiscoverAgentsOptions extends NetworkPolicy {
  interceptors?: readonly ClientInterceptor[];
  /**
   * Credentials to present: a catalog may list more agents to a caller who proves more (a host's
   * unexposed agents, a tenant's own). Every one given is sent to the catalog's origin.
   */
  credentials?: readonly Credential[] | undefined;
  retry?: RetryOptions | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

function pipelineFor(options: ResolveAgentCardOptions): HttpPipeline {
  return new HttpPipeline({
    network: networkPolicyOf(options),
    interceptors: options.interceptors ?? [],
    credentials: () => [],
    timeoutMs: options.timeoutMs ?? 30_000,
    ...tlsOptionsOf(options),
  });
}

/**
 * Fetches, verifies (when `verify` is given) and decodes the card behind `url`; with `agent`, the
 * card of that agent in the AI Catalog of `url`'s origin (or of `url`, when it names the catalog).
 */
export function resolveAgentCard(
  url: string | URL,
  options: ResolveAgentCardOptions = {},
): Promise<ResolvedCard> {
  if (options.agent !== undefined)
    return fetchCatalogAgentCard(pipelineFor(options), url, options.agent, options);
  return fetchAgentCard(pipelineFor(options), url, options);
}

/**
 * The agents the AI Catalog behind `url` lists (its origin's `/.well-known/ai-catalog.json`, or
 * `url` itself when it names a `.json` document), as this caller's credentials let it see them.
 */
export function discoverAgents(
  url: string | URL,
  options: DiscoverAgentsOptions = {},
): Promise<AgentCatalog> {
  return fetchAiCatalog(pipelineFor(options), url, options);
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
