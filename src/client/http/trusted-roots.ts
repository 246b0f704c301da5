/**
 * The client's `trustedCertificates`: roots, besides node's default ones, that agents'
 * certificates may chain to (a private CA), for HTTPS and gRPC over TLS alike. node's `ca` option
 * replaces the default roots rather than adding to them, and drops `NODE_EXTRA_CA_CERTS` with them,
 * so the context built here holds all three: the defaults, the extra file, the given roots.
 * Verification stays on: a certificate that chains to none of them is still refused.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import tls, { type SecureContext } from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates in `text` (a bundle may hold several). */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

/**
 * node's default roots: the bundled Mozilla store and `NODE_EXTRA_CA_CERTS` (node 22.15 and later
 * say so themselves, with the system's store when node runs with `--use-system-ca`).
 */
function defaultRoots(): string[] {
  const getCACertificates = (tls as { getCACertificates?: (type?: 'default') => string[] }).getCACertificates;
  if (typeof getCACertificates === 'function') return getCACertificates('default');
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  let extraPems: string[] = [];
  if (extra !== undefined && extra !== '') {
    try {
      extraPems = pemCertificates(readFileSync(extra, 'utf8'));
    } catch {
      // node itself warned at start-up and went on without the file.
    }
  }
  return [...tls.rootCertificates, ...extraPems];
}

/**
 * The given roots, each PEM text split into its certificates; a text holding none, or one that
 * does not parse, is a TypeError (a mistaken option, told before any request is made).
 */
export function trustedRoots(trusted: string | readonly string[]): string[] {
  const roots: string[] = [];
  for (const text of typeof trusted === 'string' ? [trusted] : trusted) {
    const found = pemCertificates(text);
    if (found.length === 0) throw new TypeError('trustedCertificates: expected PEM certificates');
    for (const pem of found) {
      try {
        new X509Certificate(pem);
      } catch (error) {
        throw new TypeError(`trustedCertificates: a certificate does not parse: ${(error as Error).message}`);
      }
      roots.push(pem);
    }
  }
  return roots;
}

/**
 * One TLS context for every connection of a client (building one reads every root: tens of ms):
 * the default roots and `trusted`, and the client certificate presented for mutual TLS.
 */
export function trustingContext(
  trusted: string | readonly string[],
  clientCertificate?: { cert: string; key: string },
): SecureContext {
  return tls.createSecureContext({
    ca: [...defaultRoots(), ...trustedRoots(trusted)],
    ...(clientCertificate ?? {}),
  });
}
