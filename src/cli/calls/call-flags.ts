/**
 * What every calling command (send, get, list, cancel, subscribe, push-config) shares: the options that pick
 * the interface, the credentials and the network policy, and the connection they lead to
 * (decision 0038). A loopback URL the user typed is trusted, so agents on localhost work without
 * a flag; every other private or loopback target, including one a fetched card points to, needs
 * `--allow-private`. The options are a2a-cli SPEC v0.2 §5.2's (`-a/--agent-card`, `-o/--output`,
 * `--transport`, `--bearer`, `--a2a-version` with the 1.0 floor), with Concord's earlier spellings
 * kept as aliases (`--json`, `--binding`, `--token`; decision 0169).
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  A2AClient,
  apiKey,
  bearer,
  headersInterceptor,
  type A2AClientCommonOptions,
  type ClientInterceptor,
  type ClientBinding,
  type Credential,
  type NetworkPolicy,
  type TransportPreference,
} from '../../client/index.js';
import { trustedRoots } from '../../client/internal.js';
import type { CliIo } from '../cli-io.js';
import { redacting, registerSecret } from '../redaction.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { OAUTH_FLAGS_USAGE, oauthCredentialsOf } from '../auth/oauth-credentials.js';
import { authServerDebug, INSECURE_WARNING, warnedOnInsecure, wireDebug } from './wire-debug.js';
import { setVerbose } from './task-text.js';
import { layerSettings, settingsHelp } from '../config/cli-settings.js';

/** parseArgs definitions of the shared options. */
export const CALL_OPTIONS = {
  'agent-card': { type: 'string', short: 'a' },
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean', default: false },
  transport: { type: 'string', multiple: true },
  binding: { type: 'string' },
  'a2a-version': { type: 'string' },
  bearer: { type: 'string' },
  token: { type: 'string' },
  'api-key': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'allow-private': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'request-timeout': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'svc-param': { type: 'string', multiple: true },
  agent: { type: 'string' },
  insecure: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  debug: { type: 'boolean', default: false },
  config: { type: 'string' },
  extension: { type: 'string', multiple: true },
  cert: { type: 'string' },
  key: { type: 'string' },
  'ca-cert': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * parseArgs, then what the command line left out from the environment and the `.env` files
 * (config/cli-settings.ts: flag, then A2ACLI_<FLAG>, then the local file or --config, then the
 * global one); a secret in a file others may read is warned of.
 */
export function parseCall<T extends ParseArgsConfig>(config: T, io: CliIo): ReturnType<typeof parseArgs<T>> {
  const parsed = parseArgs(config);
  const warnings = layerSettings(
    config.args ?? [],
    config.options ?? {},
    parsed.values as Record<string, unknown>,
  );
  for (const warning of warnings) io.err(warning);
  return parsed;
}

/**
 * `--help` of a calling command: its usage, then the defaults configuration sets (decision 0169);
 * resolves the exit code, 0.
 */
export function printHelp(io: CliIo, usage: string, values: Record<string, unknown>): number {
  io.write(`${usage}\n${settingsHelp(values)}`);
  return EXIT.OK;
}

/** Usage text of the shared options. */
export const CALL_OPTIONS_USAGE = `Agent and output (every calling command):
  -a, --agent-card <ref>  the agent: a host (agent.example.com, localhost:4000; loopback is
                          http, others https), an origin or base URL (its
                          /.well-known/agent-card.json is read), a card URL ending in .json, or a
                          card file (card.json, file:///path/card.json). Concord's earlier form,
                          the agent's http(s) URL as the first argument, still works
  -o, --output <format>   text (default: Label: value lines) or json (one JSON document; with
                          --stream, JSON Lines). --json is -o json
  --agent <name>          the agent to call at an origin serving several: its id, name or
                          identifier in the origin's AI Catalog (see concord discover)
  --verbose               text output in full: each part with its kind, media type and
                          metadata, the message sent, the task's history (default: concise)
  --debug                 how the command talks to the agent, on stderr: the interface chosen,
                          each request and answer as on the wire, with timings, and each
                          exchange with an OAuth authorization server (credentials, secrets and
                          tokens are never printed)

Connection options:
  --transport <binding>   jsonrpc, rest (http+json) or grpc; repeat it to rank several: the first
                          the card offers wins (default: the card's order). --binding is an alias
  --a2a-version <v>       1.0 (default) or 0.3: A2A 0.3 interfaces are used only when asked for
  --extension <uri>       activate an A2A extension you implement on every request
                          (A2A-Extensions); repeatable. A card's required extension must be
                          given, or nothing is sent (ExtensionSupportRequiredError)
  --bearer <token>        bearer token (default: $A2ACLI_BEARER, then $CONCORD_TOKEN); --token is
                          an alias
  --api-key <key>         API key, placed where the card's apiKey scheme says (default:
                          $A2ACLI_API_KEY, then $CONCORD_API_KEY)
                          A secret given as a flag shows in the process table and the shell
                          history: prefer the environment variables. Secrets are never printed
${OAUTH_FLAGS_USAGE}
  --allow-private         allow private and loopback targets beyond a loopback URL you typed
  --cert <file> --key <file>
                          a client certificate (PEM, with its chain) and its private key, for
                          an agent that asks for mutual TLS
  --ca-cert <file>        also trust these root certificates (PEM, one or more), for an agent
                          or authorization server whose certificate chains to a private CA;
                          for this command only, verification stays on (default: the system's
                          roots only)
  --insecure              do not verify the agent's TLS certificate (development only: a
                          warning says so, and again when a credential is sent; default: verify)
  --timeout <duration>    give up waiting after this long: A2ACLI_ERR_TIMEOUT, exit 5 (5s,
                          500ms, 2m; a bare number is seconds; default: no limit)
  --request-timeout <duration>
                          each single request (default 30s; streams: until the stream starts)
  --max-response-bytes <n>
                          largest answer read, e.g. a task with large artifacts (default 16777216)
  --svc-param <k:v>       an A2A service parameter: an HTTP header, or gRPC metadata, on every
                          request; repeatable (its values are never printed)

Settings: every option above with a value, and --async, --poll-interval, --context-id and
--task-id, may come from A2ACLI_<OPTION> (A2ACLI_AGENT_CARD, A2ACLI_OUTPUT, A2ACLI_BEARER...;
booleans true or false, --transport comma-separated) in the environment or in .env files. A
flag wins over the environment, which wins over the local file, which wins over the global one:
  --config <path>         the local file (default: the first .env from here up to /)
                          global: $XDG_CONFIG_HOME/concord/.env, else ~/.config/concord/.env
concord config show prints each setting's value and where it came from.`;

/** The shared option values as parseArgs returns them. */
export interface CallFlags {
  'agent-card'?: string | undefined;
  output?: string | undefined;
  json?: boolean | undefined;
  transport?: string[] | undefined;
  binding?: string | undefined;
  'a2a-version'?: string | undefined;
  bearer?: string | undefined;
  token?: string | undefined;
  'api-key'?: string | undefined;
  'client-id'?: string | undefined;
  'client-secret'?: string | undefined;
  'allow-private'?: boolean | undefined;
  timeout?: string | undefined;
  'request-timeout'?: string | undefined;
  'max-response-bytes'?: string | undefined;
  'svc-param'?: string[] | undefined;
  agent?: string | undefined;
  extension?: string[] | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  'ca-cert'?: string | undefined;
  insecure?: boolean | undefined;
  verbose?: boolean | undefined;
  debug?: boolean | undefined;
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

/** A binding named on the command line: Concord's words, or the card's own `protocolBinding`. */
function bindingOf(value: string, flag: string): ClientBinding {
  const name = value.toLowerCase();
  if (name === 'jsonrpc' || name === 'json-rpc') return 'JSONRPC';
  if (name === 'rest' || name === 'http+json' || name === 'http-json') return 'HTTP+JSON';
  if (name === 'grpc') return 'GRPC';
  throw new UsageError(`${flag}: expected jsonrpc, rest or grpc, got ${JSON.stringify(value)}`);
}

/**
 * The interface preference: `--transport` in the order given (then `--binding`, its alias), and
 * the protocol version. Without `--a2a-version` only 1.0 is chosen (a2a-cli SPEC §11.2: never
 * below 1.0 without an explicit opt-in); `--a2a-version 0.3` is that opt-in.
 */
export function preferenceOf(flags: CallFlags): TransportPreference {
  const prefer: TransportPreference = {};
  const named = [
    ...(flags.transport ?? []).map((value) => bindingOf(value, '--transport')),
    ...(flags.binding === undefined ? [] : [bindingOf(flags.binding, '--binding')]),
  ];
  if (named.length > 0) prefer.bindings = [...new Set(named)];
  const version = flags['a2a-version'] ?? '1.0';
  if (version !== '1.0' && version !== '0.3')
    throw new UsageError(`--a2a-version: expected 1.0 or 0.3, got ${JSON.stringify(version)}`);
  prefer.versions = [version];
  return prefer;
}

/**
 * A duration: `500ms`, `5s`, `2m`, `1h`, or a bare number of seconds (`30`, `0.5`); in ms.
 * `flag` names the option in the error.
 */
export function durationOf(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match?.[2] ?? 's'] ?? 1000;
  const ms = match === null ? NaN : Number(match[1]) * unit;
  if (!Number.isFinite(ms) || ms <= 0 || ms > 2 ** 31 - 1)
    throw new UsageError(
      `${flag}: expected a duration above 0 such as 500ms, 5s or 2m (a bare number is seconds), got ${JSON.stringify(text)}`,
    );
  return Math.max(1, Math.round(ms));
}

/** Starts the command's overall deadline when `--timeout` gives one (SPEC §7.3). */
export function startTimeout(
  flags: CallFlags,
  context: { startDeadline(ms: number, text: string): void },
): void {
  const ms = timeoutOf(flags);
  if (ms !== undefined) context.startDeadline(ms, flags.timeout!);
}

/** The overall deadline in ms from `--timeout <duration>`, or undefined (none). */
export function timeoutOf(flags: CallFlags): number | undefined {
  return flags.timeout === undefined ? undefined : durationOf(flags.timeout, '--timeout');
}

/**
 * The client's per-request timeout in ms from `--request-timeout` (undefined: the client's 30 s).
 * The overall `--timeout` is not folded in: its deadline aborts whatever request is running.
 */
export function requestTimeoutOf(flags: CallFlags): number | undefined {
  return flags['request-timeout'] === undefined
    ? undefined
    : durationOf(flags['request-timeout'], '--request-timeout');
}

/**
 * The service parameters of `--svc-param k:v` (A2A 1.0 §3.2.6): header names, lower-case, and
 * their values; a name given twice keeps both values, comma-joined.
 */
export function serviceParamsOf(flags: CallFlags): Record<string, string> {
  const params: Record<string, string> = {};
  for (const entry of flags['svc-param'] ?? []) {
    const colon = entry.indexOf(':');
    const name = colon < 0 ? '' : entry.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
      throw new UsageError(
        `--svc-param: expected <name>:<value> with a header name, got ${JSON.stringify(entry.split(':')[0])}`,
      );
    const value = entry.slice(colon + 1).trim();
    // Any service parameter may carry a credential (SPEC §10.1): none is ever printed.
    registerSecret(value);
    params[name] = params[name] === undefined ? value : `${params[name]}, ${value}`;
  }
  return params;
}

/** The credential flags and variables whose values are never printed. */
const SECRET_FLAGS = ['bearer', 'token', 'api-key', 'client-secret'] as const;
const SECRET_VARIABLES = [
  'A2ACLI_BEARER',
  'A2ACLI_API_KEY',
  'CONCORD_TOKEN',
  'CONCORD_API_KEY',
  'CONCORD_CLIENT_SECRET',
];

/** Registers the secrets the flags and the environment hold for redaction (redaction.ts). */
export function registerFlagSecrets(flags: CallFlags): void {
  const values = flags as Record<string, unknown>;
  for (const name of SECRET_FLAGS) {
    const value = values[name];
    if (typeof value === 'string') registerSecret(value);
  }
  for (const name of SECRET_VARIABLES) registerSecret(process.env[name]);
}

/** The output format: `-o text|json`, `--json` being `-o json`. */
export function outputOf(flags: CallFlags): 'text' | 'json' {
  const output = flags.output;
  if (output !== undefined && output !== 'text' && output !== 'json')
    throw new UsageError(`--output: expected text or json, got ${JSON.stringify(output)}`);
  if (flags.json === true && output === 'text') throw new UsageError('--json and -o text contradict');
  return flags.json === true ? 'json' : (output ?? 'text');
}

/**
 * The flags with a2a-cli's credential spellings folded into Concord's: `--bearer`, then `--token`,
 * then $A2ACLI_BEARER for the bearer token, and $A2ACLI_API_KEY under `--api-key`
 * (credentialsOf falls back to $CONCORD_TOKEN / $CONCORD_API_KEY after them).
 */
export function withSpecCredentials<T extends CallFlags>(flags: T): T {
  registerFlagSecrets(flags);
  const env = (name: string): string | undefined => {
    const value = process.env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const token = flags.bearer ?? flags.token ?? env('A2ACLI_BEARER');
  const key = flags['api-key'] ?? env('A2ACLI_API_KEY');
  return {
    ...flags,
    ...(token === undefined ? {} : { token }),
    ...(key === undefined ? {} : { 'api-key': key }),
  };
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

/**
 * Checks the shared flags without connecting (usage errors surface before any request), and sets
 * the text output's detail level (`--verbose`).
 */
export function checkCallFlags(flags: CallFlags): void {
  setVerbose(flags.verbose === true);
  preferenceOf(flags);
  serviceParamsOf(flags);
  timeoutOf(flags);
  requestTimeoutOf(flags);
  maxResponseBytesOf(flags);
  outputOf(flags);
  clientCertificateOf(flags);
  trustedCertificatesOf(flags);
}

/** The credentials `--token` / `--api-key` (or their environment variables) give. */
export function credentialsOf(flags: CallFlags): Credential[] {
  const auth: Credential[] = [];
  const token = flags.token ?? process.env.CONCORD_TOKEN;
  if (token !== undefined && token !== '') auth.push(bearer(token));
  const key = flags['api-key'] ?? process.env.CONCORD_API_KEY;
  if (key !== undefined && key !== '') auth.push(cardApiKey(key));
  // OAuth 2.0: client credentials, then the logins of `concord auth login` (decision 0168).
  auth.push(...oauthCredentialsOf(flags));
  return auth;
}

/**
 * How requests go out, for a client and for the card resolver alike: the service parameters
 * (`headers`), the wire log of `--debug`, `--insecure`'s unverified TLS, and the certificates of
 * `--cert`/`--key` (presented) and `--ca-cert` (trusted).
 */
export function wireOptionsOf(
  flags: CallFlags,
  io: CliIo | undefined,
  headers: Record<string, string> = {},
): {
  interceptors?: ClientInterceptor[];
  insecureTls?: boolean;
  clientCertificate?: { cert: string; key: string };
  trustedCertificates?: string;
} {
  const interceptors: ClientInterceptor[] = [];
  const clientCertificate = clientCertificateOf(flags);
  const trustedCertificates = trustedCertificatesOf(flags);
  if (Object.keys(headers).length > 0) interceptors.push(headersInterceptor(headers));
  // Last, so the wire log shows the headers every other interceptor set.
  if (flags.debug === true && io !== undefined) interceptors.push(wireDebug(io));
  return {
    ...(interceptors.length === 0 ? {} : { interceptors }),
    ...(flags.insecure === true ? { insecureTls: true } : {}),
    ...(clientCertificate === undefined ? {} : { clientCertificate }),
    ...(trustedCertificates === undefined ? {} : { trustedCertificates }),
  };
}

/**
 * The client certificate of `--cert` and `--key` (PEM files), for mutual TLS (A2A 1.0's
 * `mutualTlsSecurityScheme`, SPEC §10.3); both or neither. The key is a secret: never printed.
 */
export function clientCertificateOf(flags: CallFlags): { cert: string; key: string } | undefined {
  if (flags.cert === undefined && flags.key === undefined) return undefined;
  if (flags.cert === undefined || flags.key === undefined)
    throw new UsageError('--cert and --key go together: the client certificate and its private key');
  const key = readFlagFile(flags.key, '--key');
  registerSecret(key);
  return { cert: readFlagFile(flags.cert, '--cert'), key };
}

/** The text of the file a flag names; one that cannot be read is a usage error naming both. */
function readFlagFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * The root certificates of `--ca-cert <file>` (PEM, one or more; or `A2ACLI_CA_CERT`), trusted
 * besides the system's for this command (the client's `trustedCertificates`). A file that cannot
 * be read, holds no certificate or one that does not parse is a usage error.
 */
export function trustedCertificatesOf(flags: CallFlags): string | undefined {
  const path = flags['ca-cert'];
  if (path === undefined) return undefined;
  const text = readFlagFile(path, '--ca-cert');
  try {
    // The client's own check, told here as a usage error naming the file.
    trustedRoots(text);
  } catch (error) {
    throw new UsageError(
      `--ca-cert ${path}: ${(error as Error).message.replace(/^trustedCertificates: /, '')}`,
    );
  }
  return text;
}

/** Says on stderr that `--insecure` is in force (SPEC §4.5: never silently). */
export function warnInsecure(flags: CallFlags, io: CliIo): void {
  if (flags.insecure === true) io.err(INSECURE_WARNING);
}

/**
 * The client options the flags give, for an agent behind `policy`: interface preference,
 * credentials, timeouts, and the explicit `A2A-Version: 0.3` of an opted-in 0.3 interface (the
 * client sends none for 0.3, which a server reads as 0.3; a2a-cli SPEC §11.2 asks for it spelled
 * out on every request).
 */
export function clientOptionsOf(flags: CallFlags, policy: NetworkPolicy, io?: CliIo): A2AClientCommonOptions {
  registerFlagSecrets(flags);
  const prefer = preferenceOf(flags);
  const timeoutMs = requestTimeoutOf(flags);
  const maxResponseBytes = maxResponseBytesOf(flags);
  const headers = serviceParamsOf(flags);
  if (prefer.versions?.[0] === '0.3') headers['a2a-version'] = '0.3';
  const wire = wireOptionsOf(flags, io, headers);
  const insecure = flags.insecure === true;
  const warned = { done: false };
  return {
    ...policy,
    ...wire,
    prefer,
    // Whatever a credential puts in a request is redacted from every diagnostic from then on;
    // with --insecure, its first trip over an unverified connection is announced (SPEC §10.1).
    auth: credentialsOf(flags).map((credential) => {
      const redacted = redacting(credential);
      return insecure && io !== undefined ? warnedOnInsecure(redacted, io, warned) : redacted;
    }),
    timeoutMs,
    ...(flags.extension === undefined ? {} : { extensions: flags.extension }),
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
    // What the client read past in an off-spec answer goes to stderr (decision 0136).
    ...(io === undefined
      ? {}
      : { onWarning: (w) => io.err(`warning: ${w.url} ${w.path || '/'}: ${w.message}`) }),
    // --debug: the token requests of OAuth credentials too, which pass no interceptor.
    ...(flags.debug === true && io !== undefined ? { onAuthServerExchange: authServerDebug(io) } : {}),
  };
}

/** Resolves the agent's card and picks an interface as the flags say. */
export async function connectClient(
  url: URL,
  flags: CallFlags,
  signal: AbortSignal,
  io?: CliIo,
): Promise<A2AClient> {
  return A2AClient.connect(url, {
    ...clientOptionsOf(flags, networkPolicyFor(url, flags['allow-private'] === true), io),
    signal,
    // An origin with several agents: the one --agent names in its AI Catalog (decision 0167).
    ...(flags.agent === undefined ? {} : { agent: flags.agent }),
  });
}
