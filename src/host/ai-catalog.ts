/**
 * The host's AI Catalog (decision 0167): `/.well-known/ai-catalog.json`, the document A2A pull
 * request #2240 makes the preferred way to discover the several agents one origin serves, in the
 * format of the AI Catalog specification (Agent-Card/ai-catalog `specification/ai-catalog.md`,
 * specVersion 1.0, as of commit be6803f6). One entry per agent the caller may reach, each pointing
 * at the agent's own card, with what a caller needs to choose between them without fetching every
 * card: its name, description, version and tags.
 *
 * The catalog format leaves caller-dependent content to the protocol, and the pull request has
 * per-tenant authenticated catalogs: here an anonymous caller sees the exposed agents, and a caller
 * whose credentials carry the host's internal scope also the unexposed ones it could reach anyway
 * (the same rule as `/agents/<id>/`, agent-host.ts `mayReach`). The answer is therefore private to
 * the caller's credentials in caches.
 */
import type { HostConfig } from './host-config.js';
import type { ListedAgent } from './host-directory.js';

/** The catalog's media type (AI Catalog §"Media Type"). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';
/** The well-known path (RFC 8615) clients look at. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
/** The type of an entry that is an A2A agent card (AI Catalog §"Catalog Entry", known types). */
export const A2A_CARD_ENTRY_TYPE = 'application/a2a-agent-card+json';

/**
 * The catalog of `agents` (already the ones this caller may see), at `base` (the listener's or a
 * trusted proxy's base URL, ending in `/`).
 */
export function aiCatalogJson(config: HostConfig, agents: readonly ListedAgent[], base: string): string {
  const publisher = new URL(base).hostname;
  const catalog = {
    specVersion: '1.0',
    host: {
      displayName: config.organization?.name ?? 'Concord agent host',
      identifier: publisher,
    },
    entries: agents.map(({ definition, url }) => ({
      // `urn:air:{publisher}:{namespace}:{name}`; the id escaped so a ':' in it cannot add a segment.
      identifier: `urn:air:${publisher}:a2a:${encodeURIComponent(definition.id)}`,
      type: A2A_CARD_ENTRY_TYPE,
      url: `${url}.well-known/agent-card.json`,
      // The specification would leave these to the card, so they cannot drift from it; here both
      // are made from one definition at once, and a caller chooses without fetching every card.
      displayName: definition.name,
      description: definition.description,
      version: definition.version,
      ...(definition.tags.length > 0 ? { tags: definition.tags } : {}),
    })),
  };
  return JSON.stringify(catalog);
}

/**
 * The request headers the catalog varies by: the credentials the host's schemes read (the
 * `Authorization` header, and any API key header), since they decide which agents it lists.
 */
export function catalogVary(config: HostConfig): string {
  const names = new Set(['Authorization']);
  for (const scheme of Object.values(config.security?.schemes ?? {})) {
    if (scheme.type === 'apiKey' && scheme.in === 'header') names.add(scheme.name);
    if (scheme.type === 'apiKey' && scheme.in === 'cookie') names.add('Cookie');
  }
  return [...names].join(', ');
}
