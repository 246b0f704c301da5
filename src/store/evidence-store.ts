/**
 * The EvidenceStore port: append-only chains of evidence records (the AUMP
 * extension's evidence events, decisions 0055 and 0057). A chain is named by the caller (AUMP uses the
 * mandate id) and numbered from 1 without gaps; an append names the sequence number it expects to
 * take, so two writers can never both extend the same chain from the same point. The store keeps
 * the record's JSON as given: what an event means, and how chains are hash-linked and verified, is
 * the extension's business. Stores that persist tasks durably keep evidence in the same place.
 */

/** One stored record of a chain. */
export interface EvidenceRecord {
  /** The chain's name (the AUMP extension uses the mandate id). */
  chain: string;
  /** 1 for the first record of a chain, then one more for each. */
  sequence: number;
  /** The record's content, a JSON object kept exactly as appended. */
  event: Record<string, unknown>;
  /** When the store accepted the record (RFC 3339). */
  recordedAt: string;
}

/** What `append` takes; `recordedAt` defaults to the time of the call. */
export type NewEvidenceRecord = Omit<EvidenceRecord, 'recordedAt'> & { recordedAt?: string };

/** Thrown by `append` when `sequence` is not the chain's next number (someone else appended first). */
export class EvidenceSequenceError extends Error {
  constructor(
    readonly chain: string,
    /** The number the append asked for. */
    readonly sequence: number,
    /** The number the chain's next record must have. */
    readonly expected: number,
  ) {
    super(`evidence chain ${chain}: record ${sequence} cannot be appended, the next is ${expected}`);
    this.name = 'EvidenceSequenceError';
  }
}

/** Persistence of evidence chains; records are never changed or removed through this port. */
export interface EvidenceStore {
  /**
   * Appends one record, atomically and durably before the promise resolves. `sequence` must be
   * one more than the chain's last (1 for a new chain); otherwise EvidenceSequenceError.
   */
  append(record: NewEvidenceRecord): Promise<EvidenceRecord>;
  /** The whole chain in sequence order; `[]` for an unknown chain. */
  read(chain: string): Promise<EvidenceRecord[]>;
  /** The chain's last record, or undefined when it has none. */
  last(chain: string): Promise<EvidenceRecord | undefined>;
  /** The names of every chain with at least one record, sorted. */
  chains(): Promise<string[]>;
}

/** Refuses a record the port cannot store; the message names the field. */
export function checkNewEvidence(record: NewEvidenceRecord): Required<NewEvidenceRecord> {
  if (typeof record.chain !== 'string' || record.chain === '') {
    throw new TypeError('evidence record: chain must be a non-empty string');
  }
  if (!Number.isSafeInteger(record.sequence) || record.sequence < 1) {
    throw new TypeError(`evidence record: sequence must be an integer >= 1, got ${String(record.sequence)}`);
  }
  const event: unknown = record.event;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new TypeError('evidence record: event must be a JSON object');
  }
  const recordedAt = record.recordedAt ?? new Date().toISOString();
  if (Number.isNaN(Date.parse(recordedAt))) {
    throw new TypeError(`evidence record: recordedAt is not a date-time: ${recordedAt}`);
  }
  return { chain: record.chain, sequence: record.sequence, event: record.event, recordedAt };
}
