/**
 * A task commit as one SQL statement. Its CTEs write the task row, the events and the push outbox
 * entries together, so the commit is atomic without BEGIN/COMMIT round trips: PostgreSQL runs a
 * single statement in its own transaction. The version check is the UPDATE's WHERE clause: the
 * row lock makes a concurrent writer wait, and when it resumes PostgreSQL re-checks the WHERE
 * clause against the row the first writer committed, so the second finds the version moved and
 * writes nothing (TaskStore port: a lost update is impossible, across processes too). A create is
 * an INSERT ... ON CONFLICT DO NOTHING: of two creators, the second writes nothing. The
 * idempotency key goes in with the rest: of two tasks claiming one key, the second statement fails
 * on the key's primary key and leaves nothing behind.
 */
import type { Statement } from './database.js';

/** What the commit statement reports: whether the task row was written, and outbox entries queued. */
export interface CommitRow {
  written: number;
  queued: number;
}

// Parameters, in order, shared by both statements.
//  $1 id, $2 expectedVersion, $3 contextId, $4 state, $5 status key, $6 new version,
//  $7 snapshot JSON, $8 tenant, $9 owner, $10 events JSON array, $11 createdAt (outbox),
//  $12 idempotency key or null, $13 trace context headers JSON or null (decision 0157),
//  and for a heavy task's rows (heavy-tasks.ts, decision 0164): $14 the history_rows the commit
//  was computed against (null: whole), $15 and $16 history_rows and artifact_rows after it (null:
//  whole), $17 the history messages it adds and $18 the artifact updates it adds (JSON arrays),
//  numbered from $19 and $20, $21 the whole task for the outbox when $7 is only its head (null
//  when the commit did not serialise it: then the task must have no push configs, see UPDATE).
const EVENTS_AND_OUTBOX = `
  -- The send's idempotency key (decision 0091), in the caller's scope. Already held by this task
  -- (a retried follow-up), it is left alone; held by another task, the INSERT violates the primary
  -- key and the whole statement, task and events included, is undone (IDEMPOTENCY_KEY_CONSTRAINT).
  k AS (
    INSERT INTO idempotency_keys (tenant, owner, key, task_id)
    SELECT $8::text, $9::text, $12::text, t.id FROM t
     WHERE $12::text IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM idempotency_keys i
                        WHERE i.tenant = $8::text AND i.owner = $9::text AND i.key = $12::text
                          AND i.task_id = t.id)
  ),
  e AS (
    INSERT INTO task_events (task_id, seq, event)
    SELECT t.id, $2::integer + x.n, x.ev
      FROM t, json_array_elements($10::json) WITH ORDINALITY AS x(ev, n)
  ),
  h AS (
    INSERT INTO task_history (task_id, n, message)
    SELECT t.id, $19::integer + x.n - 1, x.m
      FROM t, json_array_elements($17::json) WITH ORDINALITY AS x(m, n)
  ),
  a AS (
    INSERT INTO task_artifact_updates (task_id, n, event)
    SELECT t.id, $20::integer + x.n - 1, x.ev
      FROM t, json_array_elements($18::json) WITH ORDINALITY AS x(ev, n)
  ),
  -- One outbox entry per config of the task, in the configs' creation order (push-store.ts).
  o AS (
    INSERT INTO push_outbox (task_id, config_id, first_seq, last_seq, delivered_seq, events, snapshot,
      created_at, trace_context)
    SELECT t.id, c.id, $2::integer + 1, $6::integer, $2::integer, $10::json, coalesce($21::json, $7::json),
           $11::text, $13::text
      FROM t JOIN push_configs c ON c.task_id = t.id
     ORDER BY c.created_seq
    RETURNING 1
  )
SELECT (SELECT count(*) FROM t)::integer AS written, (SELECT count(*) FROM o)::integer AS queued`;

const CREATE = `
WITH t AS (
  INSERT INTO tasks (id, tenant, owner, context_id, state, status_ts, version, snapshot, history_rows,
    artifact_rows)
  -- A new task has no rows yet: $14 is null for it, and only named so both statements take it.
  SELECT $1, $8::text, $9::text, $3, $4, $5, $6::integer, $7::json, $15::integer, $16::integer
   WHERE $14::integer IS NULL
  ON CONFLICT (id) DO NOTHING
  RETURNING id
),${EVENTS_AND_OUTBOX}`;

// Tenant and owner are not written: they stay as created, so a follow-up by another visible
// caller (an anonymous task continued by a signed-in user) cannot take the task over.
const UPDATE = `
WITH t AS (
  UPDATE tasks
     SET context_id = $3, state = $4, status_ts = $5, version = $6::integer, snapshot = $7::json,
         history_rows = $15::integer, artifact_rows = $16::integer
   WHERE id = $1 AND version = $2::integer AND tenant = $8::text AND (owner = '' OR owner = $9::text)
     -- Rows numbered from what the commit saw: a split it missed makes it stale.
     AND history_rows IS NOT DISTINCT FROM $14::integer
     -- A split task's commit sends its whole text only when asked: a task with push configs
     -- needs it for the outbox, and the store tries again with it (postgres-task-store.ts).
     AND ($21::json IS NOT NULL OR $15::integer IS NULL
          OR NOT EXISTS (SELECT 1 FROM push_configs c WHERE c.task_id = $1))
  RETURNING id
),${EVENTS_AND_OUTBOX}`;

/** The commit statement with its parameters. */
export function commitStatement(values: unknown[], create: boolean): Statement {
  return create
    ? { name: 'concord-commit-create', text: CREATE, values }
    : { name: 'concord-commit-update', text: UPDATE, values };
}

/** The constraint a commit violates when another task holds its idempotency key. */
export const IDEMPOTENCY_KEY_CONSTRAINT = 'idempotency_keys_pkey';

/** Reads what a failed commit ran into. */
export const HEAD_STATEMENT = 'SELECT tenant, owner, version, history_rows FROM tasks WHERE id = $1';

/** Creates or replaces a push config; the creation order (`created_seq`) stays on replace. */
export const UPSERT_CONFIG = `
INSERT INTO push_configs (task_id, id, tenant, url, protocol_version, auth_scheme, sealed_secrets,
  created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (task_id, id) DO UPDATE SET tenant = excluded.tenant, url = excluded.url,
  protocol_version = excluded.protocol_version, auth_scheme = excluded.auth_scheme,
  sealed_secrets = excluded.sealed_secrets, created_at = excluded.created_at`;
