/**
 * Which process serves a SQLite file (decision 0119). A task left submitted or working by a
 * process that died has no executor any more, but the file alone cannot say whether the process
 * that wrote it is gone or still running next door. So the serving process holds a lease: one row
 * with its instance id, pid, host and a heartbeat renewed every few seconds. Another process may
 * take the file over once that heartbeat is older than the TTL, or at once when the owner's pid is
 * gone from this host. Only a taker settles the unfinished tasks.
 */
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** How long an owner's heartbeat counts. */
export const OWNER_TTL_MS = 15_000;

/** The live owner of a file, as another process sees it. */
export interface StoreOwner {
  pid: number;
  host: string;
}

interface OwnerRow extends StoreOwner {
  instance: string;
  heartbeat_at: number;
}

/**
 * This host as far as pids go: containers sharing a hostname may not share a pid namespace, and a
 * pid means something only within its namespace (Linux names it in /proc/self/ns/pid).
 */
function pidSpace(): string {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

const HOST = pidSpace();
/** When this process started (epoch ms): a heartbeat of our own pid after it is another thread's. */
const STARTED_AT = Date.now() - process.uptime() * 1000;

/** Leases held by stores of this thread, so a second store on the same file sees the first as alive. */
const liveHere = new Set<string>();

/** True when the owner's process on this host still runs. */
function running(owner: OwnerRow): boolean {
  if (owner.pid === process.pid) {
    // Our own pid: a store of this process (this thread, or another thread that beat since we
    // started), or an earlier process that had the same pid (a restarted container).
    return liveHere.has(owner.instance) || owner.heartbeat_at >= STARTED_AT;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This store's lease on its file. */
export class StoreOwnerLease {
  private readonly instance = randomUUID();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database.Database) {}

  /** True while this store holds the file. */
  get held(): boolean {
    return this.timer !== undefined;
  }

  /** The live process other than this store that holds the file, if any. */
  otherOwner(now: number = Date.now()): StoreOwner | undefined {
    const owner = this.read();
    if (owner === undefined || owner.instance === this.instance || !this.alive(owner, now)) return undefined;
    return { pid: owner.pid, host: owner.host };
  }

  /**
   * Takes the file when no other live process holds it, running `then` in the same transaction;
   * returns its result, or undefined (and runs nothing) when another process holds the file.
   */
  claim<T>(then: () => T, now: number = Date.now()): T | undefined {
    const take = this.db.transaction((): { value: T } | undefined => {
      if (this.otherOwner(now) !== undefined) return undefined;
      this.db
        .prepare(
          'INSERT OR REPLACE INTO store_owner (id, instance, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)',
        )
        .run(this.instance, process.pid, HOST, now);
      return { value: then() };
    });
    const taken = take.immediate();
    if (taken === undefined) return undefined;
    if (this.timer === undefined) {
      liveHere.add(this.instance);
      this.timer = setInterval(() => this.renew(), OWNER_TTL_MS / 3);
      this.timer.unref();
    }
    return taken.value;
  }

  /** Gives the file up (a clean stop), so the next process takes it at once. */
  release(): void {
    if (!this.stop()) return;
    this.db.prepare('DELETE FROM store_owner WHERE id = 1 AND instance = ?').run(this.instance);
  }

  private stop(): boolean {
    if (this.timer === undefined) return false;
    clearInterval(this.timer);
    this.timer = undefined;
    liveHere.delete(this.instance);
    return true;
  }

  private read(): OwnerRow | undefined {
    return this.db.prepare('SELECT instance, pid, host, heartbeat_at FROM store_owner WHERE id = 1').get() as
      OwnerRow | undefined;
  }

  private alive(owner: OwnerRow, now: number): boolean {
    if (owner.heartbeat_at <= now - OWNER_TTL_MS) return false;
    return owner.host !== HOST || running(owner);
  }

  private renew(): void {
    try {
      const { changes } = this.db
        .prepare('UPDATE store_owner SET heartbeat_at = ? WHERE id = 1 AND instance = ?')
        .run(Date.now(), this.instance);
      // Taken over (this process stood still past the TTL): stop claiming the file; its next
      // claim asks afresh.
      if (changes === 0) this.stop();
    } catch {
      // A busy or closing file: the next beat tries again, and the TTL is three beats long.
    }
  }
}
