/**
 * The PostgreSQL EvidenceStore: evidence chains in the task store's database, exposed as
 * `PostgresTaskStore.evidence`. An append inserts only when its number is the chain's next, and
 * the primary key (chain, seq) settles a race: of two appends at the same number on any instances,
 * the second waits for the first, finds the key taken and inserts nothing.
 */
import type pg from 'pg';
import {
  checkNewEvidence,
  EvidenceSequenceError,
  type EvidenceRecord,
  type EvidenceStore,
  type NewEvidenceRecord,
} from '../evidence-store.js';
import type { Database } from './database.js';

const CLOSED = 'evidence store is closed (its task store was closed)';

interface Row {
  chain: string;
  seq: number;
  event: Record<string, unknown>;
  recorded_at: string;
}

/** An EvidenceStore on a PostgreSQL pool; see the file comment. */
export class PostgresEvidenceStore implements EvidenceStore {
  constructor(private readonly db: Database) {}

  async append(record: NewEvidenceRecord): Promise<EvidenceRecord> {
    const checked = checkNewEvidence(record);
    const eventJson = JSON.stringify(checked.event);
    const { rowCount } = await this.query(
      `INSERT INTO evidence_records (chain, seq, event, recorded_at)
       SELECT $1, $2, $3::json, $4
        WHERE coalesce((SELECT max(seq) FROM evidence_records WHERE chain = $1), 0) + 1 = $2
       ON CONFLICT (chain, seq) DO NOTHING`,
      [checked.chain, checked.sequence, eventJson, checked.recordedAt],
    );
    if (rowCount === 0) {
      const last = await this.last(checked.chain);
      throw new EvidenceSequenceError(checked.chain, checked.sequence, (last?.sequence ?? 0) + 1);
    }
    return Object.assign({}, checked, { event: JSON.parse(eventJson) as Record<string, unknown> });
  }

  async read(chain: string): Promise<EvidenceRecord[]> {
    const { rows } = await this.query<Row>(
      'SELECT chain, seq, event, recorded_at FROM evidence_records WHERE chain = $1 ORDER BY seq',
      [chain],
    );
    return rows.map(toRecord);
  }

  async last(chain: string): Promise<EvidenceRecord | undefined> {
    const { rows } = await this.query<Row>(
      'SELECT chain, seq, event, recorded_at FROM evidence_records WHERE chain = $1 ORDER BY seq DESC LIMIT 1',
      [chain],
    );
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  async chains(): Promise<string[]> {
    const { rows } = await this.query<{ chain: string }>(
      'SELECT DISTINCT chain FROM evidence_records ORDER BY chain',
    );
    return rows.map((row) => row.chain);
  }

  private query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    return this.db.query<R>({ text, values }, CLOSED);
  }
}

function toRecord(row: Row): EvidenceRecord {
  return { chain: row.chain, sequence: row.seq, event: row.event, recordedAt: row.recorded_at };
}
