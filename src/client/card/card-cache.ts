/**
 * The AgentCard cache (A2A 1.0 §8.6, §8.2: clients SHOULD honour RFC 9111): a card is
 * reused without a request while `Cache-Control: max-age` says it is fresh, then revalidated with
 * `If-None-Match` / `If-Modified-Since`, where a 304 renews it. `no-store` is never kept;
 * `no-cache` (and no freshness information at all) is kept only to revalidate.
 */

/** One stored card answer. */
export interface CachedCard {
  /** The card JSON exactly as received (signatures cover this form). */
  json: Record<string, unknown>;
  /** The URL it was found at (the legacy path when the current one was missing). */
  url: string;
  etag?: string;
  lastModified?: string;
  /** Epoch ms until which it is used without asking. */
  freshUntil: number;
}

/** What the headers of a card answer allow. */
export interface Freshness {
  store: boolean;
  freshUntil: number;
}

/** Reads `Cache-Control` (RFC 9111 §5.2.2): no-store, no-cache, max-age. */
export function freshnessOf(headers: Record<string, string>, now: number): Freshness {
  const directives = (headers['cache-control'] ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-store')) return { store: false, freshUntil: now };
  if (directives.includes('no-cache')) return { store: true, freshUntil: now };
  for (const directive of directives) {
    const match = /^max-age\s*=\s*"?(\d+)"?$/.exec(directive);
    if (match !== null) return { store: true, freshUntil: now + Number(match[1]) * 1000 };
  }
  return { store: true, freshUntil: now };
}

/** Options of the cache. */
export interface CardCacheOptions {
  /** Most cards kept; the least recently used goes first (default 256). */
  maxEntries?: number;
}

/** An in-memory card cache, shared by every client given it. */
export class CardCache {
  private readonly entries = new Map<string, CachedCard>();
  private readonly maxEntries: number;

  constructor(options: CardCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 256;
  }

  /** The entry for a key, refreshed as most recently used. */
  get(key: string): CachedCard | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Stores an entry, evicting the least recently used beyond the limit. */
  set(key: string, entry: CachedCard): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Forgets one key. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }
}

/** The cache clients use when given none. */
export const defaultCardCache = new CardCache();
