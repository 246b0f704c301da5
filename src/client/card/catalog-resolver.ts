/**
 * Discovery through an AI Catalog (decision 0167; A2A pull request #2240, AI Catalog specification
 * 1.0 at Agent-Card/ai-catalog be6803f6): one origin, several agents. `fetchAiCatalog` reads the
 * catalog at `/.well-known/ai-catalog.json` (or at the URL given, when it names a `.json` document:
 * a tenant's catalog may live anywhere), and `fetchCatalogAgentCard` picks an agent from it by
 * name and resolves its card as `fetchAgentCard` would.
 *
 * Read liberally (decision 0136): an entry that cannot be read, or is not an A2A card, costs only
 * itself (it is reported, not fatal); unknown members are kept. A catalog of an unknown major
 * version is refused, as the catalog specification asks of consumers.
 */
import { A2ALocalError } from '../client-errors.js';
import type { Credential, SelectedCredential } from '../auth/auth.js';
import type { CallControl, HttpPipeline } from '../http/client-http.js';
import { withRetry } from '../http/retry.js';
import { parseJsonBody, restError, unexpectedStatus } from '../transports/wire-errors.js';
import { fetchAgentCard, readAgentCard, type CardFetchOptions, type ResolvedCard } from './card-resolver.js';

/** The well-known path of an origin's catalog (RFC 8615). */
export const AI_CATALOG_WELL_KNOWN = '/.well-known/ai-catalog.json';
/** The entry type of an A2A agent card. */
const A2A_CARD_TYPE = 'application/a2a-agent-card+json';

/** One A2A agent a catalog lists. */
export interface CatalogAgent {
  /** The entry's `identifier` (e.g. `urn:air:example.com:a2a:billing`). */
  identifier: string;
  /**
   * What to call it: the entry's `displayName`, else the inline card's `name`, else the last
   * segment of its identifier (the catalog specification's order).
   */
  name: string;
  /** The last segment of the identifier, unescaped: Concord hosts put the agent's id there. */
  id: string;
  description?: string;
  version?: string;
  tags: string[];
  /** The card's URL (an entry with `url`), resolved against the catalog's. */
  cardUrl?: string;
  /** The card itself (an entry with `data`). */
  card?: Record<string, unknown>;
  /** The entry as read, unknown members included. */
  entry: Record<string, unknown>;
}

/** An entry left out, and why. */
export interface SkippedEntry {
  /** JSON Pointer into the catalog, e.g. `/entries/3`. */
  pointer: string;
  reason: string;
}

/** A catalog as read. */
export interface AgentCatalog {
  /** Where it was read. */
  url: string;
  specVersion: string;
  /** Who runs it (`host.displayName`, `host.identifier`), when it says. */
  host?: { displayName: string; identifier?: string };
  /** Its A2A agents, in order. */
  agents: CatalogAgent[];
  /** Entries of other types (MCP servers, nested catalogs, ...), as read. */
  others: Record<string, unknown>[];
  /** Entries that could not be read. */
  skipped: SkippedEntry[];
}

/** How a catalog is fetched. */
export interface CatalogFetchOptions extends Pick<CardFetchOptions, 'retry' | 'signal' | 'timeoutMs'> {
  /**
   * Credentials to present: a catalog may list more agents to a caller who proves more (the
   * host's unexposed agents, a tenant's own). Every one given is sent: no card says which fits.
   * They go to the catalog's origin only, and to the cards it lists there.
   */
  credentials?: readonly Credential[] | undefined;
}

/** The catalog URL for what a user typed: a `.json` URL is the catalog's own; else the origin's. */
export function catalogUrlFor(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new A2ALocalError('BAD_RESPONSE', `Not an absolute URL: ${JSON.stringify(String(input))}`);
  }
  if (url.pathname.endsWith('.json')) return url;
  return new URL(AI_CATALOG_WELL_KNOWN, url.origin);
}

/** Fetches and reads the catalog behind `input`; see the file comment. */
export async function fetchAiCatalog(
  http: HttpPipeline,
  input: string | URL,
  options: CatalogFetchOptions = {},
): Promise<AgentCatalog> {
  const url = catalogUrlFor(input);
  const control: CallControl = {};
  if (options.signal !== undefined) control.signal = options.signal;
  if (options.timeoutMs !== undefined) control.timeoutMs = options.timeoutMs;
  const credentials: SelectedCredential[] = (options.credentials ?? []).map((credential) => ({
    credential,
    scheme: undefined,
    scopes: [],
  }));
  if (credentials.length > 0) control.credentials = credentials;
  else control.authenticate = false;
  const answer = await withRetry(
    (attempt) =>
      http.read(
        'getAgentCard',
        {
          method: 'GET',
          url,
          headers: { accept: 'application/ai-catalog+json, application/json;q=0.9' },
        },
        Object.assign({}, control, { attempt }),
      ),
    options.retry,
    options.signal,
  );
  if (answer.status === 404 || answer.status === 410) {
    throw new A2ALocalError('BAD_RESPONSE', `No AI Catalog at ${url.href} (HTTP ${answer.status})`, {
      httpStatus: answer.status,
      url: url.href,
    });
  }
  if (answer.status !== 200) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    throw restError(answer.status, body) ?? unexpectedStatus(answer.status, url.href);
  }
  return readAiCatalog(parseJsonBody(answer.text, answer.status, url.href), url.href);
}

/** Reads a catalog document received from `url`; see the file comment. */
export function readAiCatalog(json: unknown, url: string): AgentCatalog {
  const bad = (why: string): A2ALocalError =>
    new A2ALocalError('BAD_RESPONSE', `The AI Catalog at ${url} ${why}`, { url });
  if (!isObject(json)) throw bad('is not a JSON object');
  const { specVersion, entries } = json;
  if (typeof specVersion !== 'string') throw bad('has no specVersion (/specVersion)');
  // Consumers refuse a major version they do not know (AI Catalog §"Version Handling").
  if (!/^1\.\d+$/.test(specVersion)) {
    throw bad(`is of specVersion ${JSON.stringify(specVersion)}; this client reads 1.x (/specVersion)`);
  }
  if (!Array.isArray(entries)) throw bad('has no entries array (/entries)');
  const catalog: AgentCatalog = { url, specVersion, agents: [], others: [], skipped: [] };
  const host = json.host;
  if (isObject(host) && typeof host.displayName === 'string') {
    catalog.host = { displayName: host.displayName };
    if (typeof host.identifier === 'string') catalog.host.identifier = host.identifier;
  }
  entries.forEach((entry: unknown, i) => {
    const pointer = `/entries/${i}`;
    const read = readEntry(entry, url);
    if (read === 'other') catalog.others.push(entry as Record<string, unknown>);
    else if (typeof read === 'string') catalog.skipped.push({ pointer, reason: read });
    else catalog.agents.push(read);
  });
  return catalog;
}

/** An A2A entry, `'other'` for another type, or why it cannot be read. */
function readEntry(entry: unknown, catalogUrl: string): CatalogAgent | 'other' | string {
  if (!isObject(entry)) return 'is not an object';
  const { identifier, type, url, data } = entry;
  if (typeof identifier !== 'string' || identifier === '') return 'has no identifier (/identifier)';
  if (typeof type !== 'string') return 'has no type (/type)';
  if ((url === undefined) === (data === undefined)) return 'must have exactly one of url and data';
  if (type.toLowerCase() !== A2A_CARD_TYPE) return 'other';
  const segment = identifier.slice(identifier.lastIndexOf(':') + 1);
  let id = segment;
  try {
    id = decodeURIComponent(segment);
  } catch {
    // Not percent-encoded after all: the segment as it is.
  }
  const agent: CatalogAgent = { identifier, name: id, id, tags: [], entry };
  if (url !== undefined) {
    if (typeof url !== 'string') return 'has a url that is not a string (/url)';
    try {
      agent.cardUrl = new URL(url, catalogUrl).href;
    } catch {
      return `has a url that is not a URL: ${JSON.stringify(url)} (/url)`;
    }
  } else {
    if (!isObject(data)) return 'has data that is not an agent card object (/data)';
    agent.card = data;
    if (typeof data.name === 'string' && data.name !== '') agent.name = data.name;
    if (typeof data.description === 'string') agent.description = data.description;
    if (typeof data.version === 'string') agent.version = data.version;
  }
  if (typeof entry.displayName === 'string' && entry.displayName !== '') agent.name = entry.displayName;
  if (typeof entry.description === 'string') agent.description = entry.description;
  if (typeof entry.version === 'string') agent.version = entry.version;
  if (Array.isArray(entry.tags)) agent.tags = entry.tags.filter((t): t is string => typeof t === 'string');
  return agent;
}

/**
 * The agent of `catalog` that `wanted` names: its identifier, else its id (the identifier's last
 * segment), else its name, ignoring case. Throws, listing the agents, when none or several match.
 */
export function pickCatalogAgent(catalog: AgentCatalog, wanted: string): CatalogAgent {
  const lower = wanted.toLowerCase();
  const tiers = [
    catalog.agents.filter((a) => a.identifier === wanted),
    catalog.agents.filter((a) => a.id === wanted),
    catalog.agents.filter((a) => a.name.toLowerCase() === lower || a.id.toLowerCase() === lower),
  ];
  for (const found of tiers) {
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new A2ALocalError(
        'BAD_RESPONSE',
        `${JSON.stringify(wanted)} names ${found.length} agents in the AI Catalog at ${catalog.url}: ${found.map((a) => a.identifier).join(', ')}; name one by its identifier`,
        { url: catalog.url },
      );
    }
  }
  const known = catalog.agents.map((a) => `${a.id} (${a.name})`).join(', ');
  throw new A2ALocalError(
    'BAD_RESPONSE',
    `No agent ${JSON.stringify(wanted)} in the AI Catalog at ${catalog.url}; it lists ${known === '' ? 'none you may see' : known}`,
    { url: catalog.url },
  );
}

/** What `fetchCatalogAgentCard` found: the card, the agent's entry, and the catalog it came from. */
export interface CatalogResolvedCard extends ResolvedCard {
  catalogAgent: CatalogAgent;
  catalog: AgentCatalog;
}

/**
 * Resolves the card of the agent `wanted` names in the catalog behind `input`: fetched from the
 * entry's `url` (cache, SSRF guard, verification, as `fetchAgentCard`), or read from its `data`.
 */
export async function fetchCatalogAgentCard(
  http: HttpPipeline,
  input: string | URL,
  wanted: string,
  options: CardFetchOptions & CatalogFetchOptions = {},
): Promise<CatalogResolvedCard> {
  const catalog = await fetchAiCatalog(http, input, options);
  const agent = pickCatalogAgent(catalog, wanted);
  let resolved: ResolvedCard;
  if (agent.cardUrl !== undefined) {
    // The catalog's credentials go with a card on its own origin (a card it listed only because
    // they allow it); never elsewhere.
    const sameOrigin = new URL(agent.cardUrl).origin === new URL(catalog.url).origin;
    resolved = await fetchAgentCard(
      http,
      agent.cardUrl,
      sameOrigin ? options : Object.assign({}, options, { credentials: undefined }),
    );
  } else {
    resolved = await readAgentCard(http, { json: agent.card!, url: catalog.url, source: 'network' }, options);
  }
  return Object.assign(resolved, { catalogAgent: agent, catalog });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
