/**
 * The two keys push notifications need, loaded or made once per data directory: the AES-256-GCM
 * key that seals configs' secrets at rest, and the private key that signs every delivery (its
 * public half is served as a JWKS). Made on first start with `0600` permissions, so a restart
 * opens the secrets it sealed and receivers keep verifying with the key they cached
 * (docs/decisions/0088-push-secrets.md, 0089-push-signatures.md).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8 } from 'jose';
import type { SigningKey } from '../../card/index.js';
import { parseSecretKey } from './secret-box.js';

/** The environment variable holding the secret key (64 hex digits or base64 of 32 bytes). */
export const SECRET_KEY_ENV = 'CONCORD_SECRET_KEY';
/** File names under the data directory. */
export const SECRET_KEY_FILE = 'push-secret.key';
export const SIGNING_KEY_FILE = 'push-signing-key.pem';

/** The keys of `PushOptions`. */
export interface PushKeys {
  secretKey: Uint8Array;
  signingKey: SigningKey;
}

/** Options of `loadPushKeys`. */
export interface LoadPushKeysOptions {
  /** Where to keep generated keys; without it they live as long as the process (memory stores). */
  dir?: string | undefined;
  /** Read for CONCORD_SECRET_KEY (default `process.env`); it wins over the file. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Sign deliveries with this key (e.g. the host's card-signing key) instead of a generated one. */
  signingKey?: SigningKey | undefined;
}

/** Creates `path` with `content` and mode 0600, unless it exists; returns false when it did. */
function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function loadSecretKey(dir: string | undefined, env: NodeJS.ProcessEnv): Uint8Array {
  const fromEnv = env[SECRET_KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseSecretKey(fromEnv, SECRET_KEY_ENV);
  if (dir === undefined) return new Uint8Array(randomBytes(32));
  const path = join(dir, SECRET_KEY_FILE);
  // Another process starting on the same directory may have made it first: read back what won.
  createExclusive(path, `${randomBytes(32).toString('hex')}\n`);
  return parseSecretKey(readFileSync(path, 'utf8'), path);
}

/** A new ES256 signing key whose kid is its JWK thumbprint (RFC 7638), stable across restarts. */
export async function generatePushSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return signingKeyFromPem(await exportPKCS8(privateKey));
}

async function signingKeyFromPem(pem: string): Promise<SigningKey> {
  const privateKey = await importPKCS8(pem, 'ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const { d: _private, ...publicJwk } = jwk;
  return { kid: await calculateJwkThumbprint(publicJwk), alg: 'ES256', privateKey: pem };
}

async function loadSigningKey(dir: string | undefined): Promise<SigningKey> {
  if (dir === undefined) return generatePushSigningKey();
  const path = join(dir, SIGNING_KEY_FILE);
  if (!existsSync(path)) createExclusive(path, (await generatePushSigningKey()).privateKey as string);
  try {
    return await signingKeyFromPem(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not an ES256 PKCS#8 private key (${(error as Error).message})`);
  }
}

/**
 * The secret key (CONCORD_SECRET_KEY, else `<dir>/push-secret.key`, made if absent) and the
 * signing key (the given one, else `<dir>/push-signing-key.pem`, made if absent). Without `dir`,
 * keys made here last as long as the process.
 */
export async function loadPushKeys(options: LoadPushKeysOptions = {}): Promise<PushKeys> {
  const { dir } = options;
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const secretKey = loadSecretKey(dir, options.env ?? process.env);
  const signingKey = options.signingKey ?? (await loadSigningKey(dir));
  return { secretKey, signingKey };
}
