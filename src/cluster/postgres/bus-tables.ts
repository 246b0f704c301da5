/**
 * The two tables of the PostgreSQL bus, beside the task store's tables in the same schema
 * (decision 0115): instances with the time their heartbeat expires, and which instance runs which
 * task. Created at open under the same advisory lock as the store's migrations, so instances and
 * stores starting together never race on the DDL. Expiry uses the database's clock, never a host's.
 */
import type pg from 'pg';
import { withSchemaLock } from '../../store/postgres/internal.js';

/** Heartbeats: an instance is alive while `expires_at` is in the future. */
export const INSTANCES_TABLE = 'cluster_instances';
/** The run registry: one row per task whose executor is running. */
export const RUNS_TABLE = 'cluster_runs';

/** Creates the schema (when absent) and the bus tables (when absent), in one locked transaction. */
export function ensureBusTables(pool: pg.Pool, schema: string): Promise<void> {
  // The store's migration lock (src/store/postgres/migrate.ts): one DDL writer per schema.
  return withSchemaLock(pool, schema, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.${INSTANCES_TABLE} (
         instance_id text PRIMARY KEY,
         expires_at timestamptz NOT NULL
       )`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.${RUNS_TABLE} (
         agent text NOT NULL,
         task_id text NOT NULL,
         instance_id text NOT NULL,
         tenant text NOT NULL,
         owner_name text NOT NULL,
         started_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (agent, task_id)
       )`,
    );
    // Instances long gone leave rows behind; a day later nothing can still refer to them.
    await client.query(
      `DELETE FROM ${schema}.${INSTANCES_TABLE} WHERE expires_at < now() - interval '1 day'`,
    );
  });
}
