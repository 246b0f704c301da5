/**
 * Finds an agent's card (A2A 1.0 §8.2): `/.well-known/agent-card.json` under the
 * given URL, falling back to the pre-0.3 `/.well-known/agent.json` on 404. A URL ending in `.json`
 * is taken as the card's own URL. The well-known path is resolved against the given URL's path,
 * not only the origin, so host-mounted agents (`/agents/<id>/`) are found too (decision 0015).
 * The fetch is cached (card-cache.ts), retried (it is idempotent), SSRF-guarded, and, when keys
 * are given, the signatures are verified on the JSON exactly as received (A2A 1.0 §8.4).
 */
import {
  CardSignatureError,
  verifyAgentCard,
  type CardVerification,
  type VerifyCardOptions,
} from '../../card/index.js';
import {
  A2AError,
  readLiberally,
  v0_3JsonRpcCodec,
  v1_0Codec,
  type AgentCard,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import type { AnswerReading } from '../transports/answer-reading.js';
import type { Credential } from '../auth/auth.js';
import { A2ALocalError } from '../client-errors.js';
import { defaultCardCache, type CardCache, freshnessOf, type CachedCard } from './card-cache.js';
import type { CallControl, HttpPipeline } from '../http/client-http.js';
import { createJwksFetcher } from './jwks-fetcher.js';
import { withRetry, withRetryAfter, type RetryOptions } from '../http/retry.js';
import { parseJsonBody, restError, unexpectedStatus } from '../transports/wire-errors.js';

/** How a card is fetched. */
export interface CardFetchOptions extends AnswerReading {
  /** The cache to use (default: one shared per process); `false` disables caching. */
  cache?: CardCache | false | undefined;
  /**
   * Verify signatures under these trust anchors (pinned keys, key sets, root certificates; decision
   * 0166); a card no signature of which verifies under one of them is then refused.
   */
  verify?: VerifyCardOptions | undefined;
  /** Ask for the 1.0 card (`A2A-Version: 1.0`, default) or the 0.3 one (no header). */
  protocolVersion?: ProtocolVersion | undefined;
  retry?: RetryOptions | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /**
   * Credentials to present on the card fetch. None by default: a card is public (A2A 1.0 §8.2).
   * The AI Catalog path presents the catalog's credentials on a card of the catalog's own origin,
   * which a host may show only to callers allowed to reach its agent (decision 0167).
   */
  credentials?: readonly Credential[] | undefined;
}

/** A resolved card. */
export interface ResolvedCard {
  card: AgentCard;
  /** The JSON as received. */
  json: Record<string, unknown>;
  /** Where it was found. */
  url: string;
  /** The dialect the card JSON is in. */
  cardVersion: ProtocolVersion;
  /** How it was obtained: fetched, reused while fresh, or revalidated with a 304. */
  source: 'network' | 'cache' | 'revalidated';
  /** The signature that verified and the trust anchor it verified under, when verification was asked for. */
  verification?: CardVerification;
}

/** The card URLs to try for a user-given URL, in order. */
export function cardUrlsFor(input: string | URL): URL[] {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new A2ALocalError('BAD_RESPONSE', `Not an absolute URL: ${JSON.stringify(String(input))}`);
  }
  if (url.pathname.endsWith('.json')) return [url];
  const base = new URL(url);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return [new URL('.well-known/agent-card.json', base), new URL('.well-known/agent.json', base)];
}

/**
 * A 1.0 card has `supportedInterfaces` and none of the 0.3-only fields; a 0.3 card (Concord's
 * hybrid included) has `protocolVersion` or `url` (A2A 0.3 §5.5).
 */
export function cardDialectOf(json: Record<string, unknown>): ProtocolVersion {
  return 'protocolVersion' in json || 'url' in json || !('supportedInterfaces' in json) ? '0.3' : '1.0';
}

/** Decodes a card, liberally unless `reading` is strict (decision 0136: an odd skill costs only itself). */
function decodeCard(
  json: Record<string, unknown>,
  url: string,
  reading: AnswerReading,
): { card: AgentCard; cardVersion: ProtocolVersion } {
  const cardVersion = cardDialectOf(json);
  const codec = cardVersion === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
  const decode = (): AgentCard => codec.decodeAgentCard(json, '');
  const sink = reading.onWarning;
  try {
    const card =
      reading.reading === 'strict'
        ? decode()
        : readLiberally(decode, (w) => sink?.({ url, path: w.path, message: w.message }));
    return { card, cardVersion };
  } catch (error) {
    if (!(error instanceof A2AError)) throw error;
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `The agent card at ${url} is not a valid ${cardVersion} card: ${error.message}`,
      {
        cause: error,
        url,
      },
    );
  }
}

type Fetched = { kind: 'missing' } | { kind: 'card'; entry: CachedCard; source: ResolvedCard['source'] };

async function fetchOne(
  http: HttpPipeline,
  url: URL,
  cached: CachedCard | undefined,
  options: CardFetchOptions,
  control: CallControl,
): Promise<Fetched> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if ((options.protocolVersion ?? '1.0') === '1.0') headers['a2a-version'] = '1.0';
  if (cached?.etag !== undefined) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified !== undefined) headers['if-modified-since'] = cached.lastModified;
  const presented = options.credentials ?? [];
  const answer = await http.read(
    'getAgentCard',
    { method: 'GET', url, headers },
    presented.length === 0
      ? Object.assign({}, control, { authenticate: false })
      : Object.assign({}, control, {
          credentials: presented.map((credential) => ({ credential, scheme: undefined, scopes: [] })),
        }),
  );
  const now = Date.now();
  const freshness = freshnessOf(answer.headers, now);
  if (answer.status === 304 && cached !== undefined) {
    return {
      kind: 'card',
      entry: Object.assign({}, cached, { freshUntil: freshness.freshUntil }),
      source: 'revalidated',
    };
  }
  if (answer.status === 404 || answer.status === 410) return { kind: 'missing' };
  if (answer.status !== 200) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    // A 429 or 503 may say when to come back; the retry policy waits that long (decision 0137).
    throw withRetryAfter(
      restError(answer.status, body) ?? unexpectedStatus(answer.status, url.href),
      answer.status,
      answer.headers,
    );
  }
  const json = parseJsonBody(answer.text, answer.status, url.href);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new A2ALocalError('BAD_RESPONSE', `The agent card at ${url.href} is not a JSON object`, {
      url: url.href,
    });
  }
  const entry: CachedCard = {
    json: json as Record<string, unknown>,
    url: url.href,
    freshUntil: freshness.store ? freshness.freshUntil : now,
  };
  if (answer.headers.etag !== undefined) entry.etag = answer.headers.etag;
  if (answer.headers['last-modified'] !== undefined) entry.lastModified = answer.headers['last-modified'];
  return {
    kind: 'card',
    entry: freshness.store ? entry : Object.assign({}, entry, { freshUntil: -1 }),
    source: 'network',
  };
}

function jwksFetcherFor(http: HttpPipeline, options: CardFetchOptions) {
  return createJwksFetcher(
    Object.assign(
      {},
      http.network,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
      options.signal === undefined ? {} : { signal: options.signal },
    ),
  );
}

/** A card's JSON as served, before verification and decoding. */
export interface FetchedCardJson {
  json: Record<string, unknown>;
  url: string;
  source: ResolvedCard['source'];
}

/** Finds and fetches the card JSON behind `input` (cache, fallback, retries), without decoding it. */
export async function fetchAgentCardJson(
  http: HttpPipeline,
  input: string | URL,
  options: CardFetchOptions = {},
): Promise<FetchedCardJson> {
  const cache = options.cache === false ? undefined : (options.cache ?? defaultCardCache);
  const versionKey = options.protocolVersion ?? '1.0';
  const urls = cardUrlsFor(input);
  let found: { entry: CachedCard; source: ResolvedCard['source'] } | undefined;
  for (const url of urls) {
    const key = `${url.href} ${versionKey}`;
    const cached = cache?.get(key);
    if (cached !== undefined && cached.freshUntil > Date.now()) {
      found = { entry: cached, source: 'cache' };
      break;
    }
    const control: CallControl = {};
    if (options.signal !== undefined) control.signal = options.signal;
    if (options.timeoutMs !== undefined) control.timeoutMs = options.timeoutMs;
    const result = await withRetry(
      (attempt) => fetchOne(http, url, cached, options, Object.assign({}, control, { attempt })),
      options.retry,
      options.signal,
    );
    if (result.kind === 'missing') {
      cache?.delete(key);
      continue;
    }
    // `freshUntil: -1` marks a no-store answer: used once, never kept.
    if (result.entry.freshUntil >= 0) cache?.set(key, result.entry);
    found = result;
    break;
  }
  if (found === undefined) {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `No agent card at ${urls.map((u) => u.href).join(' or ')} (HTTP 404)`,
      {
        httpStatus: 404,
        url: urls[0]?.href ?? String(input),
      },
    );
  }
  return { json: found.entry.json, url: found.entry.url, source: found.source };
}

/** Resolves, verifies and decodes the card behind `input` through the client's HTTP pipeline. */
export async function fetchAgentCard(
  http: HttpPipeline,
  input: string | URL,
  options: CardFetchOptions = {},
): Promise<ResolvedCard> {
  const found = await fetchAgentCardJson(http, input, options);
  return readAgentCard(http, found, options);
}

/**
 * Verifies (when asked) and decodes a card's JSON as it was received: a fetched card, or one an
 * AI Catalog entry carries inline (catalog-resolver.ts).
 */
export async function readAgentCard(
  http: HttpPipeline,
  found: FetchedCardJson,
  options: CardFetchOptions = {},
): Promise<ResolvedCard> {
  const { json, url } = found;
  let verification: CardVerification | undefined;
  if (options.verify !== undefined) {
    try {
      // Remote key sets go through the same guard as the card unless the caller fetches them.
      const verify: VerifyCardOptions =
        options.verify.fetchJwks === undefined
          ? Object.assign({}, options.verify, { fetchJwks: jwksFetcherFor(http, options) })
          : options.verify;
      verification = await verifyAgentCard(json, verify);
    } catch (error) {
      if (!(error instanceof CardSignatureError)) throw error;
      throw new A2ALocalError(
        'CARD_SIGNATURE_INVALID',
        `The agent card at ${url} failed signature verification (${error.reason}): ${error.message}`,
        {
          cause: error,
          url,
        },
      );
    }
  }
  const { card, cardVersion } = decodeCard(json, url, options);
  const resolved: ResolvedCard = { card, json, url, cardVersion, source: found.source };
  if (verification !== undefined) resolved.verification = verification;
  return resolved;
}
