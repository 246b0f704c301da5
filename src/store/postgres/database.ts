/**
 * The pool as the PostgreSQL stores use it: queries and transactions that refuse to start once the
 * store is closed, and a close that lets the work already started finish before the connections
 * go (an acknowledged write is never cut off; a write not yet acknowledged either completes or
 * fails as a whole, since each is one statement or one transaction).
 */
import type pg from 'pg';

/** A query the stores send: named ones are prepared once per connection and reused. */
export interface Statement {
  /** A name for statements run many times; omitted for one-off SQL. */
  name?: string;
  text: string;
  values?: unknown[];
}

/** The shared pool of a PostgreSQL task store and its sub-stores; see the file comment. */
export class Database {
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly pool: pg.Pool) {}

  /** True once `close` was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs one statement (atomic on its own: PostgreSQL autocommits it). */
  query<R extends pg.QueryResultRow>(
    statement: Statement,
    closedMessage: string,
  ): Promise<pg.QueryResult<R>> {
    return this.track(closedMessage, () => this.pool.query<R>(statement));
  }

  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(closedMessage: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.track(closedMessage, async () => {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection itself is gone: do not hand it out again.
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  /** Refuses new work, waits for the work in flight, then closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.pool.end();
  }

  private track<T>(closedMessage: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(closedMessage));
    const running = work();
    this.inFlight.add(running);
    const forget = (): void => void this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }
}
