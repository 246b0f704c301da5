/**
 * Finds the contract envelope `{_a2a: true, contract, payload, correlationId?}` (seed "Sending
 * structured messages") in an A2A message. It may travel three ways (decision 0016): as a text
 * part holding its JSON (the seed's only form), as a data part whose data is the envelope, or as a
 * data part with media type `application/vnd.concord.contract+json` (where the media type is the
 * marker, so `_a2a` may be left out).
 */
import { pointer, type Message, type Part } from '../protocol/internal.js';
import { CONTRACT_MEDIA_TYPE, type StructuredMessage } from './contract-types.js';

/** A part that was meant as an envelope but is not a well-formed one. */
export interface MalformedEnvelope {
  partIndex: number;
  /** JSON Pointer within the request, e.g. `/message/parts/0/data/contract`. */
  field: string;
  reason: string;
}

/** What a scan of a message's parts found. */
export type EnvelopeScan =
  | { kind: 'none' }
  | { kind: 'found'; structured: StructuredMessage; second?: number }
  | { kind: 'malformed'; problem: MalformedEnvelope };

const NONE: EnvelopeScan = Object.freeze({ kind: 'none' });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the text's first non-blank character is `{`: only then can it be an envelope. */
function looksLikeObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

type Candidate = { structured: StructuredMessage } | { malformed: MalformedEnvelope } | undefined;

/**
 * Reads one candidate envelope. Once the sender has declared it one (`_a2a: true`, or the media
 * type when `byMediaType`), a defect is reported instead of the part passing as ordinary content.
 */
function readEnvelope(
  value: Record<string, unknown>,
  partIndex: number,
  carrier: 'text' | 'data',
  byMediaType: boolean,
): Candidate {
  const marker = value._a2a;
  if (marker !== true && !(byMediaType && marker === undefined)) {
    if (!byMediaType) return undefined;
    return malformed(partIndex, carrier, '_a2a', `must be true, got ${JSON.stringify(marker)}`);
  }
  const contract = value.contract;
  if (typeof contract !== 'string' || contract === '') {
    const got = contract === undefined ? 'nothing' : JSON.stringify(contract);
    return malformed(
      partIndex,
      carrier,
      'contract',
      `must be a contract name (a non-empty string), got ${got}`,
    );
  }
  if (!('payload' in value)) return malformed(partIndex, carrier, 'payload', 'is required');
  const correlationId = value.correlationId;
  if (correlationId !== undefined && correlationId !== null && typeof correlationId !== 'string') {
    return malformed(
      partIndex,
      carrier,
      'correlationId',
      `must be a string, got ${JSON.stringify(correlationId)}`,
    );
  }
  const structured: StructuredMessage = { contract, payload: value.payload, partIndex, carrier };
  // The seed omits a falsy correlation id (`createA2AMessage`); '' and null carry nothing.
  if (typeof correlationId === 'string' && correlationId !== '') structured.correlationId = correlationId;
  return { structured };
}

function malformed(partIndex: number, carrier: 'text' | 'data', key: string, reason: string): Candidate {
  const base = `/message/parts/${partIndex}`;
  if (carrier === 'text') {
    // A text part has no pointer into its JSON; the description names the envelope member.
    return { malformed: { partIndex, field: `${base}/text`, reason: `the envelope's "${key}" ${reason}` } };
  }
  const field = key === '' ? `${base}/data` : pointer(`${base}/data`, key);
  return { malformed: { partIndex, field, reason } };
}

function candidate(part: Part, partIndex: number): Candidate {
  if (typeof part.text === 'string') {
    if (!looksLikeObject(part.text)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(part.text);
    } catch {
      return undefined; // prose that starts with a brace is free text (seed parseA2AMessage)
    }
    return isRecord(parsed) ? readEnvelope(parsed, partIndex, 'text', false) : undefined;
  }
  if (part.data === undefined) return undefined;
  const byMediaType = part.mediaType === CONTRACT_MEDIA_TYPE;
  if (!isRecord(part.data)) {
    return byMediaType ? malformed(partIndex, 'data', '', 'must be a contract envelope object') : undefined;
  }
  return readEnvelope(part.data, partIndex, 'data', byMediaType);
}

/** Scans every part: the first envelope, any defect of a declared one, and a second envelope. */
export function scanEnvelopes(message: Message): EnvelopeScan {
  const parts = message.parts;
  let found: { kind: 'found'; structured: StructuredMessage; second?: number } | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const result = candidate(part, i);
    if (result === undefined) continue;
    if ('malformed' in result) return { kind: 'malformed', problem: result.malformed };
    if (found) {
      found.second = i;
      return found;
    }
    found = { kind: 'found', structured: result.structured };
  }
  return found ?? NONE;
}

/**
 * The contract envelope of a message, or undefined when it carries none (or a malformed one).
 * Never throws; the seed's `parseA2AMessage` applied to each part, first match wins.
 */
export function parseStructuredMessage(message: Message): StructuredMessage | undefined {
  const scan = scanEnvelopes(message);
  return scan.kind === 'found' ? scan.structured : undefined;
}
