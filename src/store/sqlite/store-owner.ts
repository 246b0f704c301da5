/**
 * Which process serves a SQLite file (decision 0119). A task left submitted or working by a
 * process that died has no executor any more, but the file alone cannot say whether the process
 * that wrote it is gone or still running next door. So the serving process holds a lease: one row
 * with its instance id, pid, host and a heartbeat renewed every few seconds. Another process may
 * take the file over once that heartbeat is older than the TTL, or at once when the owner's pid is
 * gone from this host. Only a taker settles the unfinished tasks.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** How long an owner's heartbeat counts. */
export const OWNER_TTL_MS = 15_000;

interface OwnerRow {
  instance: string;
  pid: number;
  host: string;
  heartbeat_at: number;
}

/** Leases held by stores of this process, so a second store on the same file sees the first as alive. */
const liveHere = new Set<string>();

/** True when the process `pid` on this host still runs. */
function running(owner: OwnerRow): boolean {
  if (owner.pid === process.pid) return liveHere.has(owner.instance);
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
  private readonly host = hostname();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database.Database) {}

  /** True while this store holds the file. */
  get held(): boolean {
    return this.timer !== undefined;
  }

  /** Takes the file when no other live process holds it; true when this store now holds it. */
  claim(now: number = Date.now()): boolean {
    if (this.timer !== undefined) return true;
    const take = this.db.transaction(() => {
      const owner = this.db
        .prepare('SELECT instance, pid, host, heartbeat_at FROM store_owner WHERE id = 1')
        .get() as OwnerRow | undefined;
      if (owner !== undefined && owner.instance !== this.instance && this.alive(owner, now)) return false;
      this.db
        .prepare(
          'INSERT OR REPLACE INTO store_owner (id, instance, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)',
        )
        .run(this.instance, process.pid, this.host, now);
      return true;
    });
    if (!take.immediate()) return false;
    liveHere.add(this.instance);
    this.timer = setInterval(() => this.renew(), OWNER_TTL_MS / 3);
    this.timer.unref();
    return true;
  }

  /** Gives the file up (a clean stop), so the next process takes it at once. */
  release(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    liveHere.delete(this.instance);
    this.db.prepare('DELETE FROM store_owner WHERE id = 1 AND instance = ?').run(this.instance);
  }

  private alive(owner: OwnerRow, now: number): boolean {
    if (owner.heartbeat_at <= now - OWNER_TTL_MS) return false;
    return owner.host !== this.host || running(owner);
  }

  private renew(): void {
    try {
      this.db
        .prepare('UPDATE store_owner SET heartbeat_at = ? WHERE id = 1 AND instance = ?')
        .run(Date.now(), this.instance);
    } catch {
      // A busy or closing file: the next beat tries again, and the TTL is three beats long.
    }
  }
}
