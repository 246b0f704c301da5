/**
 * The PostgreSQL ClusterBus (decision 0115): messages by NOTIFY on one channel per schema, read on
 * a dedicated, reconnecting LISTEN connection; heartbeats and the run registry in two small tables
 * of the store's schema, with expiry judged by the database's clock. A store on PostgreSQL gets
 * this bus by default, so a cluster needs nothing but the database.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  deliverPayload,
  type BusListener,
  type ClusterBus,
  type ClusterMessage,
  type RunRecord,
  type Runner,
} from '../../server/internal.js';
import { checkSchemaName } from '../../store/postgres/internal.js';
import { ensureBusTables, INSTANCES_TABLE, RUNS_TABLE } from './bus-tables.js';
import { ListenConnection } from './listen-connection.js';

/** Options of `createPostgresBus`. */
export interface PostgresBusOptions {
  /** The database of the task store. */
  connectionString: string;
  /** The schema of the task store (default `concord`): the bus keeps its tables there too. */
  schema?: string;
  /** Pooled connections for NOTIFY, heartbeats and the registry (default 2). */
  poolSize?: number;
  /** `application_name` of the bus's sessions (default `concord cluster bus`). */
  applicationName?: string;
  /** Longest delay between LISTEN reconnection attempts (default 10 s). */
  maxReconnectDelayMs?: number;
}

/** NOTIFY payloads are limited to 8000 bytes; ours are a few hundred. */
const MAX_PAYLOAD = 7_900;

/** The NOTIFY channel of a schema: channels are per database, so two schemas must not share one. */
export function channelOf(schema: string): string {
  // Identifiers are cut at 63 bytes; a long schema name gets a digest instead.
  const name = `concord_cluster.${schema}`;
  return name.length <= 63
    ? name
    : `concord_cluster.${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

class PostgresBus implements ClusterBus {
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly channel: string;
  private tables: Promise<void> | undefined;
  private listen: ListenConnection | undefined;
  private closed = false;

  constructor(private readonly options: PostgresBusOptions) {
    this.schema = checkSchemaName(options.schema ?? 'concord');
    this.channel = channelOf(this.schema);
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 2,
      connectionTimeoutMillis: 10_000,
      application_name: options.applicationName ?? 'concord cluster bus',
    });
    // An idle pooled connection that dies must not crash the process; the next query opens another.
    this.pool.on('error', () => undefined);
  }

  /** The tables exist before the first statement that needs them. */
  private ready(): Promise<void> {
    this.tables ??= ensureBusTables(this.pool, this.schema).catch((error: unknown) => {
      this.tables = undefined;
      throw error;
    });
    return this.tables;
  }

  listening(): boolean {
    return !this.closed && this.listen?.connected === true;
  }

  private table(name: string): string {
    return `${this.schema}.${name}`;
  }

  async open(listener: BusListener): Promise<void> {
    await this.ready();
    await this.listen?.close();
    const listen = new ListenConnection(
      {
        connectionString: this.options.connectionString,
        channel: this.channel,
        applicationName: this.options.applicationName ?? 'concord cluster bus',
        ...(this.options.maxReconnectDelayMs === undefined
          ? {}
          : { maxDelayMs: this.options.maxReconnectDelayMs }),
      },
      {
        notification: (payload) => deliverPayload(payload, listener),
        reconnected: () => listener.reconnected(),
        error: (error, where) => listener.error(error, where),
      },
    );
    await listen.open();
    this.listen = listen;
  }

  async publish(message: ClusterMessage): Promise<void> {
    const payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD)
      throw new RangeError('cluster message too large for NOTIFY');
    await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }

  async beat(instanceId: string, ttlMs: number): Promise<void> {
    await this.ready();
    await this.pool.query(
      `INSERT INTO ${this.table(INSTANCES_TABLE)} (instance_id, expires_at)
       VALUES ($1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (instance_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [instanceId, ttlMs],
    );
  }

  async leave(instanceId: string): Promise<void> {
    await this.ready();
    await this.pool.query(`DELETE FROM ${this.table(INSTANCES_TABLE)} WHERE instance_id = $1`, [instanceId]);
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.ready();
    await this.pool.query(
      `INSERT INTO ${this.table(RUNS_TABLE)} (agent, task_id, instance_id, tenant, owner_name)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (agent, task_id) DO UPDATE
         SET instance_id = EXCLUDED.instance_id, tenant = EXCLUDED.tenant,
             owner_name = EXCLUDED.owner_name, started_at = now()`,
      [run.agent, run.taskId, run.instanceId, run.tenant, run.owner],
    );
  }

  async removeRun(agent: string, taskId: string, instanceId: string): Promise<void> {
    await this.ready();
    await this.pool.query(
      `DELETE FROM ${this.table(RUNS_TABLE)} WHERE agent = $1 AND task_id = $2 AND instance_id = $3`,
      [agent, taskId, instanceId],
    );
  }

  async runnerOf(agent: string, taskId: string): Promise<Runner | undefined> {
    await this.ready();
    const result = await this.pool.query<{ instance_id: string; alive: boolean | null }>(
      `SELECT r.instance_id, i.expires_at > now() AS alive
         FROM ${this.table(RUNS_TABLE)} r
         LEFT JOIN ${this.table(INSTANCES_TABLE)} i ON i.instance_id = r.instance_id
        WHERE r.agent = $1 AND r.task_id = $2`,
      [agent, taskId],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : { instanceId: row.instance_id, alive: row.alive === true };
  }

  async orphanedRuns(agent: string): Promise<RunRecord[]> {
    await this.ready();
    const result = await this.pool.query<{
      task_id: string;
      instance_id: string;
      tenant: string;
      owner_name: string;
    }>(
      `SELECT r.task_id, r.instance_id, r.tenant, r.owner_name
         FROM ${this.table(RUNS_TABLE)} r
         LEFT JOIN ${this.table(INSTANCES_TABLE)} i
           ON i.instance_id = r.instance_id AND i.expires_at > now()
        WHERE r.agent = $1 AND i.instance_id IS NULL
        ORDER BY r.started_at
        LIMIT 500`,
      [agent],
    );
    return result.rows.map((row) => ({
      agent,
      taskId: row.task_id,
      instanceId: row.instance_id,
      tenant: row.tenant,
      owner: row.owner_name,
    }));
  }

  async claimRun(run: RunRecord, instanceId: string): Promise<boolean> {
    await this.ready();
    const result = await this.pool.query(
      `UPDATE ${this.table(RUNS_TABLE)} SET instance_id = $4, started_at = now()
        WHERE agent = $1 AND task_id = $2 AND instance_id = $3`,
      [run.agent, run.taskId, run.instanceId, instanceId],
    );
    return result.rowCount === 1;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listen?.close();
    this.listen = undefined;
    await this.pool.end();
  }
}

/** A ClusterBus over the task store's PostgreSQL database (see the file comment). */
export function createPostgresBus(options: PostgresBusOptions): ClusterBus {
  return new PostgresBus(options);
}
