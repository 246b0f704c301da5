/**
 * The in-memory EvidenceStore, for tests, examples and the in-memory TaskStore (which exposes one
 * as `evidence`). Appends are checked and applied in one synchronous step, so of two appends at
 * the same sequence number exactly one wins. Records are copied in and out: what the caller keeps
 * or changes afterwards never alters the chain.
 */
import {
  checkNewEvidence,
  EvidenceSequenceError,
  type EvidenceRecord,
  type EvidenceStore,
  type NewEvidenceRecord,
} from '../evidence-store.js';

/** An EvidenceStore in process memory; see the file comment. */
export class MemoryEvidenceStore implements EvidenceStore {
  private readonly byChain = new Map<string, EvidenceRecord[]>();
  private closed = false;

  append(record: NewEvidenceRecord): Promise<EvidenceRecord> {
    return this.attempt(() => {
      const checked = checkNewEvidence(record);
      const chain = this.byChain.get(checked.chain) ?? [];
      const next = chain.length + 1;
      if (checked.sequence !== next) throw new EvidenceSequenceError(checked.chain, checked.sequence, next);
      const stored: EvidenceRecord = Object.assign({}, checked, { event: structuredClone(checked.event) });
      chain.push(stored);
      this.byChain.set(checked.chain, chain);
      return copy(stored);
    });
  }

  read(chain: string): Promise<EvidenceRecord[]> {
    return this.attempt(() => (this.byChain.get(chain) ?? []).map(copy));
  }

  last(chain: string): Promise<EvidenceRecord | undefined> {
    return this.attempt(() => {
      const records = this.byChain.get(chain);
      const last = records?.[records.length - 1];
      return last === undefined ? undefined : copy(last);
    });
  }

  chains(): Promise<string[]> {
    return this.attempt(() => [...this.byChain.keys()].sort());
  }

  /** Refuses every further call, as a closed durable store would; the in-memory TaskStore calls it. */
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** Runs `work` unless closed, turning throws into rejections, as the port promises. */
  private attempt<T>(work: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('evidence store is closed'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function copy(record: EvidenceRecord): EvidenceRecord {
  return Object.assign({}, record, { event: structuredClone(record.event) });
}

/** Creates an empty in-memory EvidenceStore. */
export function createMemoryEvidenceStore(): MemoryEvidenceStore {
  return new MemoryEvidenceStore();
}
