/** Public entry `concord-a2a/store/sqlite`: the embedded SQLite TaskStore. */
import type { TaskStore } from '../task-store.js';
import { SqliteTaskStore, type SqliteTaskStoreOptions } from './sqlite-task-store.js';

export { SqliteTaskStore, type SqliteTaskStoreOptions } from './sqlite-task-store.js';
export type { StoreOwner } from './store-owner.js';

export type { SqliteApprovalStore } from './sqlite-approval-store.js';
export type { SqliteEvidenceStore } from './sqlite-evidence-store.js';
export type { SqlitePushStore } from './sqlite-push-store.js';

/** Opens (creating and migrating if needed) a SQLite-backed TaskStore. */
export function openSqliteTaskStore(options: SqliteTaskStoreOptions): TaskStore {
  return new SqliteTaskStore(options);
}
