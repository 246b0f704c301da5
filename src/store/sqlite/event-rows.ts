/**
 * The row format of the SQLite event log (schema 8; docs/performance.md, 'Fewer B-trees per
 * commit'): one row per commit, keyed by the commit's last sequence number, holding its events as a
 * JSON array, or as the bare event when there is one (which is also how every row written before
 * schema 8 reads). One row per commit instead of one per event is a B-tree insert per commit,
 * whatever the number of events.
 */
import type { StreamResponse } from '../../protocol/model.js';
import type { TaskEventRecord } from '../task-store.js';

/** One row of `task_events`. */
export interface EventRow {
  last_seq: number;
  events: string;
}

/** The `events` column of a commit whose events were serialised one by one. */
export function encodeEventRow(events: readonly string[]): string {
  return events.length === 1 ? events[0]! : `[${events.join(',')}]`;
}

/**
 * The events after `afterSeq` of rows read in `last_seq` order, each row's events numbered back
 * from its last one; with `limit`, the rows up to the one that brings the events to `limit` (so a
 * page holds whole rows). A StreamResponse is always an object, so an array can only be a commit's
 * list.
 */
export function decodeEventRows(
  rows: readonly EventRow[],
  afterSeq: number,
  limit?: number,
): TaskEventRecord[] {
  const records: TaskEventRecord[] = [];
  for (const row of rows) {
    if (limit !== undefined && records.length >= limit) break;
    const parsed = JSON.parse(row.events) as StreamResponse | StreamResponse[];
    if (!Array.isArray(parsed)) {
      records.push({ seq: row.last_seq, event: parsed });
      continue;
    }
    const first = row.last_seq - parsed.length + 1;
    for (let i = Math.max(0, afterSeq + 1 - first); i < parsed.length; i++) {
      records.push({ seq: first + i, event: parsed[i]! });
    }
  }
  return records;
}
