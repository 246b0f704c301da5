/**
 * Reads the X.509 extensions that decide whether a certificate may sign a card or issue another
 * certificate (RFC 5280 §4.2.1.3 key usage, §4.2.1.9 basic constraints), which node:crypto's
 * X509Certificate does not expose (its `keyUsage` is the extended key usage, and `ca` leaves out
 * the path length). A small DER walk over `raw`: Certificate → TBSCertificate → [3] Extensions.
 */

/** What a certificate's extensions allow. */
export interface CertificateExtensions {
  /** Key usage bits (bit 0 digitalSignature ... bit 8 decipherOnly); undefined when absent. */
  keyUsage?: Set<number>;
  /** basicConstraints pathLenConstraint, when present. */
  pathLength?: number;
  /** OIDs of critical extensions, dotted. */
  critical: string[];
}

/** Key usage bits used here (RFC 5280 §4.2.1.3). */
export const KEY_USAGE = { digitalSignature: 0, keyCertSign: 5 } as const;

/** Critical extensions this verifier understands; any other critical one makes the chain refused. */
export const UNDERSTOOD_CRITICAL = new Set([
  '2.5.29.15', // keyUsage
  '2.5.29.19', // basicConstraints (cA through node:crypto's `ca`, pathLen here)
  '2.5.29.37', // extKeyUsage (no EKU is defined for JWS, so none is required)
  '2.5.29.17', // subjectAltName (no name is matched)
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
]);

interface Node {
  tag: number;
  start: number; // first content byte
  end: number; // one past the last content byte
}

function readNode(der: Uint8Array, at: number, limit: number): Node {
  if (at + 2 > limit) throw new Error('truncated DER');
  const tag = der[at] as number;
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte DER tags are not used in certificates');
  let length = der[at + 1] as number;
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > limit) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number);
    start += count;
  }
  const end = start + length;
  if (end > limit) throw new Error('DER value runs past its container');
  return { tag, start, end };
}

function children(der: Uint8Array, parent: Node): Node[] {
  const out: Node[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = readNode(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

function oidOf(der: Uint8Array, node: Node): string {
  const bytes = der.subarray(node.start, node.end);
  if (bytes.length === 0) throw new Error('empty OID');
  const first = bytes[0] as number;
  const parts = [Math.min(2, Math.floor(first / 40)), first - Math.min(2, Math.floor(first / 40)) * 40];
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function keyUsageOf(der: Uint8Array, value: Node): Set<number> {
  const bits = readNode(der, value.start, value.end);
  if (bits.tag !== 0x03 || bits.end - bits.start < 1) throw new Error('keyUsage is not a BIT STRING');
  const set = new Set<number>();
  for (let i = bits.start + 1; i < bits.end; i++) {
    const byte = der[i] as number;
    for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) set.add((i - bits.start - 1) * 8 + bit);
  }
  return set;
}

function pathLengthOf(der: Uint8Array, value: Node): number | undefined {
  const sequence = readNode(der, value.start, value.end);
  const integer = children(der, sequence).find((node) => node.tag === 0x02);
  if (integer === undefined) return undefined;
  let n = 0;
  for (let i = integer.start; i < integer.end; i++) n = n * 256 + (der[i] as number);
  return n;
}

/** The extensions of a DER certificate; throws an Error when the DER is not a certificate. */
export function certificateExtensions(der: Uint8Array): CertificateExtensions {
  const certificate = readNode(der, 0, der.length);
  const [tbs] = children(der, certificate);
  if (certificate.tag !== 0x30 || tbs?.tag !== 0x30) throw new Error('not a DER certificate');
  const out: CertificateExtensions = { critical: [] };
  const wrapper = children(der, tbs).find((node) => node.tag === 0xa3);
  if (wrapper === undefined) return out;
  const [list] = children(der, wrapper);
  if (list === undefined) return out;
  for (const extension of children(der, list)) {
    const parts = children(der, extension);
    const [id, second] = parts;
    if (id?.tag !== 0x06) throw new Error('an extension has no OID');
    const critical = second?.tag === 0x01 && der[second.start] !== 0;
    const value = parts.find((node) => node.tag === 0x04);
    if (value === undefined) throw new Error('an extension has no value');
    const oid = oidOf(der, id);
    if (critical) out.critical.push(oid);
    if (oid === '2.5.29.15') out.keyUsage = keyUsageOf(der, value);
    if (oid === '2.5.29.19') {
      const length = pathLengthOf(der, value);
      if (length !== undefined) out.pathLength = length;
    }
  }
  return out;
}
