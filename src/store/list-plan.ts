/**
 * The store-neutral reading of a TaskQuery: filters turned into sortable keys and the page token
 * into a cursor, so every store applies exactly the same ListTasks rules (A2A 1.0 §3.1.4,
 * conformance rules 26-27 in src/check/rules.ts).
 */
import { invalidParams } from '../protocol/errors.js';
import type { TaskState } from '../protocol/model.js';
import { decodePageToken, type ListCursor } from './page-token.js';
import { statusTimeKey } from './status-time.js';
import type { TaskQuery } from './task-store.js';

/** A validated list query, ready to run. */
export interface ListPlan {
  tenant: string;
  /** Tasks with owner `''` or this owner are visible. */
  owner: string;
  contextId: string | undefined;
  status: TaskState | undefined;
  /** Keep tasks whose status key is strictly greater than this. */
  afterKey: string | undefined;
  /** Start strictly after this position; absent on the first page. */
  cursor: ListCursor | undefined;
  pageSize: number;
}

/** Validates and normalises a query; throws InvalidParams naming the bad field. */
export function planList(query: TaskQuery): ListPlan {
  const { pageSize } = query;
  // The caller enforces 1-100 (A2A 1.0 §3.1.4); the store only refuses what it cannot run.
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw invalidParams('/pageSize', `must be a positive integer, got ${String(pageSize)}`);
  }
  let afterKey: string | undefined;
  if (query.statusTimestampAfter !== undefined) {
    afterKey = statusTimeKey(query.statusTimestampAfter);
    if (afterKey === undefined) {
      throw invalidParams(
        '/statusTimestampAfter',
        `expected an RFC 3339 timestamp, got ${query.statusTimestampAfter}`,
      );
    }
  }
  return {
    tenant: query.tenant,
    owner: query.owner,
    contextId: query.contextId,
    status: query.status,
    afterKey,
    // An empty token is the first page: the 1.0 proto's default for an unset string.
    cursor:
      query.pageToken === undefined || query.pageToken === '' ? undefined : decodePageToken(query.pageToken),
    pageSize,
  };
}

/** True when (statusKey, taskId) sorts after the cursor in list order (older, or same time and lower id). */
export function isAfterCursor(statusKey: string, taskId: string, cursor: ListCursor): boolean {
  return statusKey < cursor.statusKey || (statusKey === cursor.statusKey && taskId < cursor.taskId);
}
