/**
 * Connecting to PostgreSQL: the pool, the schema every statement runs in, and errors that say what
 * went wrong without echoing the password of the URL (decision 0100).
 */
import pg from 'pg';
import { redactDatabaseUrl } from '../database-url.js';

/** How to reach the database. */
export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database?...`; the password is never printed. */
  connectionString: string;
  /**
   * The schema holding Concord's tables (created by the migrations); default `concord`. Letters,
   * digits and `_` only, so it can be written into SQL unquoted and never needs escaping.
   */
  schema?: string | undefined;
  /** Connections in the pool; default 10. */
  poolSize?: number | undefined;
  /** How long to wait for a connection to open, in ms; default 10,000. */
  connectTimeoutMs?: number | undefined;
}

/** The schema used when the options name none. */
export const DEFAULT_POSTGRES_SCHEMA = 'concord';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Checks a schema name (see PostgresConnectionOptions.schema) and returns it. */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(
      `postgres schema: expected letters, digits and _ (not starting with a digit, at most 63), got ${JSON.stringify(schema)}`,
    );
  }
  return schema;
}

/** Thrown when the database cannot be reached or refuses the connection. */
export class DatabaseConnectionError extends Error {
  constructor(
    /** The URL, redacted. */
    readonly url: string,
    reason: string,
  ) {
    super(`cannot connect to PostgreSQL at ${url}: ${reason}`);
    this.name = 'DatabaseConnectionError';
  }
}

/**
 * Opens a pool whose connections all use `schema` as their search path (set by the server at
 * connection time, so no statement has to name it), and checks that one connection opens.
 */
export async function openPool(options: PostgresConnectionOptions): Promise<pg.Pool> {
  const schema = checkSchemaName(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const redacted = redactDatabaseUrl(options.connectionString);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // `pg_catalog` is searched first anyway; listing only our schema keeps a same-named table of
    // another schema (`public.tasks`) from ever being read by mistake.
    options: `-c search_path=${schema}`,
  });
  // An idle connection that dies (the server restarted) must not crash the process: the pool
  // drops it and the next query opens another.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseConnectionError(redacted, describeError(error));
  }
  return pool;
}

/** A driver error as one line, without anything from the URL but what the server itself says. */
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${error.message} (${code})`
      : error.message;
  }
  return String(error);
}
