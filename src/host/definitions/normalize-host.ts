/**
 * Turns the host-level sections of a schema-valid `concord.config.json5` into `HostConfig`
 * settings: secrets resolved from the environment, JWKS files and signing keys resolved against
 * the config file (keys read as PEM and checked with `jose` for their algorithm, A2A 1.0 §8.4),
 * and the security defaults applied. Sections the schema already rejected are skipped, so each
 * mistake is reported once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { importPKCS8 } from 'jose';
import type { SecurityRequirementInput } from '../../card/index.js';
import { parseSecretKey, pushAllowProblem } from '../../server/internal.js';
import type {
  ApiKeySchemeConfig,
  BearerSchemeConfig,
  HostConfig,
  ModelEndpointConfig,
  PushConfig,
  SecurityConfig,
  SecuritySchemeConfig,
  SigningKeyConfig,
} from '../host-config.js';
import { childPointer, type ProblemSink } from './definition-error.js';
import type { RawAgent } from './normalize-agent.js';
import { normalizeMcpServers, type RawMcpServer } from './normalize-mcp.js';
import { resolveSecret, type SecretInput } from './secrets.js';
import { grpcPublicUrlProblem, publicUrlProblem } from '../public-address.js';

/** Default scope for reaching unexposed agents (HostConfig `internalScope`). */
export const DEFAULT_INTERNAL_SCOPE = 'agents:internal';

type RawBearer = Omit<BearerSchemeConfig, 'secret'> & { secret?: SecretInput };
type RawApiKey = Omit<ApiKeySchemeConfig, 'keys'> & {
  keys: Array<{ key: SecretInput; principal: string; scopes?: string[] }>;
};

/** The config document as written, after schema validation. */
export interface RawHostConfig {
  organization?: { name: string; url: string };
  security?: {
    schemes: Record<string, RawBearer | RawApiKey>;
    requirements?: SecurityRequirementInput[];
    internalScope?: string;
  };
  signing?: { keys: Array<Omit<SigningKeyConfig, 'privateKeyPem'> & { privateKeyFile: string }> };
  model?: { baseUrl?: string; apiKey?: SecretInput };
  outbound?: NonNullable<HostConfig['outbound']>;
  push?: Omit<Partial<PushConfig>, 'secretKey'> & { secretKey?: SecretInput };
  mcpServers?: Record<string, RawMcpServer>;
  idempotency?: { messageId?: boolean };
  maxAgentHops?: number;
  publicUrl?: string;
  grpcPublicUrl?: string;
  trustProxy?: boolean;
  aiCatalog?: boolean;
  /** The seed's `{ list, dir }`, or the list alone. */
  agents?: { dir?: string; list?: RawAgent[] } | RawAgent[];
}

/** The host-level part of a `HostConfig`. */
export type HostSettings = Pick<
  HostConfig,
  | 'organization'
  | 'security'
  | 'signing'
  | 'model'
  | 'outbound'
  | 'push'
  | 'mcpServers'
  | 'idempotency'
  | 'maxAgentHops'
  | 'publicUrl'
  | 'grpcPublicUrl'
  | 'trustProxy'
  | 'aiCatalog'
>;

/** Normalises the host-level sections of `raw` (written in `file`); problems go to `sink`. */
export async function normalizeHostSettings(
  raw: RawHostConfig,
  file: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): Promise<HostSettings> {
  const settings: HostSettings = { signing: [], model: {}, mcpServers: {} };
  if (raw.organization && !sink.hasUnder('/organization')) settings.organization = { ...raw.organization };
  if (raw.security && !sink.hasUnder('/security'))
    settings.security = normalizeSecurity(raw.security, file, sink, env);
  if (raw.signing && !sink.hasUnder('/signing'))
    settings.signing = await readSigningKeys(raw.signing.keys, file, sink);
  if (raw.model && !sink.hasUnder('/model')) settings.model = normalizeModel(raw.model, sink, env);
  if (raw.outbound && !sink.hasUnder('/outbound')) settings.outbound = { ...raw.outbound };
  if (raw.push && !sink.hasUnder('/push')) settings.push = normalizePush(raw.push, sink, env);
  if (raw.idempotency && !sink.hasUnder('/idempotency')) settings.idempotency = { ...raw.idempotency };
  if (raw.maxAgentHops !== undefined && !sink.hasUnder('/maxAgentHops'))
    settings.maxAgentHops = raw.maxAgentHops;
  if (raw.mcpServers) settings.mcpServers = normalizeMcpServers(raw.mcpServers, file, sink, env);
  normalizePublicAddress(raw, settings, sink);
  if (raw.aiCatalog !== undefined && !sink.hasUnder('/aiCatalog')) settings.aiCatalog = raw.aiCatalog;
  return settings;
}

function normalizeSecurity(
  raw: NonNullable<RawHostConfig['security']>,
  file: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): SecurityConfig {
  const schemes: Record<string, SecuritySchemeConfig> = {};
  for (const [name, scheme] of Object.entries(raw.schemes)) {
    const field = childPointer('/security/schemes', name);
    schemes[name] =
      scheme.type === 'http'
        ? normalizeBearer(scheme, field, file, sink, env)
        : normalizeApiKey(scheme, field, sink, env);
  }
  return {
    schemes,
    requirements: raw.requirements ?? [],
    internalScope: raw.internalScope ?? DEFAULT_INTERNAL_SCOPE,
  };
}

function normalizeBearer(
  raw: RawBearer,
  field: string,
  file: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): BearerSchemeConfig {
  const { secret, ...rest } = raw;
  const out: BearerSchemeConfig = { ...rest };
  if (secret !== undefined) {
    const value = resolveSecret(secret, `${field}/secret`, sink, env);
    if (value !== undefined) out.secret = value;
  }
  if (raw.jwks !== undefined) {
    if (/^https:\/\//i.test(raw.jwks) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/i.test(raw.jwks)) {
      out.jwks = raw.jwks;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.jwks)) {
      // Keys fetched over plain HTTP could be swapped in transit; only loopback is exempt.
      sink.add(`${field}/jwks`, `must be an https URL or a file path (got ${raw.jwks})`);
    } else {
      out.jwks = resolve(dirname(file), raw.jwks);
      if (!existsSync(out.jwks)) sink.add(`${field}/jwks`, `JWKS file not found: ${out.jwks}`);
    }
  }
  if (raw.jwks === undefined && secret === undefined) {
    sink.add(field, 'a bearer scheme needs `jwks` or `secret` to verify tokens with');
  }
  return out;
}

function normalizeApiKey(
  raw: RawApiKey,
  field: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): ApiKeySchemeConfig {
  const keys = raw.keys.map((entry, index) => ({
    key: resolveSecret(entry.key, `${field}/keys/${index}/key`, sink, env) ?? '',
    principal: entry.principal,
    scopes: entry.scopes ?? [],
  }));
  return { ...raw, keys };
}

async function readSigningKeys(
  keys: NonNullable<RawHostConfig['signing']>['keys'],
  file: string,
  sink: ProblemSink,
): Promise<SigningKeyConfig[]> {
  const out: SigningKeyConfig[] = [];
  const kids = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const field = `/signing/keys/${index}`;
    if (kids.has(key.kid)) sink.add(`${field}/kid`, `duplicate key id "${key.kid}"`);
    kids.add(key.kid);
    const path = resolve(dirname(file), key.privateKeyFile);
    let pem: string;
    try {
      pem = readFileSync(path, 'utf8');
    } catch {
      sink.add(`${field}/privateKeyFile`, `cannot read private key file ${path}`);
      continue;
    }
    try {
      await importPKCS8(pem, key.alg);
    } catch {
      sink.add(`${field}/privateKeyFile`, `${path} is not a PKCS#8 PEM private key usable with ${key.alg}`);
      continue;
    }
    const signing: SigningKeyConfig = { kid: key.kid, alg: key.alg, privateKeyPem: pem };
    if (key.jku !== undefined) signing.jku = key.jku;
    out.push(signing);
  }
  return out;
}

function normalizePush(
  raw: NonNullable<RawHostConfig['push']>,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): PushConfig {
  const allow = raw.allow ?? [];
  allow.forEach((entry, index) => {
    const problem = pushAllowProblem(entry);
    if (problem !== undefined) sink.add(`/push/allow/${index}`, problem);
  });
  const out: PushConfig = { enabled: raw.enabled ?? true, allow: [...allow] };
  if (raw.secretKey !== undefined) {
    const key = resolveSecret(raw.secretKey, '/push/secretKey', sink, env);
    if (key !== undefined) {
      try {
        parseSecretKey(key);
        out.secretKey = key;
      } catch (error) {
        // The message says which forms are accepted; it never repeats the value.
        sink.add('/push/secretKey', (error as Error).message);
      }
    }
  }
  if (raw.timeoutMs !== undefined) out.timeoutMs = raw.timeoutMs;
  if (raw.retry !== undefined) out.retry = { ...raw.retry };
  return out;
}

function normalizeModel(
  raw: NonNullable<RawHostConfig['model']>,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): ModelEndpointConfig {
  // Only what the file says: OPENAI_BASE_URL / OPENAI_API_KEY defaults belong to the executor.
  const out: ModelEndpointConfig = {};
  if (raw.baseUrl !== undefined) out.baseUrl = raw.baseUrl;
  if (raw.apiKey !== undefined) {
    const apiKey = resolveSecret(raw.apiKey, '/model/apiKey', sink, env);
    if (apiKey !== undefined) out.apiKey = apiKey;
  }
  return out;
}

/** Where clients reach the host (decision 0149): checked here, so a bad one names its line. */
function normalizePublicAddress(raw: RawHostConfig, settings: HostSettings, sink: ProblemSink): void {
  if (raw.publicUrl !== undefined && !sink.hasUnder('/publicUrl')) {
    const problem = publicUrlProblem(raw.publicUrl);
    if (problem === undefined) settings.publicUrl = raw.publicUrl;
    else sink.add('/publicUrl', problem);
  }
  if (raw.grpcPublicUrl !== undefined && !sink.hasUnder('/grpcPublicUrl')) {
    const problem = grpcPublicUrlProblem(raw.grpcPublicUrl);
    if (problem === undefined) settings.grpcPublicUrl = raw.grpcPublicUrl;
    else sink.add('/grpcPublicUrl', problem);
  }
  if (raw.trustProxy !== undefined && !sink.hasUnder('/trustProxy')) settings.trustProxy = raw.trustProxy;
}
