/**
 * ListTasks in SQL (A2A 1.0 §3.1.4). The optional filters give sixteen WHERE shapes; each is
 * prepared the first time it is used and kept. The page and its totalSize are read in one read
 * transaction so they describe the same state of the table.
 */
import type Database from 'better-sqlite3';
import type { Task } from '../../protocol/model.js';
import type { ListPlan } from '../list-plan.js';
import { encodePageToken } from '../page-token.js';
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
    const totalSize = this.countStatement(filters).get(...params) ?? 0;
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
 * The totalSize query of a filter shape (decision 0160). Without contextId or statusTimestampAfter
 * the answer is a sum over the trigger-kept counters of the caller's visible owners (schema 12):
 * a few rows at any size, where counting the index range grew with every task kept. A contextId
 * count reads one conversation's entries and a statusTimestampAfter count the tasks that changed
 * since then, so both still count the index (exact, and cheap for the usual recent cutoff).
 */
function countSql(shape: number): string {
  if ((shape & (CONTEXT | AFTER)) === 0) {
    const state = shape & STATUS ? ' AND state = ?' : '';
    return `SELECT coalesce(sum(n), 0) FROM task_counts WHERE tenant = ? AND owner IN ('', ?)${state}`;
  }
  return `SELECT count(*) FROM tasks WHERE ${where(shape)}`;
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
