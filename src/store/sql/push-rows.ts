/**
 * The push tables as the SQL stores (SQLite, PostgreSQL) read them: row shapes, column lists, the
 * outbox head rule and the row-to-record mappings, shared so both stores answer the PushStore port
 * alike (push-store.ts).
 */
import type { StreamResponse, Task } from '../../protocol/index.js';
import type { PushConfigRecord, PushDeadLetter, PushOutboxEntry } from '../push-store.js';

/** A `push_configs` row. */
export interface ConfigRow {
  task_id: string;
  id: string;
  tenant: string;
  url: string;
  protocol_version: string;
  auth_scheme: string | null;
  sealed_secrets: string | null;
  created_at: string;
}

/**
 * A `push_outbox` row. SQLite returns the id as a number and the JSON columns as text; PostgreSQL
 * returns the bigint id as a string and jsonb already parsed.
 */
export interface OutboxRowOf<Id extends number | string, Events, Snapshot> {
  id: Id;
  task_id: string;
  config_id: string;
  first_seq: number;
  last_seq: number;
  delivered_seq: number;
  events: Events;
  snapshot: Snapshot;
  attempts: number;
  last_error: string | null;
  created_at: string;
  /** Outbox rows read for delivery only (decision 0157); JSON text, or parsed (PostgreSQL json). */
  trace_context?: string | Record<string, string> | null;
}

/** Any store's outbox row. */
type AnyOutboxRow = OutboxRowOf<number | string, string | StreamResponse[], string | Task>;

/** A `push_dead_letters` row: the outbox entry plus why and where it failed. */
export type DeadRowOf<Row> = Row & { url: string; reason: string; failed_at: string };

/** The parameters of a config upsert, in CONFIG_COLUMNS order. */
export type ConfigParams = [string, string, string, string, string, string | null, string | null, string];

export const CONFIG_COLUMNS =
  'task_id, id, tenant, url, protocol_version, auth_scheme, sealed_secrets, created_at';
export const OUTBOX_COLUMNS = `id, task_id, config_id, first_seq, last_seq, delivered_seq, events, snapshot, attempts,
  last_error, created_at`;
/** An entry is a head when no older entry of the same (task, config) is pending (push-store.ts). */
export const IS_HEAD = `NOT EXISTS (SELECT 1 FROM push_outbox p
  WHERE p.task_id = o.task_id AND p.config_id = o.config_id AND p.id < o.id)`;

/** A checked record as CONFIG_COLUMNS parameters. */
export function configParams(c: PushConfigRecord): ConfigParams {
  return [
    c.taskId,
    c.id,
    c.tenant,
    c.url,
    c.protocolVersion,
    c.authScheme ?? null,
    c.sealedSecrets ?? null,
    c.createdAt,
  ];
}

export function toConfig(row: ConfigRow): PushConfigRecord {
  const config: PushConfigRecord = {
    taskId: row.task_id,
    id: row.id,
    tenant: row.tenant,
    url: row.url,
    protocolVersion: row.protocol_version,
    createdAt: row.created_at,
  };
  if (row.auth_scheme !== null) config.authScheme = row.auth_scheme;
  if (row.sealed_secrets !== null) config.sealedSecrets = row.sealed_secrets;
  return config;
}

export function toEntry(row: AnyOutboxRow): PushOutboxEntry {
  const entry: PushOutboxEntry = {
    id: Number(row.id),
    taskId: row.task_id,
    configId: row.config_id,
    firstSeq: row.first_seq,
    lastSeq: row.last_seq,
    events: typeof row.events === 'string' ? (JSON.parse(row.events) as StreamResponse[]) : row.events,
    task: typeof row.snapshot === 'string' ? (JSON.parse(row.snapshot) as Task) : row.snapshot,
    deliveredSeq: row.delivered_seq,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
  if (row.last_error !== null) entry.lastError = row.last_error;
  const trace = row.trace_context;
  if (trace !== undefined && trace !== null) {
    entry.traceContext = typeof trace === 'string' ? (JSON.parse(trace) as Record<string, string>) : trace;
  }
  return entry;
}

/** A commit's trace context headers as the `trace_context` column holds them (NULL for none). */
export function traceContextColumn(headers: Record<string, string> | undefined): string | null {
  return headers === undefined || headers.traceparent === undefined ? null : JSON.stringify(headers);
}

export function toDeadLetter(row: DeadRowOf<AnyOutboxRow>): PushDeadLetter {
  return Object.assign({}, toEntry(row), { url: row.url, reason: row.reason, failedAt: row.failed_at });
}
