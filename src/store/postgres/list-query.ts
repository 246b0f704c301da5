/**
 * ListTasks in SQL (A2A 1.0 §3.1.4). The optional filters give sixteen WHERE shapes; each one's
 * text is built once and run as a named (prepared) statement. The page and its totalSize come from
 * one statement, so they describe the same snapshot of the table.
 */
import type pg from 'pg';
import type { Task } from '../../protocol/model.js';
import type { ListPlan } from '../list-plan.js';
import { encodePageToken } from '../page-token.js';
import type { TaskPage } from '../task-store.js';
import type { Statement } from './database.js';
import { SPLIT_COLUMNS, wholeTask, type SplitColumns } from './split-rows.js';

/** Every history message of a listed split task (the largest `integer`). */
const MAX_HISTORY = 2 ** 31 - 1;

interface PageRow extends SplitColumns {
  total: number;
  /** Null (with the other page columns) when the page is empty. */
  id: string | null;
  status_ts: string | null;
  snapshot: Task | null;
}

const CONTEXT = 1;
const STATUS = 2;
const AFTER = 4;
const CURSOR = 8;

const texts = new Map<number, string>();

/** Runs a plan through `query` and shapes the page; see the file comment. */
export async function runListPlan(
  plan: ListPlan,
  query: (statement: Statement) => Promise<pg.QueryResult<PageRow>>,
): Promise<TaskPage> {
  const values: unknown[] = [plan.tenant, plan.owner];
  if (plan.contextId !== undefined) values.push(plan.contextId);
  if (plan.status !== undefined) values.push(plan.status);
  if (plan.afterKey !== undefined) values.push(plan.afterKey);
  if (plan.cursor !== undefined) values.push(plan.cursor.statusKey, plan.cursor.taskId);
  // One row more than the page tells whether another page follows.
  values.push(plan.pageSize + 1);
  const shape =
    (plan.contextId === undefined ? 0 : CONTEXT) |
    (plan.status === undefined ? 0 : STATUS) |
    (plan.afterKey === undefined ? 0 : AFTER) |
    (plan.cursor === undefined ? 0 : CURSOR);
  const { rows } = await query({ name: `concord-list-${shape}`, text: listText(shape), values });
  const totalSize = rows[0]?.total ?? 0;
  const found = rows.filter((row) => row.id !== null);
  const end = Math.min(found.length, plan.pageSize);
  const tasks: Task[] = [];
  for (let i = 0; i < end; i++) {
    const row = found[i]!;
    tasks.push(wholeTask({ snapshot: row.snapshot!, history: row.history, updates: row.updates }));
  }
  const last = found[end - 1];
  const nextPageToken =
    found.length > end && last !== undefined
      ? encodePageToken({ statusKey: last.status_ts!, taskId: last.id! })
      : '';
  return { tasks, nextPageToken, totalSize };
}

function listText(shape: number): string {
  let text = texts.get(shape);
  if (text === undefined) {
    const { filters, cursor, limit } = where(shape);
    // totalSize counts every match, not only those after the cursor (A2A 1.0 §3.1.4). The LEFT
    // JOIN keeps the count row when the page is empty.
    // A split task's rows come in the same statement (split-rows.ts), all of its history.
    text = `SELECT c.total, p.id, p.status_ts, p.snapshot, p.history, p.updates
      FROM (${countText(shape, filters)}) c
      LEFT JOIN LATERAL (
        SELECT id, status_ts, snapshot, ${SPLIT_COLUMNS.replace('$LIMIT', String(MAX_HISTORY))}
          FROM tasks t WHERE ${filters}${cursor}
         ORDER BY status_ts DESC, id DESC LIMIT ${limit}
      ) p ON true
      ORDER BY p.status_ts DESC, p.id DESC`;
    texts.set(shape, text);
  }
  return text;
}

/**
 * The totalSize subquery of a filter shape (decisions 0160, 0163). Without contextId the answer
 * comes from the trigger-kept counters of the caller's visible owners: without statusTimestampAfter
 * a sum of the per-state rows (schema 6); with it, a sum of the per-hour rows after the cutoff's
 * hour (schema 7) plus a count of the index within that hour alone. Counting every match instead
 * grew with the store: an old cutoff matched almost every task. A contextId count reads one
 * conversation's entries, bounded by the conversation, so it still counts the index.
 */
function countText(shape: number, filters: string): string {
  // The state, when filtered, is the third parameter, and the cutoff the one after (see `where`).
  const state = shape & STATUS ? ' AND state = $3' : '';
  if (shape & CONTEXT) return `SELECT count(*)::integer AS total FROM tasks WHERE ${filters}`;
  if (shape & AFTER) {
    // The cutoff's hour and the key just past it, as status-time.ts's statusHour and hourEnd.
    const hour = `left($${shape & STATUS ? 4 : 3}, 13)`;
    return `SELECT ((SELECT coalesce(sum(n), 0) FROM task_hours
                      WHERE tenant = $1 AND owner IN ('', $2) AND hour > ${hour}${state})
                  + (SELECT count(*) FROM tasks WHERE ${filters} AND status_ts < ${hour} || ';'))::integer AS total`;
  }
  return `SELECT coalesce(sum(n), 0)::integer AS total FROM task_counts WHERE tenant = $1 AND owner IN ('', $2)${state}`;
}

/** The WHERE terms of a shape; parameters are numbered tenant, owner, then the bits in order. */
function where(shape: number): { filters: string; cursor: string; limit: string } {
  // Visibility: same tenant, and anonymous or the caller's own (A2A 1.0 §13.1, §3.1.4).
  const terms = ['tenant = $1', "owner IN ('', $2)"];
  let n = 3;
  if (shape & CONTEXT) terms.push(`context_id = $${n++}`);
  if (shape & STATUS) terms.push(`state = $${n++}`);
  // Strictly after, compared as instants through the sortable key (status-time.ts).
  if (shape & AFTER) terms.push(`status_ts > $${n++}`);
  let cursor = '';
  if (shape & CURSOR) {
    // Keyset pagination: strictly after the last row of the previous page in (status_ts, id) order.
    cursor = ` AND (status_ts, id) < ($${n}::text, $${n + 1}::text)`;
    n += 2;
  }
  return { filters: terms.join(' AND '), cursor, limit: `$${n}` };
}
