/**
 * The SQLite EvidenceStore: evidence chains in the task store's own file and connection (schema
 * migration 3), exposed as `SqliteTaskStore.evidence`.
 *
 * Like approvals (sqlite-approval-store.ts), evidence is written at once, each append in its own
 * IMMEDIATE transaction, after the task commits parked in the write queue were flushed: an
 * acknowledged record survives a crash, and a record made after a task commit never reaches the
 * file without it. The chain's next number is read under the write lock, so of two appends at the
 * same number (in this process or another) exactly one is stored.
 */
import type Database from 'better-sqlite3';
import {
  checkNewEvidence,
  EvidenceSequenceError,
  type EvidenceRecord,
  type EvidenceStore,
  type NewEvidenceRecord,
} from '../evidence-store.js';

/** Options of the SQLite evidence store. */
export interface SqliteEvidenceStoreOptions {
  /** An open, migrated connection (schema version 3 or later), owned and closed by the caller. */
  db: Database.Database;
  /** Runs before every write; the task store passes its write-queue flush. */
  beforeWrite?: () => void;
}

interface Row {
  chain: string;
  seq: number;
  event: string;
  recorded_at: string;
}

/** An EvidenceStore on a SQLite connection; see the file comment. */
export class SqliteEvidenceStore implements EvidenceStore {
  private readonly db: Database.Database;
  private readonly beforeWrite: () => void;
  private readonly selectChain: Database.Statement<[chain: string], Row>;
  private readonly selectLast: Database.Statement<[chain: string], Row>;
  private readonly selectChains: Database.Statement<[], { chain: string }>;
  private readonly appendTx: Database.Transaction<(record: Required<NewEvidenceRecord>) => void>;

  constructor(options: SqliteEvidenceStoreOptions) {
    const { db } = options;
    this.db = db;
    this.beforeWrite = options.beforeWrite ?? (() => {});
    this.selectChain = db.prepare(
      'SELECT chain, seq, event, recorded_at FROM evidence_records WHERE chain = ? ORDER BY seq',
    );
    this.selectLast = db.prepare(
      'SELECT chain, seq, event, recorded_at FROM evidence_records WHERE chain = ? ORDER BY seq DESC LIMIT 1',
    );
    this.selectChains = db.prepare('SELECT DISTINCT chain FROM evidence_records ORDER BY chain');
    const insert = db.prepare<[string, number, string, string]>(
      'INSERT INTO evidence_records (chain, seq, event, recorded_at) VALUES (?, ?, ?, ?)',
    );
    this.appendTx = db.transaction((record: Required<NewEvidenceRecord>) => {
      const next = (this.selectLast.get(record.chain)?.seq ?? 0) + 1;
      if (record.sequence !== next) throw new EvidenceSequenceError(record.chain, record.sequence, next);
      insert.run(record.chain, record.sequence, JSON.stringify(record.event), record.recordedAt);
    });
  }

  append(record: NewEvidenceRecord): Promise<EvidenceRecord> {
    return this.attempt(() => {
      const checked = checkNewEvidence(record);
      this.beforeWrite();
      // IMMEDIATE: the write lock is taken before the next number is read (see the file comment).
      this.appendTx.immediate(checked);
      return Object.assign({}, checked, {
        event: JSON.parse(JSON.stringify(checked.event)) as Record<string, unknown>,
      });
    });
  }

  read(chain: string): Promise<EvidenceRecord[]> {
    return this.attempt(() => this.selectChain.all(chain).map(toRecord));
  }

  last(chain: string): Promise<EvidenceRecord | undefined> {
    return this.attempt(() => {
      const row = this.selectLast.get(chain);
      return row === undefined ? undefined : toRecord(row);
    });
  }

  chains(): Promise<string[]> {
    return this.attempt(() => this.selectChains.all().map((row) => row.chain));
  }

  /** better-sqlite3 is synchronous; this turns its throws into rejections, as the port promises. */
  private attempt<T>(work: () => T): Promise<T> {
    if (!this.db.open)
      return Promise.reject(new Error('evidence store is closed (its task store was closed)'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function toRecord(row: Row): EvidenceRecord {
  return {
    chain: row.chain,
    sequence: row.seq,
    event: JSON.parse(row.event) as Record<string, unknown>,
    recordedAt: row.recorded_at,
  };
}
