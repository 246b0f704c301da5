/**
 * What every calling command (send, get, list, cancel, subscribe, push-config) shares: the options that pick
 * the interface, the credentials and the network policy, and the connection they lead to
 * (decision 0038). A loopback URL the user typed is trusted, so agents on localhost work without
 * a flag; every other private or loopback target, including one a fetched card points to, needs
 * `--allow-private`.
 */
import { isIP } from 'node:net';
import {
  A2AClient,
  apiKey,
  bearer,
  type Credential,
  type NetworkPolicy,
  type TransportPreference,
} from '../../client/index.js';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../exit-codes.js';

/** parseArgs definitions of the shared options. */
export const CALL_OPTIONS = {
  json: { type: 'boolean', default: false },
  binding: { type: 'string' },
  'a2a-version': { type: 'string' },
  token: { type: 'string' },
  'api-key': { type: 'string' },
  'allow-private': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'max-response-bytes': { type: 'string' },
  agent: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Usage text of the shared options. */
export const CALL_OPTIONS_USAGE = `Connection options (every calling command):
  --binding <b>        jsonrpc, rest or grpc (default: the agent's preference)
  --a2a-version <v>    1.0 or 0.3 (default: 1.0 when the agent offers it)
  --token <bearer>     bearer token (default: $CONCORD_TOKEN)
  --api-key <key>      API key, placed where the card's apiKey scheme says (default: $CONCORD_API_KEY)
  --allow-private      allow private and loopback targets beyond a loopback URL you typed
  --timeout <seconds>  per request (default 30; streams: until the stream starts)
  --max-response-bytes <n>
                       largest answer read, e.g. a task with large artifacts (default 16777216)
  --agent <name>       the agent to call at an origin serving several: its id, name or
                       identifier in the origin's AI Catalog (see concord discover)
  --json               machine output: one JSON object per line (NDJSON)`;

/** The shared option values as parseArgs returns them. */
export interface CallFlags {
  json?: boolean | undefined;
  binding?: string | undefined;
  'a2a-version'?: string | undefined;
  token?: string | undefined;
  'api-key'?: string | undefined;
  'allow-private'?: boolean | undefined;
  timeout?: string | undefined;
  'max-response-bytes'?: string | undefined;
  agent?: string | undefined;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The client's own upper bound of `maxResponseBytes` (a gRPC channel option is a 32-bit integer). */
const MAX_RESPONSE_BYTES_FLAG = 2 ** 31 - 1;

function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** Parses the agent URL argument; only absolute http(s) URLs. */
export function agentUrl(value: string | undefined, usage: string): URL {
  if (value === undefined) throw new UsageError(`missing the agent URL\n\n${usage}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${JSON.stringify(value)} is not a URL; expected http(s)://host[:port]/...`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${value}: only http and https agent URLs are supported`);
  return url;
}

/**
 * The network policy for a target the user typed: everything private with --allow-private;
 * loopback names and addresses when the typed URL itself is loopback; otherwise the client's
 * default guard (no private, loopback or link-local target).
 */
export function networkPolicyFor(target: URL, allowPrivate: boolean): NetworkPolicy {
  if (allowPrivate) return { allowPrivateNetworks: true };
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isLoopbackHost(host)) return { allowedHosts: [...new Set([...LOOPBACK_NAMES, host])] };
  return {};
}

/**
 * An API key that goes where the card's apiKey scheme says (header, query or cookie, under its
 * name); a card declaring no scheme gets it as an `X-API-Key` header.
 */
function cardApiKey(value: string): Credential {
  return {
    kind: 'API key (--api-key)',
    fits: (scheme) => 'apiKeySecurityScheme' in scheme,
    apply(call, context) {
      const scheme = context.scheme;
      const where =
        scheme !== undefined && 'apiKeySecurityScheme' in scheme
          ? scheme.apiKeySecurityScheme
          : { location: 'header' as const, name: 'X-API-Key' };
      return apiKey({ in: where.location, name: where.name, value }).apply(call, context);
    },
  };
}

function preferenceOf(flags: CallFlags): TransportPreference {
  const prefer: TransportPreference = {};
  const binding = flags.binding?.toLowerCase();
  if (binding !== undefined) {
    if (binding === 'jsonrpc' || binding === 'json-rpc') prefer.bindings = ['JSONRPC'];
    else if (binding === 'rest' || binding === 'http+json') prefer.bindings = ['HTTP+JSON'];
    else if (binding === 'grpc') prefer.bindings = ['GRPC'];
    else
      throw new UsageError(`--binding: expected jsonrpc, rest or grpc, got ${JSON.stringify(flags.binding)}`);
  }
  const version = flags['a2a-version'];
  if (version !== undefined) {
    if (version !== '1.0' && version !== '0.3')
      throw new UsageError(`--a2a-version: expected 1.0 or 0.3, got ${JSON.stringify(version)}`);
    prefer.versions = [version];
  }
  return prefer;
}

/** The per-request timeout in ms from `--timeout <seconds>` (undefined: the client's 30 s). */
export function timeoutOf(flags: CallFlags): number | undefined {
  if (flags.timeout === undefined) return undefined;
  const seconds = Number(flags.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(
      `--timeout: expected a number of seconds above 0, got ${JSON.stringify(flags.timeout)}`,
    );
  return Math.round(seconds * 1000);
}

/**
 * The client's `maxResponseBytes` from `--max-response-bytes <n>` (undefined: the client's 16 MiB):
 * the bound a GetTask of a task with large artifacts must fit in (issue 27).
 */
export function maxResponseBytesOf(flags: CallFlags): number | undefined {
  const text = flags['max-response-bytes'];
  if (text === undefined) return undefined;
  const bytes = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_RESPONSE_BYTES_FLAG)
    throw new UsageError(
      `--max-response-bytes: expected a whole number of bytes from 1 to ${MAX_RESPONSE_BYTES_FLAG}, got ${JSON.stringify(text)}`,
    );
  return bytes;
}

/** Checks the shared flags without connecting (usage errors surface before any request). */
export function checkCallFlags(flags: CallFlags): void {
  preferenceOf(flags);
  timeoutOf(flags);
  maxResponseBytesOf(flags);
}

/** The credentials `--token` / `--api-key` (or their environment variables) give. */
export function credentialsOf(flags: CallFlags): Credential[] {
  const auth: Credential[] = [];
  const token = flags.token ?? process.env.CONCORD_TOKEN;
  if (token !== undefined && token !== '') auth.push(bearer(token));
  const key = flags['api-key'] ?? process.env.CONCORD_API_KEY;
  if (key !== undefined && key !== '') auth.push(cardApiKey(key));
  return auth;
}

/** Resolves the agent's card and picks an interface as the flags say. */
export async function connectClient(
  url: URL,
  flags: CallFlags,
  signal: AbortSignal,
  io?: CliIo,
): Promise<A2AClient> {
  const timeoutMs = timeoutOf(flags);
  const maxResponseBytes = maxResponseBytesOf(flags);
  return A2AClient.connect(url, {
    ...networkPolicyFor(url, flags['allow-private'] === true),
    prefer: preferenceOf(flags),
    auth: credentialsOf(flags),
    signal,
    timeoutMs,
    // An origin with several agents: the one --agent names in its AI Catalog (decision 0167).
    ...(flags.agent === undefined ? {} : { agent: flags.agent }),
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
    // What the client read past in an off-spec answer goes to stderr (decision 0136).
    ...(io === undefined
      ? {}
      : { onWarning: (w) => io.err(`warning: ${w.url} ${w.path || '/'}: ${w.message}`) }),
  });
}
