/**
 * The host-wide parts every agent is built with, made from one `HostConfig`: the authenticator
 * of its security schemes and its imported card-signing keys. Made once at start and again on
 * every reload in dev mode, so a changed config changes every agent's enforcement and signatures
 * together with its cards (decision 0022).
 */
import { createHash } from 'node:crypto';
import type { SigningKey } from '../card/index.js';
import type { HostConfig } from './host-config.js';
import { createAuthenticator, type HostAuthenticator } from './security/index.js';
import { importSigningKeys } from './signing-keys.js';

/** What agents are built from besides their definitions. */
export interface HostParts {
  config: HostConfig;
  /** Undefined when the config declares no security. */
  auth: HostAuthenticator | undefined;
  signingKeys: SigningKey[];
  /**
   * Identifies the signing keys: a reload that keeps them keeps the signed cards. ES256 signatures
   * are randomised, so re-signing an unchanged card would change its ETag for nothing.
   */
  keysId: string;
  env: NodeJS.ProcessEnv;
  /** Receives what stdio MCP servers write to stderr. */
  mcpLog?: (server: string, line: string) => void;
}

/** Builds the parts of `config`; a bad scheme or key throws here, before anything is replaced. */
export async function buildHostParts(
  config: HostConfig,
  env: NodeJS.ProcessEnv,
  mcpLog?: (server: string, line: string) => void,
): Promise<HostParts> {
  const auth = config.security === undefined ? undefined : createAuthenticator(config.security);
  const signingKeys = await importSigningKeys(config.signing);
  const keysId = createHash('sha256').update(JSON.stringify(config.signing)).digest('hex');
  return { config, auth, signingKeys, keysId, env, ...(mcpLog === undefined ? {} : { mcpLog }) };
}
