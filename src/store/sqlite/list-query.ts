/**
 * ListTasks in SQL (A2A 1.0 §3.1.4). The optional filters give sixteen WHERE shapes; each is
 * prepared the first time it is used and kept. The page and its totalSize are read in one read
 * transaction so they describe the same state of the table.
 */
import type Database from 'better-sqlite3';
import type { Task } from '../../protocol/model.js';
import type { ListPlan } from '../list-plan.js';
import { encodePageToken } from '../page-token.js';
import { hourEnd, statusHour } from '../status-time.js';
import type { TaskPage } from '../task-store.js';
import type { TaskParts } from './task-parts.js';

interface PageRow {
  id: string;
  status_ts: string;
  snapshot: string;
  /** Set once the task is split into rows (task-parts.ts). */
  history_rows: number | null;
}

const CONTEXT = 1;
const STATUS = 2;
const AFTER = 4;
const CURSOR = 8;

/** Runs ListPlans against one connection. */
export class ListQuery {
  private readonly pages = new Map<number, Database.Statement<unknown[], PageRow>>();
  private readonly counts = new Map<number, Database.Statement<unknown[], number>>();
  private readonly read: Database.Transaction<(plan: ListPlan) => TaskPage>;

  constructor(
    private readonly db: Database.Database,
    private readonly parts: TaskParts,
  ) {
    this.read = db.transaction((plan: ListPlan) => this.run(plan));
  }

  /** One page of tasks, newest status first, with the cursor to the next page. */
  page(plan: ListPlan): TaskPage {
    // DEFERRED: a read transaction, which never waits for the write lock.
    return this.read.deferred(plan);
  }

  private run(plan: ListPlan): TaskPage {
    const filters =
      (plan.contextId === undefined ? 0 : CONTEXT) |
      (plan.status === undefined ? 0 : STATUS) |
      (plan.afterKey === undefined ? 0 : AFTER);
    const shape = filters | (plan.cursor === undefined ? 0 : CURSOR);
    const params: unknown[] = [plan.tenant, plan.owner];
    if (plan.contextId !== undefined) params.push(plan.contextId);
    if (plan.status !== undefined) params.push(plan.status);
    if (plan.afterKey !== undefined) params.push(plan.afterKey);
    // totalSize counts every match, not only those after the cursor (A2A 1.0 §3.1.4).
    const totalSize = this.countStatement(filters).get(...countParams(filters, params, plan.afterKey)) ?? 0;
    const pageParams =
      plan.cursor === undefined ? params : [...params, plan.cursor.statusKey, plan.cursor.taskId];
    // One row more than the page tells whether another page follows.
    const rows = this.pageStatement(shape).all(...pageParams, plan.pageSize + 1);
    const end = Math.min(rows.length, plan.pageSize);
    const tasks: Task[] = [];
    for (let i = 0; i < end; i++) {
      const row = rows[i]!;
      tasks.push(this.parts.taskOf(row.id, row.snapshot, row.history_rows));
    }
    const last = rows[end - 1];
    const nextPageToken =
      rows.length > end && last !== undefined
        ? encodePageToken({ statusKey: last.status_ts, taskId: last.id })
        : '';
    return { tasks, nextPageToken, totalSize };
  }

  private pageStatement(shape: number): Database.Statement<unknown[], PageRow> {
    let statement = this.pages.get(shape);
    if (statement === undefined) {
      statement = this.db.prepare<unknown[], PageRow>(
        `SELECT id, status_ts, snapshot, history_rows FROM tasks WHERE ${where(shape)} ORDER BY status_ts DESC, id DESC LIMIT ?`,
      );
      this.pages.set(shape, statement);
    }
    return statement;
  }

  private countStatement(shape: number): Database.Statement<unknown[], number> {
    let statement = this.counts.get(shape);
    if (statement === undefined) {
      statement = this.db.prepare<unknown[], number>(countSql(shape)).pluck();
      this.counts.set(shape, statement);
    }
    return statement;
  }
}

/**
 * The totalSize query of a filter shape (decisions 0160, 0163). Without contextId the answer comes
 * from the trigger-kept counters of the caller's visible owners: without statusTimestampAfter a sum
 * of a few per-state rows (schema 12); with it, a sum of the per-hour rows after the cutoff's hour
 * (schema 13) plus a count of the index within that hour alone. Counting every match instead grew
 * with the store: an old cutoff matched almost every task. A contextId count reads one
 * conversation's entries, bounded by the conversation, so it still counts the index.
 */
function countSql(shape: number): string {
  const state = shape & STATUS ? ' AND state = ?' : '';
  if (shape & CONTEXT) return `SELECT count(*) FROM tasks WHERE ${where(shape)}`;
  if (shape & AFTER) {
    return `SELECT (SELECT coalesce(sum(n), 0) FROM task_hours
                     WHERE tenant = ? AND owner IN ('', ?) AND hour > ?${state})
                 + (SELECT count(*) FROM tasks WHERE ${where(shape)} AND status_ts < ?)`;
  }
  return `SELECT coalesce(sum(n), 0) FROM task_counts WHERE tenant = ? AND owner IN ('', ?)${state}`;
}

/**
 * The parameters of `countSql(shape)`, given the page's (tenant, owner, then the filters in order):
 * with statusTimestampAfter and no contextId, the hours' sum takes tenant, owner, the cutoff's hour
 * and the state, then the index count the page's parameters and the end of the cutoff's hour.
 */
function countParams(shape: number, params: unknown[], afterKey: string | undefined): unknown[] {
  if (shape & CONTEXT || afterKey === undefined) return params;
  const hour = statusHour(afterKey);
  const hours = shape & STATUS ? [params[0], params[1], hour, params[2]] : [params[0], params[1], hour];
  return [...hours, ...params, hourEnd(hour)];
}

/** The WHERE clause of a shape; parameters go in the order tenant, owner, then the bits in order. */
function where(shape: number): string {
  // Visibility: same tenant, and anonymous or the caller's own (A2A 1.0 §13.1, §3.1.4).
  const terms = ['tenant = ?', "owner IN ('', ?)"];
  if (shape & CONTEXT) terms.push('context_id = ?');
  if (shape & STATUS) terms.push('state = ?');
  // Strictly after, compared as instants through the sortable key (status-time.ts).
  if (shape & AFTER) terms.push('status_ts > ?');
  // Keyset pagination: strictly after the last row of the previous page in (status_ts, id) order.
  if (shape & CURSOR) terms.push('(status_ts, id) < (?, ?)');
  return terms.join(' AND ');
}
