/**
 * Credential redaction for everything the CLI writes as diagnostics (a2a-cli SPEC v0.2 §10.1,
 * `A2ACLI_AUTH_004`; decision 0169): bearer tokens, API keys and service-parameter values are
 * replaced by `[REDACTED]` in every stderr line and in the error envelope, however they got there
 * (an error quoting a URL whose query carries an API key, an agent's error body echoing a header).
 * Secrets are known two ways: the values given on the command line and in the environment, and
 * whatever a credential writes into a request (so a token fetched at run time, an OAuth access
 * token, is known from its first use). No flag turns this off.
 */
import type { Credential } from '../client/index.js';

const secrets = new Set<string>();

/** Shorter values are not redacted: replacing them would garble ordinary text. */
const MIN_SECRET_LENGTH = 4;

/** Remembers a secret to redact (with its URL-encoded and base64 spellings). */
export function registerSecret(value: string | undefined): void {
  if (value === undefined) return;
  const secret = value.trim();
  if (secret.length < MIN_SECRET_LENGTH) return;
  secrets.add(secret);
  secrets.add(encodeURIComponent(secret));
  secrets.add(encodeURIComponent(secret).replace(/%20/g, '+'));
  secrets.add(Buffer.from(secret).toString('base64'));
}

/** What a secret is replaced by. */
export const REDACTED = '[REDACTED]';

/** The text with every known secret, and the password of any URL's userinfo, replaced. */
export function redact(text: string): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  // user:password@ in a URL (one masked already, as `***`, stays as it is).
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#:@]*:)(?!\*+@)[^\s/?#@]+@/gi, `$1${REDACTED}@`);
}

/** The header a credential may set: its value, and the part after an auth scheme's name. */
function registerHeader(name: string, value: string): void {
  registerSecret(value);
  if (name === 'authorization') registerSecret(value.replace(/^\S+\s+/, ''));
  if (name === 'cookie')
    for (const pair of value.split(';'))
      registerSecret(decodeURIComponent(pair.split('=').slice(1).join('=')));
}

/**
 * The credential, with whatever it adds to a request (headers, query parameters, cookies)
 * remembered as secrets before the request goes out.
 */
export function redacting(credential: Credential): Credential {
  return {
    kind: credential.kind,
    fits: (scheme) => credential.fits(scheme),
    async apply(call, context) {
      const headers = { ...call.headers };
      const query = new URLSearchParams(call.url.searchParams);
      await credential.apply(call, context);
      for (const [name, value] of Object.entries(call.headers))
        if (headers[name] !== value) registerHeader(name, value);
      for (const [name, value] of call.url.searchParams) if (query.get(name) !== value) registerSecret(value);
    },
  };
}
