/**
 * `concord card verify <card-url|card.json>`: checks a card's JWS signatures (A2A 1.0 §8.4) against
 * the trust anchors given on the command line only (decision 0166): pinned keys (--key), key sets
 * (--jwks), root certificates for x5c chains (--root), and, when asked, the card's own origin
 * (--trust-card-origin). A jku in the card is never an anchor on its own. The output names the
 * anchor that verified, or why each signature did not. Cards and key sets go through the client's
 * network guard (decisions 0038, 0039).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CardSignatureError, verifyAgentCard, type VerifyCardOptions } from '../../card/index.js';
import {
  A2ALocalError,
  createJwksFetcher,
  fetchAgentCardJson,
  type NetworkPolicy,
} from '../../client/internal.js';
import { networkPolicyFor } from '../calls/call-flags.js';
import { describeFailure, UsageError } from '../exit-codes.js';

/** Usage text of `card verify`. */
export const CARD_VERIFY_USAGE = `Usage: concord card verify <card-url|card.json> [trust anchors] [options]

A card verifies only under a trust anchor you give (a jku in the card is a hint, never an anchor):
  --key <file>         pin the keys of a JWK or JWKS file, each under its kid; repeatable
  --key <kid>=<file>   pin a PEM public key or certificate (or a JWK) under kid
  --jwks <url|file>    trust a key set: a JWKS URL (fetched through the guard) or file;
                       repeatable
  --root <file>        trust a root certificate (PEM; a bundle may hold several): a signature
                       whose x5c chain leads to it verifies; repeatable
  --trust-card-origin  trust the key sets on the card's own https origin: a signature's jku
                       there, else <origin>/.well-known/jwks.json (whoever controls the site
                       controls them)

Options:
  --card-version <v>   1.0 (default) or 0.3: which card to fetch (each is signed as served)
  --json               print the outcome as one JSON object
  --allow-private      allow private and loopback targets beyond a loopback URL you typed

Exit codes: 0 verified, 1 not verified (unsigned, no anchor holds the key, bad signature...) or
the card could not be read, 2 a mistake in the command line.`;

type Out = (line: string) => void;

/** Runs `card verify`; returns the exit code. */
export async function cardVerifyCommand(args: string[], out: Out, err: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      key: { type: 'string', multiple: true, default: [] },
      jwks: { type: 'string', multiple: true, default: [] },
      root: { type: 'string', multiple: true, default: [] },
      'trust-card-origin': { type: 'boolean', default: false },
      'card-version': { type: 'string', default: '1.0' },
      json: { type: 'boolean', default: false },
      'allow-private': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help === true) {
    out(CARD_VERIFY_USAGE);
    return 0;
  }
  const [target, extra] = positionals;
  if (target === undefined) throw new UsageError(`missing the card to verify\n\n${CARD_VERIFY_USAGE}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  const version = values['card-version'];
  if (version !== '1.0' && version !== '0.3')
    throw new UsageError(`--card-version: expected 1.0 or 0.3, got ${version}`);
  const originTrusted = values['trust-card-origin'] === true;
  if (originTrusted) checkOriginFlag(target);
  const typed = [target, ...values.jwks];
  const policy = typedPolicy(typed, values['allow-private'] === true);
  // Anchors are read before the card is fetched: a mistake in them is a usage error (exit 2).
  const keys = pinnedKeys(values.key);
  const jwks = values.jwks.map(keySet);
  const roots = values.root.map(rootBundle);
  const json = isUrl(target) ? await fetchCard(target, version, policy) : readCardFile(target);
  // --trust-card-origin adds key sets on the card's origin, named as such in the output.
  const originSets = originTrusted ? originKeySets(target, json) : [];
  const sets = [
    ...jwks,
    ...originSets.map((url) => ({ source: new URL(url), label: `${url} on the card's origin` })),
  ];
  const options: VerifyCardOptions = {
    fetchJwks: createJwksFetcher({ ...policy, timeoutMs: 10_000 }),
  };
  if (Object.keys(keys).length > 0) options.keys = keys;
  if (sets.length > 0) options.jwks = sets.map((set) => set.source);
  if (roots.length > 0) options.roots = roots;
  const asJson = values.json === true;
  // The card layer calls a key set given as a document `jwks[i]`; the output names its file.
  const named = (text: string): string =>
    sets.reduce((acc, set, index) => acc.split(`key set jwks[${index}]`).join(`key set ${set.label}`), text);
  try {
    const verified = await verifyAgentCard(json, options);
    const anchor =
      verified.anchor.kind === 'jwks'
        ? { ...verified.anchor, description: `key set ${sets[verified.anchor.index]?.label}` }
        : verified.anchor;
    if (asJson) {
      out(
        JSON.stringify({
          verified: true,
          signature: { index: verified.index, kid: verified.kid, alg: verified.alg },
          anchor,
        }),
      );
    } else {
      out(
        `${target}: verified: signature ${verified.index} verifies (kid ${verified.kid}, ${verified.alg}) under ${anchor.description}`,
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof CardSignatureError)) throw error;
    const unanchored = Object.keys(keys).length === 0 && sets.length === 0 && roots.length === 0;
    if (asJson) {
      const failures = error.failures.map((f) => ({ ...f, message: named(f.message) }));
      const message = named(error.message);
      out(JSON.stringify({ verified: false, reason: error.reason, message, failures }));
    } else if (error.failures.length === 0) {
      err(`${target}: ${error.reason === 'unsigned' ? 'unsigned' : 'not verified'}: ${error.message}`);
    } else {
      err(`${target}: not verified (${error.reason})`);
      for (const failure of error.failures) err(`  ${named(failure.message)}`);
    }
    if (unanchored && error.reason !== 'unsigned' && !asJson) {
      err('no trust anchor was given: pass --key, --jwks, --root or --trust-card-origin');
    }
    return 1;
  }
}

function isUrl(target: string): boolean {
  return /^https?:\/\//i.test(target);
}

function readText(flag: string, path: string): string {
  if (!existsSync(path)) throw new UsageError(`${flag}: ${path}: no such file`);
  return readFileSync(path, 'utf8');
}

function readJson(flag: string, path: string): unknown {
  const text = readText(flag, path);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${flag}: ${path} is not JSON`);
  }
}

function readCardFile(path: string): unknown {
  return readJson('card', path);
}

/** --trust-card-origin rests on the origin's TLS certificate: a card fetched over https (or loopback). */
function checkOriginFlag(target: string): void {
  if (!isUrl(target)) throw new UsageError('--trust-card-origin: the card must be a URL, not a file');
  const url = new URL(target);
  const loopback = networkPolicyFor(url, false).allowedHosts !== undefined;
  if (url.protocol !== 'https:' && !loopback) {
    throw new UsageError(`--trust-card-origin: ${url.origin} is not https, so its origin proves nothing`);
  }
}

type Pinned = NonNullable<VerifyCardOptions['keys']>;

/** --key values: `<file>` (a JWK or JWKS, by kid) or `<kid>=<file>` (a PEM, or a JWK under that kid). */
function pinnedKeys(values: string[]): Pinned {
  const keys: Pinned = {};
  const pin = (kid: string, key: Pinned[string], from: string): void => {
    if (Object.prototype.hasOwnProperty.call(keys, kid))
      throw new UsageError(`--key: kid ${kid} is given twice (${from})`);
    keys[kid] = key;
  };
  for (const value of values) {
    const split = existsSync(value) ? -1 : value.indexOf('=');
    const [kid, path] = split > 0 ? [value.slice(0, split), value.slice(split + 1)] : [undefined, value];
    const text = readText('--key', path);
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
      throw new UsageError(`--key: ${path} holds a private key; pin the public key`);
    if (/-----BEGIN (PUBLIC KEY|CERTIFICATE)-----/.test(text)) {
      if (kid === undefined)
        throw new UsageError(`--key: ${path} is a PEM, which names no kid: use --key <kid>=${path}`);
      pin(kid, text, path);
      continue;
    }
    const json = readJson('--key', path) as { keys?: unknown; kid?: unknown; d?: unknown };
    const list = Array.isArray(json.keys) ? (json.keys as { kid?: unknown; d?: unknown }[]) : [json];
    if (kid !== undefined && list.length !== 1)
      throw new UsageError(`--key: ${path} holds ${list.length} keys; name one file per kid`);
    for (const jwk of list) {
      if (typeof jwk !== 'object' || jwk === null || !('kty' in jwk))
        throw new UsageError(`--key: ${path} is not a JWK, a JWKS or a PEM`);
      if (jwk.d !== undefined) throw new UsageError(`--key: ${path} holds a private key; pin the public key`);
      const id = kid ?? jwk.kid;
      if (typeof id !== 'string' || id === '')
        throw new UsageError(`--key: a key in ${path} has no kid: use --key <kid>=${path}`);
      pin(id, jwk as Pinned[string], path);
    }
  }
  return keys;
}

/** A --jwks value: a URL (fetched through the guard) or a JWKS file. */
function keySet(value: string): { source: URL | { keys: [] }; label: string } {
  if (isUrl(value)) return { source: new URL(value), label: value };
  const json = readJson('--jwks', value) as { keys?: unknown };
  if (!Array.isArray(json.keys)) throw new UsageError(`--jwks: ${value} is not a JWKS (no "keys" list)`);
  return { source: json as { keys: [] }, label: `from ${value}` };
}

function rootBundle(path: string): string {
  const text = readText('--root', path);
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--root: ${path} holds no PEM certificate`);
  return text;
}

/** The key sets --trust-card-origin adds: the signatures' jku on the card's origin, else the origin's well-known one. */
function originKeySets(target: string, json: unknown): string[] {
  const origin = new URL(target).origin;
  const jkus = signatureJkus(json).filter((jku) => URL.canParse(jku) && new URL(jku).origin === origin);
  return jkus.length > 0 ? [...new Set(jkus)] : [new URL('/.well-known/jwks.json', target).href];
}

function signatureJkus(json: unknown): string[] {
  const signatures = (json as { signatures?: unknown }).signatures;
  if (!Array.isArray(signatures)) return [];
  const out: string[] = [];
  for (const signature of signatures) {
    try {
      const header = JSON.parse(
        Buffer.from(String((signature as { protected?: unknown }).protected), 'base64url').toString('utf8'),
      ) as { jku?: unknown };
      if (typeof header.jku === 'string') out.push(header.jku);
    } catch {
      // A malformed header is reported by the verification itself.
    }
  }
  return out;
}

/** The policy for what the user typed: a loopback card URL or --jwks URL lets loopback through. */
function typedPolicy(typed: string[], allowPrivate: boolean): NetworkPolicy {
  const hosts = new Set<string>();
  for (const each of typed) {
    if (!isUrl(each)) continue;
    const policy = networkPolicyFor(new URL(each), allowPrivate);
    if (policy.allowPrivateNetworks === true) return policy;
    for (const host of policy.allowedHosts ?? []) hosts.add(host);
  }
  return hosts.size === 0 ? {} : { allowedHosts: [...hosts] };
}

/** The card behind `url`, through the client's resolver: SSRF guard, legacy path fallback. */
async function fetchCard(url: string, version: '1.0' | '0.3', policy: NetworkPolicy): Promise<unknown> {
  try {
    return (await fetchAgentCardJson(url, { ...policy, protocolVersion: version, timeoutMs: 10_000 })).json;
  } catch (error) {
    if (error instanceof A2ALocalError) throw new Error(describeFailure(error).line, { cause: error });
    throw error;
  }
}
