/**
 * Certificate chains as card trust anchors (decision 0166): a signature whose protected header
 * carries `x5c` (RFC 7515 §4.1.6: base64 DER certificates, the signing one first) is trusted when
 * each certificate is signed by the next and the chain ends at a root certificate the caller
 * configured, every link valid at the verification time, every issuer a CA (basicConstraints,
 * path length) allowed to sign certificates (keyUsage keyCertSign when present), the signing
 * certificate allowed to sign (keyUsage digitalSignature when present), and no critical extension
 * left unread. The A2A text names no `x5c`; this follows RFC 5280 §6 in the parts that apply.
 *
 * node:crypto's X509Certificate does the parsing and signature checks. The card layer is also
 * bundled into the console page (browser), so node:crypto is taken at run time, only when a chain
 * is checked, through `process.getBuiltinModule` rather than an import a bundler would follow.
 */
import type { KeyObject } from 'jose';
import { certificateExtensions, KEY_USAGE, UNDERSTOOD_CRITICAL } from './certificate-extensions.js';

/** The parts of node:crypto's X509Certificate used here. */
export interface X509 {
  readonly subject: string;
  readonly issuer: string;
  readonly validFrom: string;
  readonly validTo: string;
  readonly fingerprint256: string;
  readonly ca: boolean;
  readonly raw: Uint8Array;
  readonly publicKey: KeyObject;
  verify(publicKey: KeyObject): boolean;
  checkIssued(other: X509): boolean;
}

type X509Class = new (data: string | Uint8Array) => X509;

/** A chain that reached a configured root: the certificates from the signing one to the root. */
export interface TrustedChain {
  root: X509;
  path: X509[];
}

const MAX_CHAIN = 10;

/** node:crypto's X509Certificate, or undefined where there is no Node (the console's browser bundle). */
export function x509Class(): X509Class | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = host?.getBuiltinModule?.('node:crypto') as { X509Certificate?: X509Class } | undefined;
  return crypto?.X509Certificate;
}

/** A subject on one line: `CN=Root, O=Example` (node:crypto gives one attribute per line). */
export function subjectOf(certificate: X509): string {
  return certificate.subject.split('\n').filter(Boolean).reverse().join(', ');
}

/** Parses the configured root certificates (PEM, several per string allowed); throws an Error naming the bad one. */
export function parseRoots(pems: readonly string[]): X509[] {
  const X509Certificate = x509Class();
  if (X509Certificate === undefined) {
    throw new Error(
      'verifyAgentCard: options.roots needs node:crypto (Node.js 20.16 or later); certificate chains cannot be checked here',
    );
  }
  const roots: X509[] = [];
  pems.forEach((pem, index) => {
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0)
      throw new Error(`verifyAgentCard: options.roots[${index}] holds no PEM certificate`);
    for (const block of blocks) {
      try {
        roots.push(new X509Certificate(block));
      } catch (error) {
        throw new Error(
          `verifyAgentCard: options.roots[${index}] is not a readable certificate (${(error as Error).message})`,
          { cause: error },
        );
      }
    }
  });
  return roots;
}

/** The certificates of an `x5c` header member, or why it is not one (RFC 7515 §4.1.6). */
export function readX5c(x5c: unknown, X509Certificate: X509Class): X509[] | { malformed: string } {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((item) => typeof item === 'string')) {
    return { malformed: 'x5c is not a non-empty array of base64 certificates' };
  }
  if (x5c.length > MAX_CHAIN)
    return { malformed: `x5c has ${x5c.length} certificates (at most ${MAX_CHAIN})` };
  const out: X509[] = [];
  for (const [index, item] of (x5c as string[]).entries()) {
    try {
      // Standard base64 with padding, not base64url (RFC 7515 §4.1.6).
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(item)) throw new Error('not base64');
      out.push(new X509Certificate(Uint8Array.from(atob(item), (c) => c.charCodeAt(0))));
    } catch (error) {
      return { malformed: `x5c[${index}] is not a base64 DER certificate (${(error as Error).message})` };
    }
  }
  return out;
}

function dateOf(text: string): Date {
  return new Date(text);
}

/** Why `certificate` may not take part at `at`, or undefined. */
function unusable(certificate: X509, at: Date): string | undefined {
  const name = subjectOf(certificate);
  const from = dateOf(certificate.validFrom);
  const to = dateOf(certificate.validTo);
  if (at < from) return `certificate ${name} is not valid before ${from.toISOString()}`;
  if (at > to) return `certificate ${name} expired at ${to.toISOString()}`;
  let extensions;
  try {
    extensions = certificateExtensions(certificate.raw);
  } catch (error) {
    return `certificate ${name} has unreadable extensions (${(error as Error).message})`;
  }
  const unknown = extensions.critical.find((oid) => !UNDERSTOOD_CRITICAL.has(oid));
  if (unknown !== undefined)
    return `certificate ${name} has a critical extension ${unknown} this verifier does not process`;
  return undefined;
}

/** Why `issuer` may not have issued the certificate at `depth` (0 = the signing one), or undefined. */
function notAnIssuer(issuer: X509, depth: number): string | undefined {
  const name = subjectOf(issuer);
  if (!issuer.ca) return `certificate ${name} issues a certificate but is not a CA (basicConstraints)`;
  let extensions;
  try {
    extensions = certificateExtensions(issuer.raw);
  } catch (error) {
    return `certificate ${name} has unreadable extensions (${(error as Error).message})`;
  }
  if (extensions.keyUsage !== undefined && !extensions.keyUsage.has(KEY_USAGE.keyCertSign)) {
    return `certificate ${name} issues a certificate but its key usage lacks keyCertSign`;
  }
  // Intermediate CAs below this issuer: every certificate of the path between it and the signing one.
  if (extensions.pathLength !== undefined && depth > extensions.pathLength) {
    return `certificate ${name} allows ${extensions.pathLength} intermediate CA(s) below it, the chain has ${depth}`;
  }
  return undefined;
}

function issuedBy(certificate: X509, issuer: X509): boolean {
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}

function isRoot(certificate: X509, roots: readonly X509[]): X509 | undefined {
  return roots.find((root) => root.fingerprint256 === certificate.fingerprint256);
}

/**
 * Follows `chain` (the signing certificate first) to a configured root. A certificate that is
 * itself a configured root ends the chain (a pinned certificate); otherwise it must be issued by a
 * configured root or by the next certificate of the chain. Returns the trusted path, or why not.
 */
export function chainToRoot(
  chain: readonly X509[],
  roots: readonly X509[],
  at: Date,
): TrustedChain | { problem: string } {
  const leaf = chain[0] as X509;
  const problem = unusable(leaf, at);
  if (problem !== undefined) return { problem };
  const usage = certificateExtensions(leaf.raw).keyUsage;
  if (usage !== undefined && !usage.has(KEY_USAGE.digitalSignature)) {
    return { problem: `certificate ${subjectOf(leaf)} may not sign (its key usage lacks digitalSignature)` };
  }
  if (roots.length === 0) return { problem: 'no root certificate is configured' };
  const path: X509[] = [];
  for (let i = 0; i < chain.length; i++) {
    const certificate = chain[i] as X509;
    const problem = unusable(certificate, at);
    if (problem !== undefined) return { problem };
    path.push(certificate);
    const pinned = isRoot(certificate, roots);
    if (pinned !== undefined) return { root: pinned, path };
    const root = roots.find((candidate) => issuedBy(certificate, candidate));
    if (root !== undefined) {
      const refused = unusable(root, at) ?? notAnIssuer(root, i);
      if (refused !== undefined) return { problem: refused };
      return { root, path: [...path, root] };
    }
    const next = chain[i + 1];
    if (next === undefined) {
      const issuer = certificate.issuer.split('\n').filter(Boolean).reverse().join(', ');
      return {
        problem: `the chain ends at ${subjectOf(certificate)}, issued by ${issuer}, which is not a configured root`,
      };
    }
    if (!issuedBy(certificate, next)) {
      return {
        problem: `certificate ${subjectOf(certificate)} is not signed by the next one in x5c, ${subjectOf(next)}`,
      };
    }
    const refused = notAnIssuer(next, i);
    if (refused !== undefined) return { problem: refused };
  }
  return { problem: 'the chain does not reach a configured root' };
}
