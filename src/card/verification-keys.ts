/**
 * Where card verification finds public keys (A2A 1.0 §8.4: from `jku`/`kid` over HTTPS or a
 * trusted key store): the caller's key map by `kid`, then the caller's JWKS, then a signature's
 * `jku` when the caller trusts that exact URL. A card never chooses its own trust: an attacker who
 * can serve a forged card can also serve a JWKS for it.
 *
 * Remote key sets (a JWKS URL, a trusted jku) are fetched with the caller's `fetchJwks` when given:
 * the client passes its SSRF-guarded, DNS-pinned HTTP there (decision 0039), since the card layer
 * cannot import the client. Without one, jose's `createRemoteJWKSet` fetches them.
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
        throw new Error(`${url.href} is not a JWKS (${(error as Error).message})`, { cause: error });
      }
    });
    return (await local)(header, token);
  };
}

function remoteJwks(url: URL, fetchJwks: JwksFetcher | undefined): JwksResolver {
  return fetchJwks === undefined ? createRemoteJWKSet(url) : fetchedJwks(url, fetchJwks);
}

function resolverOf(
  jwks: JwksSource | undefined,
  fetchJwks: JwksFetcher | undefined,
): JwksResolver | undefined {
  if (jwks === undefined || typeof jwks === 'function') return jwks;
  if (jwks instanceof URL) return remoteJwks(jwks, fetchJwks);
  try {
    return createLocalJWKSet(jwks);
  } catch (error) {
    throw new Error(`verifyAgentCard: options.jwks is not a JWKS (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/** Finds the key of each signature of one verification; remote key sets are fetched once. */
export class CardKeyFinder {
  private readonly resolver: JwksResolver | undefined;
  private readonly remote = new Map<string, JwksResolver>();

  /** Throws an Error when `jwks` is a document that is not a JWKS, or a trusted jku is no URL. */
  constructor(
    private readonly keys: Record<string, VerificationKey> | undefined,
    jwks: JwksSource | undefined,
    private readonly trustedJkus: readonly string[] | undefined,
    private readonly fetchJwks?: JwksFetcher,
  ) {
    this.resolver = resolverOf(jwks, fetchJwks);
    trustedJkus?.forEach((jku, index) => {
      if (!URL.canParse(jku)) {
        throw new Error(`verifyAgentCard: options.trustedJkus[${index}] "${jku}" is not an absolute URL`);
      }
    });
  }

  /** The key for a signature's header, or why there is none (`name` names the signature). */
  async find(
    header: JWSHeaderParameters & { kid: string; alg: string },
    token: FlattenedJWSInput,
    name: string,
  ): Promise<{ key: VerificationKey } | { missing: string }> {
    const { kid } = header;
    const local = this.keys;
    if (local !== undefined && Object.prototype.hasOwnProperty.call(local, kid)) {
      return { key: local[kid] as VerificationKey };
    }
    // The caller's JWKS first, then the signature's jku when the caller trusts that exact URL.
    const sources: [string, JwksResolver][] = [];
    if (this.resolver !== undefined) sources.push(['options.jwks', this.resolver]);
    const jku = header.jku;
    if (jku !== undefined && this.trustedJkus?.includes(jku) === true) {
      const remote = this.remote.get(jku) ?? remoteJwks(new URL(jku), this.fetchJwks);
      this.remote.set(jku, remote);
      sources.push([`jku ${jku}`, remote]);
    }
    if (sources.length === 0) {
      const jkuNote = jku === undefined ? 'it names no jku' : `its jku ${jku} is not in options.trustedJkus`;
      return {
        missing: `${name}: no key for kid ${kid} (not in options.keys, no options.jwks, and ${jkuNote})`,
      };
    }
    const misses: string[] = [];
    for (const [source, resolver] of sources) {
      try {
        return { key: await resolver(header, token) };
      } catch (error) {
        misses.push(
          error instanceof errors.JWKSNoMatchingKey
            ? `${source} has no key with that kid and algorithm`
            : `${source} could not be used (${(error as Error).message})`,
        );
      }
    }
    return { missing: `${name}: no key for kid ${kid}: ${misses.join('; ')}` };
  }
}
