/**
 * Push configs carry secrets: the `token` the receiver checks and the `credentials` Concord
 * authenticates with (A2A 1.0 §13.2: "push tokens count as secrets: store them securely"). They are
 * sealed with AES-256-GCM before they reach any store, so a stolen database file or backup reveals
 * neither (docs/decisions/0088-push-secrets.md). The additional authenticated data is the config's
 * task and id: a sealed value copied onto another config in the file no longer opens.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What a config's sealed secrets hold. */
export interface PushSecrets {
  token?: string;
  credentials?: string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Thrown when sealed secrets do not open: another key, or the value was changed. */
export class SecretOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/**
 * Reads a 32-byte key written as 64 hex digits or as base64 / base64url (the forms
 * `CONCORD_SECRET_KEY` accepts). Throws a TypeError that says which forms are accepted, never the
 * value itself.
 */
export function parseSecretKey(text: string, where = 'the secret key'): Uint8Array {
  const value = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) key = Buffer.from(value.replace(/=$/, ''), 'base64url');
  if (key === undefined || key.length !== 32) {
    throw new TypeError(
      `${where} must be 32 bytes written as 64 hex digits or as base64 (e.g. \`openssl rand -hex 32\`)`,
    );
  }
  return new Uint8Array(key);
}

/** Seals and opens push secrets with one AES-256-GCM key; see the file comment. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new TypeError('the push secret key must be 32 bytes (AES-256)');
    this.key = Buffer.from(key);
  }

  /** Seals the secrets of config `(taskId, configId)`; undefined when there are none. */
  seal(secrets: PushSecrets, taskId: string, configId: string): string | undefined {
    if (secrets.token === undefined && secrets.credentials === undefined) return undefined;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(taskId, configId));
    const plain = JSON.stringify({ t: secrets.token, c: secrets.credentials });
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** Opens what `seal` produced for the same config; throws SecretOpenError otherwise. */
  open(sealed: string, taskId: string, configId: string): PushSecrets {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || ivText === undefined || bodyText === undefined) {
      throw new SecretOpenError('the sealed secrets are not in a form this Concord writes');
    }
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) {
      throw new SecretOpenError('the sealed secrets are truncated');
    }
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(aad(taskId, configId));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      plain = Buffer.concat([
        decipher.update(body.subarray(0, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretOpenError(
        'the sealed secrets do not open with this key (was the secret key changed or lost?)',
      );
    }
    const parsed = JSON.parse(plain) as { t?: string; c?: string };
    const secrets: PushSecrets = {};
    if (typeof parsed.t === 'string') secrets.token = parsed.t;
    if (typeof parsed.c === 'string') secrets.credentials = parsed.c;
    return secrets;
  }
}

function aad(taskId: string, configId: string): Buffer {
  return Buffer.from(JSON.stringify([taskId, configId]), 'utf8');
}
