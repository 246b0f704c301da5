/**
 * Opening the SQLite file: connection settings and the schema, versioned with `user_version` so a
 * file written by an older Concord is upgraded in place and one written by a newer Concord is
 * refused rather than misread.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { requirePeer } from '../../peers/index.js';

// better-sqlite3 is an optional peer (decision 0153): loaded when a file is opened, so importing
// the store (or the host, or the root entry) never needs the native build.
const require = createRequire(import.meta.url);
let sqlite: typeof Database | undefined;
const loadSqlite = (): typeof Database =>
  (sqlite ??= requirePeer('sqlite', () => require('better-sqlite3') as typeof Database));

/**
 * Migrations in order; entry `i` takes the file from version `i` to `i + 1`. Never edit a shipped
 * entry: files in the field already ran it. Append a new one instead.
 */
const MIGRATIONS: readonly (string | ((db: Database.Database) => void))[] = [
  `
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state TEXT NOT NULL,
    -- Sortable UTC status time (status-time.ts), so text order is time order.
    status_ts TEXT NOT NULL,
    version INTEGER NOT NULL,
    snapshot TEXT NOT NULL
  );
  -- One index per ListTasks filter shape (A2A 1.0 §3.1.4). Each ends in (status_ts, id) so the
  -- page is read in index order (scanned backwards for DESC), and carries owner so visibility and
  -- totalSize are answered from the index without touching the table.
  CREATE INDEX tasks_by_tenant ON tasks (tenant, status_ts, id, owner);
  CREATE INDEX tasks_by_context ON tasks (tenant, context_id, status_ts, id, owner);
  CREATE INDEX tasks_by_state ON tasks (tenant, state, status_ts, id, owner);
  CREATE TABLE task_events (
    task_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (task_id, seq)
  );
  `,
  // 1 -> 2: approvals of `requiresApproval` contracts (approval-store.ts), in the tasks' file so a
  // pending approval survives a restart with its task.
  `
  CREATE TABLE approvals (
    -- Creation order: the queue order of ListApprovals and its cursor. AUTOINCREMENT so a number is
    -- never handed out twice, even were rows ever deleted, and a cursor never skips a newcomer.
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    task_id TEXT NOT NULL,
    context_id TEXT NOT NULL,
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    contract TEXT NOT NULL,
    correlation_id TEXT,
    requested_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    decided_at TEXT,
    decided_by TEXT,
    reason TEXT
  );
  CREATE INDEX approvals_by_task ON approvals (task_id, seq);
  CREATE INDEX approvals_by_status ON approvals (status, seq);
  -- The audit log: one row per request and per decision, never updated.
  CREATE TABLE approval_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    approval_id TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('requested', 'approved', 'rejected')),
    actor TEXT,
    reason TEXT
  );
  CREATE INDEX approval_events_by_approval ON approval_events (approval_id, seq);
  `,
  // 2 -> 3: evidence chains (evidence-store.ts; the AUMP extension's evidence events), in the tasks'
  // file so evidence is as durable as the tasks it speaks about. The primary key is the chain order
  // and refuses a second record at the same sequence number.
  `
  CREATE TABLE evidence_records (
    chain TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    event TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (chain, seq)
  ) WITHOUT ROWID;
  `,
  // 3 -> 4: push-notification configs and their delivery outbox (push-store.ts, decision 0087).
  `
  -- How many push configs the task has: read with the head on every commit, so a task without
  -- configs costs no extra statement.
  ALTER TABLE tasks ADD COLUMN push_configs INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE push_configs (
    task_id TEXT NOT NULL,
    id TEXT NOT NULL,
    tenant TEXT NOT NULL,
    url TEXT NOT NULL,
    protocol_version TEXT NOT NULL,
    auth_scheme TEXT,
    -- Token and credentials, encrypted and authenticated by the server (AES-256-GCM).
    sealed_secrets TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (task_id, id)
  );
  CREATE TABLE push_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    delivered_seq INTEGER NOT NULL,
    -- The commit's events (a JSON array) and the snapshot they produced.
    events TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Epoch ms from which the entry may be claimed (a claim leases it by moving this forward).
    due_at INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX push_outbox_by_config ON push_outbox (task_id, config_id, id);
  CREATE TABLE push_dead_letters (
    -- The outbox id, kept so a requeued entry returns to its place in the order.
    id INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    url TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    delivered_seq INTEGER NOT NULL,
    events TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    last_error TEXT,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    failed_at TEXT NOT NULL
  );
  `,
  // 4 -> 5: idempotency keys of sends (decision 0091).
  `
  -- Idempotency keys of sends (decision 0091): unique per caller, pointing at the task that
  -- recorded the send; written in the commit's transaction and deleted with the task.
  CREATE TABLE idempotency_keys (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    key TEXT NOT NULL,
    task_id TEXT NOT NULL,
    PRIMARY KEY (tenant, owner, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_task ON idempotency_keys (task_id);
  `,
  // 5 -> 6: task retention (decision 0103). IF NOT EXISTS: files rolled back by hand in tests (and
  // by a downgrade) may still carry the indexes.
  `
  -- Retention's scan (sqlite-retention.ts): only terminal tasks, oldest status first.
  CREATE INDEX IF NOT EXISTS tasks_expiring ON tasks (status_ts)
    WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED');
  CREATE INDEX IF NOT EXISTS push_dead_letters_by_task ON push_dead_letters (task_id);
  `,
  // 6 -> 7: the process serving the file, so a restart can tell its predecessor's unfinished tasks
  // from a live server's (decision 0119, store-owner.ts).
  `
  CREATE TABLE IF NOT EXISTS store_owner (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    instance TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    -- Epoch ms of the owner's last heartbeat.
    heartbeat_at INTEGER NOT NULL
  );
  `,
  // 7 -> 8: fewer B-trees written per commit (docs/performance.md, 'Fewer B-trees per commit'). A
  // commit rewrites the right-hand leaf of every B-tree it inserts into, so each one dropped here
  // is a page less per batch.
  `
  -- One row per commit instead of one per event: \`seq\` becomes the row's last sequence number and
  -- \`events\` holds the commit's events, a JSON array when there are several. A row written before
  -- (one event, an object) already reads that way, so no row is rewritten.
  ALTER TABLE task_events RENAME COLUMN seq TO last_seq;
  ALTER TABLE task_events RENAME COLUMN event TO events;
  -- The idempotency keys a task holds, as a JSON array of [owner, key] (the key's caller may differ
  -- from the task's owner), so retention finds them on the task row instead of through an index
  -- that every keyed send had to write.
  ALTER TABLE tasks ADD COLUMN held_keys TEXT;
  UPDATE tasks SET held_keys = (
    SELECT json_group_array(json_array(k.owner, k.key)) FROM idempotency_keys k WHERE k.task_id = tasks.id
  ) WHERE id IN (SELECT task_id FROM idempotency_keys);
  DROP INDEX IF EXISTS idempotency_keys_by_task;
  -- Retention walks tasks_by_state instead (sqlite-retention.ts).
  DROP INDEX IF EXISTS tasks_expiring;
  `,
  // 8 -> 9: the direct Message replies of keyed sends, kept for their retries (decision 0147,
  // sqlite-reply-store.ts). IF NOT EXISTS: files rolled back by hand in tests may still have it.
  `
  -- A rowid table, not WITHOUT ROWID: a row holds a whole reply (kilobytes). Rowid order is the
  -- order replies were kept in, which expiry walks from the front instead of through an index on
  -- kept_at that every kept reply would have to write.
  CREATE TABLE IF NOT EXISTS kept_replies (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    key TEXT NOT NULL,
    -- The digest of the request's parts, which a retry must repeat.
    parts TEXT NOT NULL,
    -- The reply, a Message as JSON.
    reply TEXT NOT NULL,
    -- Epoch ms when it was kept; it answers retries for the store's reply max age from then.
    kept_at INTEGER NOT NULL,
    UNIQUE (tenant, owner, key)
  );
  `,
  // 9 -> 10: the W3C trace context of the operation whose commit queued an outbox entry (decision
  // 0157), so its delivery's span joins that trace after a restart too: the headers as a JSON
  // object ({"traceparent": ..., "tracestate": ...}), NULL when none was traced. SQLite has no
  // ADD COLUMN IF NOT EXISTS, and files rolled back by hand in tests may still have the column.
  (db) => {
    const columns = db.pragma('table_info(push_outbox)') as { name: string }[];
    if (!columns.some((column) => column.name === 'trace_context')) {
      db.exec('ALTER TABLE push_outbox ADD COLUMN trace_context TEXT');
    }
  },
  // 10 -> 11: a heavy task's history and artifact updates in rows of their own (decision 0164,
  // task-parts.ts), so a commit writes what it adds rather than the task's whole past again. Files
  // rolled back by hand in tests may still have the columns and tables.
  (db) => {
    const columns = db.pragma('table_info(tasks)') as { name: string }[];
    if (!columns.some((column) => column.name === 'history_rows')) {
      // How many history messages and artifact updates the task has in rows; both NULL while the
      // task is whole in its snapshot, as every task written before schema 11 is.
      db.exec(`
        ALTER TABLE tasks ADD COLUMN history_rows INTEGER;
        ALTER TABLE tasks ADD COLUMN artifact_rows INTEGER;
      `);
    }
    db.exec(`
      CREATE TABLE IF NOT EXISTS task_history (
        task_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (task_id, n)
      ) WITHOUT ROWID;
      -- A rowid table, not WITHOUT ROWID: a row can hold a megabyte-sized chunk of an artifact.
      CREATE TABLE IF NOT EXISTS task_artifact_updates (
        task_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (task_id, n)
      );
    `);
  },
  // 11 -> 12: how many tasks each (tenant, owner, state) has, kept by triggers (decision 0160), so
  // ListTasks' totalSize without a contextId or statusTimestampAfter filter, and the retention cap's
  // check, read a few counter rows instead of counting millions of index entries. Counted once here
  // from the tasks the file holds.
  `
  DROP TABLE IF EXISTS task_counts;
  CREATE TABLE task_counts (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    state TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (tenant, owner, state)
  ) WITHOUT ROWID;
  INSERT INTO task_counts (tenant, owner, state, n)
    SELECT tenant, owner, state, count(*) FROM tasks GROUP BY tenant, owner, state;
  -- A commit never changes a task's tenant or owner, so only a new state moves it between counters.
  CREATE TRIGGER IF NOT EXISTS task_counts_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO task_counts (tenant, owner, state, n) VALUES (new.tenant, new.owner, new.state, 1)
      ON CONFLICT (tenant, owner, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS task_counts_update AFTER UPDATE OF state ON tasks
    WHEN old.state IS NOT new.state BEGIN
    UPDATE task_counts SET n = n - 1 WHERE tenant = old.tenant AND owner = old.owner AND state = old.state;
    INSERT INTO task_counts (tenant, owner, state, n) VALUES (new.tenant, new.owner, new.state, 1)
      ON CONFLICT (tenant, owner, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS task_counts_delete AFTER DELETE ON tasks BEGIN
    UPDATE task_counts SET n = n - 1 WHERE tenant = old.tenant AND owner = old.owner AND state = old.state;
  END;
  `,
  // 12 -> 13: the same counts split by the hour of each task's status time (decision 0163), so
  // ListTasks' totalSize with statusTimestampAfter sums the whole hours after the cutoff and counts
  // the index only within the cutoff's own hour, where counting every match grew with the store.
  // A row that reaches zero goes, so hours whose tasks were all deleted or moved on leave nothing.
  `
  DROP TABLE IF EXISTS task_hours;
  CREATE TABLE task_hours (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    -- The first 13 characters of status_ts (status-time.ts): 'YYYY-MM-DDTHH', UTC.
    hour TEXT NOT NULL,
    state TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (tenant, owner, hour, state)
  ) WITHOUT ROWID;
  INSERT INTO task_hours (tenant, owner, hour, state, n)
    SELECT tenant, owner, substr(status_ts, 1, 13), state, count(*) FROM tasks
     GROUP BY tenant, owner, substr(status_ts, 1, 13), state;
  CREATE TRIGGER IF NOT EXISTS task_hours_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO task_hours (tenant, owner, hour, state, n)
      VALUES (new.tenant, new.owner, substr(new.status_ts, 1, 13), new.state, 1)
      ON CONFLICT (tenant, owner, hour, state) DO UPDATE SET n = n + 1;
  END;
  -- Most commits move a task's status time within its hour and keep its state: no work for them.
  CREATE TRIGGER IF NOT EXISTS task_hours_update AFTER UPDATE OF state, status_ts ON tasks
    WHEN old.state IS NOT new.state OR substr(old.status_ts, 1, 13) IS NOT substr(new.status_ts, 1, 13) BEGIN
    UPDATE task_hours SET n = n - 1
     WHERE tenant = old.tenant AND owner = old.owner AND hour = substr(old.status_ts, 1, 13) AND state = old.state;
    DELETE FROM task_hours
     WHERE tenant = old.tenant AND owner = old.owner AND hour = substr(old.status_ts, 1, 13) AND state = old.state
       AND n = 0;
    INSERT INTO task_hours (tenant, owner, hour, state, n)
      VALUES (new.tenant, new.owner, substr(new.status_ts, 1, 13), new.state, 1)
      ON CONFLICT (tenant, owner, hour, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS task_hours_delete AFTER DELETE ON tasks BEGIN
    UPDATE task_hours SET n = n - 1
     WHERE tenant = old.tenant AND owner = old.owner AND hour = substr(old.status_ts, 1, 13) AND state = old.state;
    DELETE FROM task_hours
     WHERE tenant = old.tenant AND owner = old.owner AND hour = substr(old.status_ts, 1, 13) AND state = old.state
       AND n = 0;
  END;
  `,
];

/** The schema version this code writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** How to open the database. */
export interface OpenDatabaseOptions {
  /** File path, or `':memory:'`. Parent directories are created. */
  path: string;
  /** How long a write waits for another process's lock before failing, in ms. */
  busyTimeoutMs: number;
}

/** Opens (creating if needed) and migrates the database; see the file comment. */
export function openDatabase(
  options: OpenDatabaseOptions,
  migrated?: (from: number, to: number) => void,
): Database.Database {
  const inMemory = options.path === ':memory:' || options.path === '';
  if (!inMemory) mkdirSync(dirname(resolve(options.path)), { recursive: true });
  const Sqlite = loadSqlite();
  const db = new Sqlite(options.path);
  try {
    // WAL: readers never block the writer, and a commit is one append to the log.
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode fsyncs at checkpoints, not at every commit. A committed transaction is
    // already in the WAL file (in the OS page cache) when COMMIT returns, so it survives the process
    // crashing or being killed (-9), which is the promise Concord makes ("never lose an
    // acknowledged task", DESIGN.md). Only an OS crash or power cut can roll back the last commits;
    // FULL would cover that at the cost of one fsync per batch.
    db.pragma('synchronous = NORMAL');
    // 4 MiB of page cache (docs/performance.md, 'SQLite page cache'): room for the interior pages
    // of every index of a file of about a million tasks. More bought no throughput (the OS page
    // cache holds the file anyway) and cost its full size in resident memory once the file outgrew
    // it.
    db.pragma('cache_size = -4000');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    const from = migrate(db);
    migrated?.(from, SCHEMA_VERSION);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Brings the file to SCHEMA_VERSION; returns the version it had. */
function migrate(db: Database.Database): number {
  const readVersion = (): number => db.pragma('user_version', { simple: true }) as number;
  if (readVersion() === SCHEMA_VERSION) return SCHEMA_VERSION;
  // IMMEDIATE takes the write lock before re-reading the version, so two processes opening a new
  // file at once do not both run the migrations.
  return db
    .transaction(() => {
      const from = readVersion();
      if (from > SCHEMA_VERSION) {
        throw new Error(
          `${db.name}: schema version ${from} is newer than this Concord supports (${SCHEMA_VERSION})`,
        );
      }
      for (let i = from; i < SCHEMA_VERSION; i++) {
        const migration = MIGRATIONS[i]!;
        if (typeof migration === 'string') db.exec(migration);
        else migration(db);
      }
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      return from;
    })
    .immediate();
}
