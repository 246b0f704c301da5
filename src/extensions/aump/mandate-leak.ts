/**
 * The privacy rule (seed "Privacy Rule": A2A messages must not embed the full private mandate),
 * checked everywhere a message can carry data, not only where the reference goes: the message's
 * metadata, every part's metadata, data parts, nested objects and arrays at any depth, JSON text in
 * text parts, and the request's metadata. An embedded mandate is recognised as
 *
 * - a `mandate` member (object, or JSON text of one) anywhere inside AUMP-scoped data: the
 *   extension's metadata key, or any key naming AUMP (`aump`, `aump_*`, the AUMP domain) — the
 *   conformance suite's invalid fixture is exactly this;
 * - anywhere at all, an object that is a mandate document: `aump.type: "mandate"`, or an
 *   `aump_mnd_` id with private sections beside it, or three of the private sections (authority,
 *   preferences, negotiation, disclosure, escalation) together.
 *
 * Each finding is the JSON Pointer of the embedded object (decision 0056).
 */
import type { Message, Metadata } from '../../protocol/index.js';
import { AUMP_A2A_EXTENSION_URI } from './constants.js';

const PRIVATE_SECTIONS = ['authority', 'preferences', 'negotiation', 'disclosure', 'escalation'];
const MANDATE_SECTIONS = [...PRIVATE_SECTIONS, 'principal', 'purpose', 'evidence'];
/** Deeper than any honest payload; stops a hostile one from exhausting the stack. */
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function token(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isAumpKey(key: string): boolean {
  return (
    key === AUMP_A2A_EXTENSION_URI ||
    key === 'aump' ||
    key.startsWith('aump_') ||
    key.includes('agentic-user-mandate-protocol')
  );
}

/** Whether `value` is a mandate document (or enough of one to be private); see the file comment. */
export function looksLikeMandate(value: Record<string, unknown>): boolean {
  const header = value.aump;
  if (isObject(header) && header.type === 'mandate') return true;
  const present = (names: string[]): number => names.filter((name) => isObject(value[name])).length;
  if (typeof value.id === 'string' && value.id.startsWith('aump_mnd_') && present(MANDATE_SECTIONS) >= 1) {
    return true;
  }
  return present(PRIVATE_SECTIONS) >= 3;
}

/** JSON text that might hold an object: parsed only when it could be one. */
function parsedObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (trimmed.length < 2 || trimmed[0] !== '{' || trimmed[trimmed.length - 1] !== '}') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function scan(value: unknown, path: string, scoped: boolean, depth: number, found: string[]): void {
  if (depth > MAX_DEPTH) {
    found.push(path);
    return;
  }
  if (typeof value === 'string') {
    const inner = parsedObject(value);
    if (inner !== undefined) scan(inner, path, scoped, depth + 1, found);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => scan(item, `${path}/${index}`, scoped, depth + 1, found));
    return;
  }
  if (!isObject(value)) return;
  if (looksLikeMandate(value)) {
    found.push(path);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}/${token(key)}`;
    if (
      scoped &&
      key === 'mandate' &&
      (isObject(child) || (typeof child === 'string' && parsedObject(child)))
    ) {
      found.push(at);
      continue;
    }
    scan(child, at, scoped || isAumpKey(key), depth + 1, found);
  }
}

/** Pointers of every embedded mandate in `message` (and `requestMetadata`); `[]` when none. */
export function findEmbeddedMandates(message: Partial<Message>, requestMetadata?: Metadata): string[] {
  const found: string[] = [];
  if (message.metadata !== undefined) scan(message.metadata, '/message/metadata', false, 0, found);
  (Array.isArray(message.parts) ? message.parts : []).forEach((part, index) => {
    if (!isObject(part)) return;
    const at = `/message/parts/${index}`;
    if (part.metadata !== undefined) scan(part.metadata, `${at}/metadata`, false, 0, found);
    if (part.data !== undefined) scan(part.data, `${at}/data`, false, 0, found);
    if (typeof part.text === 'string') scan(part.text, `${at}/text`, false, 0, found);
  });
  if (requestMetadata !== undefined) scan(requestMetadata, '/metadata', false, 0, found);
  return found;
}
