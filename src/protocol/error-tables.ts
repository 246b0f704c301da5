/**
 * Error tables of extensions. Concord maps every error from one table (errors.ts); a profile
 * that rides on A2A (an extension, A2A 1.0 §4.6) may have a vocabulary of its own, with its own
 * ErrorInfo `domain` and `reason`s, JSON-RPC codes and HTTP statuses (AAP's `aap.error` codes,
 * for instance). Such an extension contributes its table here instead of special cases in the
 * bindings: a `TableError` carries its row, and the envelopes (error-envelopes.ts) read the row
 * through `A2AError.entry`, so the extension's errors are still mapped once, from a table.
 */
import {
  A2AError,
  type A2AErrorOptions,
  type A2AErrorType,
  type ErrorCatalogEntry,
  type GrpcStatusName,
} from './errors.js';

/** One row of an extension's table. */
export interface ErrorTableRow {
  /** JSON-RPC `error.code`. */
  code: number;
  /** HTTP status on the REST binding (and on JSON-RPC too when `httpLayer`). */
  httpStatus: number;
  /** `error.status` of the REST body (A2A 1.0 §11.6). */
  grpcStatus: GrpcStatusName;
  /**
   * The A2A error this one refines, kept as the error's `type` so code that only knows A2A's
   * errors still reads its meaning (an extension's "invalid filter" is an InvalidParamsError).
   */
  meaning: A2AErrorType;
  defaultMessage: string;
  /** ErrorInfo `reason`; the row's key when absent. */
  reason?: string;
  /** True when JSON-RPC answers with `httpStatus` too (authentication, rate limits). */
  httpLayer?: boolean;
}

/** A named set of rows under one ErrorInfo domain. */
export interface ErrorTable<K extends string = string> {
  /** ErrorInfo `domain` of every row (e.g. `autoagentprotocol.org`). */
  readonly domain: string;
  readonly rows: Readonly<Record<K, ErrorTableRow>>;
  /** The catalog entries, built once per row. */
  entry(key: K): ErrorCatalogEntry;
}

/** Defines an extension's error table; rows are checked here so a bad table fails at import. */
export function defineErrorTable<K extends string>(
  domain: string,
  rows: Record<K, ErrorTableRow>,
): ErrorTable<K> {
  if (domain.trim() === '') throw new TypeError('an error table needs a domain');
  const entries = new Map<string, ErrorCatalogEntry>();
  for (const [key, row] of Object.entries(rows) as [K, ErrorTableRow][]) {
    if (!Number.isInteger(row.code))
      throw new TypeError(`error table ${domain}: ${key}: code must be an integer`);
    if (!Number.isInteger(row.httpStatus) || row.httpStatus < 400 || row.httpStatus > 599) {
      throw new TypeError(`error table ${domain}: ${key}: httpStatus must be 400-599`);
    }
    entries.set(key, {
      code: row.code,
      httpStatus: row.httpStatus,
      grpcStatus: row.grpcStatus,
      reason: row.reason ?? key,
      domain,
      defaultMessage: row.defaultMessage,
      ...(row.httpLayer === true ? { httpLayer: true } : {}),
    });
  }
  return {
    domain,
    rows,
    entry(key) {
      const found = entries.get(key);
      if (found === undefined) throw new TypeError(`error table ${domain} has no row ${String(key)}`);
      return found;
    },
  };
}

/** An error from an extension's table: thrown as meaning, mapped once from the table's row. */
export class TableError<K extends string = string> extends A2AError {
  /** The row's key (the extension's own error code, e.g. `VEHICLE_NOT_FOUND`). */
  readonly key: K;
  readonly table: ErrorTable<K>;
  readonly #entry: ErrorCatalogEntry;

  constructor(table: ErrorTable<K>, key: K, message?: string, options: A2AErrorOptions = {}) {
    const row = table.rows[key];
    if (row === undefined) throw new TypeError(`error table ${table.domain} has no row ${String(key)}`);
    super(row.meaning, message ?? row.defaultMessage, options);
    this.name = String(key);
    this.key = key;
    this.table = table;
    this.#entry = table.entry(key);
  }

  /** The table's row in catalog form (code, statuses, reason, the table's domain). */
  override get entry(): ErrorCatalogEntry {
    return this.#entry;
  }
}
