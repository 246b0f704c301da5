/**
 * Where card verification finds public keys: only in the anchors the caller configured (decision
 * 0166; A2A 1.0 §8.4.3, a2aproject/A2A issue #2096 and pull request #2099): keys pinned by `kid`,
 * then the configured key sets, the one whose URL the signature's `jku` names first. A `jku` is a
 * hint that picks among configured key sets and is never fetched on its own: whoever can serve a
 * forged card can also serve a key set for it. Certificate chains (`x5c`) are certificate-chain.ts.
 *
 * Remote key sets (a JWKS URL) are fetched with the caller's `fetchJwks` when given: the client
 * passes its SSRF-guarded, DNS-pinned HTTP there (decision 0039), since the card layer cannot
 * import the client. Without one, jose's `createRemoteJWKSet` fetches them.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type CryptoKey,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
  type KeyObject,
} from 'jose';
import {
  checkPinnedKeys,
  keySetAnchor,
  pinnedAnchor,
  safeUrl,
  usablePinnedKey,
  withoutUrlSecrets,
  type CardTrustAnchor,
  type PinnedKey,
} from './trust-anchors.js';

/** A public key usable for verification. */
export type VerificationKey = CryptoKey | KeyObject | JWK;

/** Finds the key for a JWS header, as jose's `createRemoteJWKSet` / `createLocalJWKSet` do. */
export type JwksResolver = (
  header: JWSHeaderParameters,
  token: FlattenedJWSInput,
) => Promise<VerificationKey>;

/** A JWKS document, its URL, or a resolver such as jose's `createRemoteJWKSet(url)`. */
export type JwksSource = JSONWebKeySet | URL | JwksResolver;

/** Fetches the JSON document at a JWKS URL (the client's guarded HTTP, for instance). */
export type JwksFetcher = (url: URL) => Promise<unknown>;

/**
 * A resolver over a remote key set fetched with `fetchJwks`: fetched once, on first use, then
 * searched like a local set. A fetch or parse failure is reported per use, as jose's would be.
 */
function fetchedJwks(url: URL, fetchJwks: JwksFetcher): JwksResolver {
  let local: Promise<JwksResolver> | undefined;
  return async (header, token) => {
    local ??= fetchJwks(url).then((document) => {
      try {
        return createLocalJWKSet(document as JSONWebKeySet);
      } catch (error) {
        throw new Error(`${safeUrl(url)} is not a JWKS (${(error as Error).message})`, { cause: error });
      }
    });
    return (await local)(header, token);
  };
}

function remoteJwks(url: URL, fetchJwks: JwksFetcher | undefined): JwksResolver {
  return fetchJwks === undefined ? createRemoteJWKSet(url) : fetchedJwks(url, fetchJwks);
}

/** A key an anchor holds for a signature, or why the anchor's key cannot be used for it. */
export type AnchoredKey =
  { anchor: CardTrustAnchor; key: VerificationKey } | { anchor: CardTrustAnchor; unusable: string };

/** A configured key set that could not be read (fetch refused or failed, not a JWKS). */
export interface UnavailableKeySet {
  unavailable: string;
}

interface KeySet {
  resolver: JwksResolver;
  url: URL | undefined;
  index: number;
}

function keySetsOf(
  jwks: JwksSource | readonly JwksSource[] | undefined,
  fetchJwks: JwksFetcher | undefined,
): KeySet[] {
  if (jwks === undefined) return [];
  const list: readonly JwksSource[] = Array.isArray(jwks) ? jwks : [jwks as JwksSource];
  return list.map((source, index) => {
    const where = Array.isArray(jwks) ? `options.jwks[${index}]` : 'options.jwks';
    if (typeof source === 'function') return { resolver: source, url: undefined, index };
    if (source instanceof URL) return { resolver: remoteJwks(source, fetchJwks), url: source, index };
    try {
      return { resolver: createLocalJWKSet(source), url: undefined, index };
    } catch (error) {
      throw new Error(`verifyAgentCard: ${where} is not a JWKS (${(error as Error).message})`, {
        cause: error,
      });
    }
  });
}

/** Finds the anchored keys of each signature of one verification; remote key sets are fetched once. */
export class CardKeyFinder {
  private readonly sets: KeySet[];

  /** Throws an Error when a pinned key or a `jwks` document is unusable. */
  constructor(
    private readonly keys: Record<string, PinnedKey> | undefined,
    jwks: JwksSource | readonly JwksSource[] | undefined,
    fetchJwks?: JwksFetcher,
  ) {
    checkPinnedKeys(keys);
    this.sets = keySetsOf(jwks, fetchJwks);
  }

  /** True when the caller configured a pinned key or a key set. */
  get configured(): boolean {
    return this.sets.length > 0 || (this.keys !== undefined && Object.keys(this.keys).length > 0);
  }

  /** True when `url` is the URL of a configured key set. */
  hasKeySet(url: string): boolean {
    const href = new URL(url).href;
    return this.sets.some((set) => set.url?.href === href);
  }

  /**
   * Each key an anchor holds for the signature's kid and alg, in order: the pinned key, then the key
   * sets (the one the `jku` names first, since the signer says that is where its key is). A key set
   * that cannot be read is reported and skipped.
   */
  async *keysFor(
    header: JWSHeaderParameters & { kid: string; alg: string },
    token: FlattenedJWSInput,
  ): AsyncGenerator<AnchoredKey | UnavailableKeySet> {
    const { kid, alg } = header;
    const pinned = this.keys;
    if (pinned !== undefined && Object.prototype.hasOwnProperty.call(pinned, kid)) {
      const anchor = pinnedAnchor(kid);
      try {
        yield { anchor, key: await usablePinnedKey(pinned[kid] as PinnedKey, alg) };
      } catch (error) {
        yield { anchor, unusable: (error as Error).message };
      }
    }
    const jku = header.jku !== undefined && URL.canParse(header.jku) ? new URL(header.jku).href : undefined;
    const named = (set: KeySet): number => (jku !== undefined && set.url?.href === jku ? 0 : 1);
    const ordered = [...this.sets].sort((a, b) => named(a) - named(b));
    for (const set of ordered) {
      const anchor = keySetAnchor(set.index, set.url);
      try {
        yield { anchor, key: await set.resolver(header, token) };
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey) continue;
        if (error instanceof errors.JWKSMultipleMatchingKeys) {
          // Several keys share the kid (and fit alg): each is tried.
          for await (const key of error) yield { anchor, key };
          continue;
        }
        const reason = (error as Error).message;
        const shown = set.url === undefined ? reason : withoutUrlSecrets(reason, set.url);
        yield { unavailable: `${anchor.description} could not be read (${shown})` };
      }
    }
  }
}
