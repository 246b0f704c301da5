/**
 * The PostgreSQL bus's dedicated LISTEN connection (decision 0115). A pooled connection cannot
 * listen (notifications go to the session that issued LISTEN), so the bus keeps one client of its
 * own. When it drops, it is reopened with a growing delay (up to `maxDelayMs`) and the bus reports
 * `reconnected`, since notifications sent meanwhile were lost; a periodic ping finds a connection
 * that died without the socket saying so.
 */
import pg from 'pg';

/** How the connection reports. */
export interface ListenHandlers {
  notification(payload: string): void;
  reconnected(): void;
  error(error: unknown, where: string): void;
}

/** Options of a ListenConnection. */
export interface ListenOptions {
  connectionString: string;
  channel: string;
  /** First reconnect delay (default 250 ms), doubled per failure. */
  minDelayMs?: number;
  /** Longest reconnect delay (default 10 s). */
  maxDelayMs?: number;
  /** Ping period (default 15 s). */
  pingMs?: number;
  /** `application_name` of the session, as `pg_stat_activity` shows it. */
  applicationName?: string;
}

/** See the file comment. */
export class ListenConnection {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private ping: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly options: ListenOptions,
    private readonly handlers: ListenHandlers,
  ) {}

  /** Connects and listens; rejects when the first connection fails. */
  async open(): Promise<void> {
    await this.connect();
    const period = this.options.pingMs ?? 15_000;
    this.ping = setInterval(() => void this.checkAlive(), period);
    this.ping.unref();
  }

  /** True while the LISTEN session is open. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      application_name: this.options.applicationName ?? 'concord cluster bus',
    });
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload !== undefined) {
        this.handlers.notification(message.payload);
      }
    });
    client.on('error', (error) => {
      this.handlers.error(error, 'cluster bus LISTEN connection');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
  }

  private async checkAlive(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      this.handlers.error(error, 'cluster bus LISTEN connection ping');
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.retry !== undefined) return;
    const min = this.options.minDelayMs ?? 250;
    const delay = Math.min(min * 2 ** this.failures, this.options.maxDelayMs ?? 10_000);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().then(
        () => {
          if (!this.closed) this.handlers.reconnected();
        },
        (error: unknown) => {
          this.failures++;
          this.handlers.error(error, 'cluster bus LISTEN reconnect');
          this.schedule();
        },
      );
    }, delay);
    this.retry.unref();
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    client.removeAllListeners('end');
    await client.end().catch(() => undefined);
  }
}
