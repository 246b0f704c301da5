/**
 * The SQLite ReplyStore (decision 0147): replies of keyed sends in the task store's file (table
 * `kept_replies`, schema 9), exposed as `SqliteTaskStore.replies`.
 *
 * A reply is kept through the task store's write queue, in the same group-commit transaction as the
 * task commits of its event-loop turn, so keeping one costs a row in a transaction that is written
 * anyway, and never waits for the write lock on the event loop (docs/performance.md, 'End-of-turn
 * writes' and 'Write lock without waiting'). Its promise resolves after COMMIT, so a kept reply
 * survives a crash as an acknowledged task does.
 *
 * Expiry needs no index: rowid order is the order replies were kept in, so the expired ones are at
 * the front. Each kept reply deletes the expired among the first EXPIRED_REPLIES_PER_KEEP rows,
 * and the retention sweep (when configured) deletes them in batches. Look-ups skip SQL for keys
 * the store's key filter has never seen (docs/performance.md, 'Idempotency-key filter'): reply keys
 * are added to it as task keys are.
 */
import type Database from 'better-sqlite3';
import type { Message } from '../../protocol/index.js';
import { RETENTION_BATCH_SIZE } from '../retention.js';
import {
  EXPIRED_REPLIES_PER_KEEP,
  type KeptReply,
  type NewKeptReply,
  type ReplyStore,
} from '../reply-store.js';
import { scopedIdempotencyKey, type TaskScope } from '../task-store.js';

/** A reply on its way to the file, serialised before the transaction that writes it. */
export interface PendingReply {
  tenant: string;
  owner: string;
  key: string;
  parts: string;
  /** The reply as JSON. */
  json: string;
  /** What `keep` resolves with when this reply is the one kept. */
  kept: KeptReply;
}

interface ReplyRow {
  parts: string;
  reply: string;
  kept_at: number;
}

/** What the store needs from its task store. */
export interface SqliteReplyStoreOptions {
  db: Database.Database;
  /** Hands a reply to the write queue; resolves once its batch committed. */
  enqueue: (pending: PendingReply) => Promise<KeptReply>;
  /** False when the key filter says the scoped key is surely not in the file. */
  mayHold: (scopedKey: string) => boolean;
  /** The task store's write-queue flush, run before the sweep's own transactions. */
  beforeWrite: () => void;
  /** How long a reply answers retries (reply-store.ts `replyMaxAge`). */
  maxAgeMs: number;
}

/** A ReplyStore in the task store's SQLite file; see the file comment. */
export class SqliteReplyStore implements ReplyStore {
  private readonly db: Database.Database;
  private readonly options: SqliteReplyStoreOptions;
  private readonly insert: Database.Statement<[string, string, string, string, string, number]>;
  private readonly select: Database.Statement<[string, string, string], ReplyRow>;
  private readonly deleteOne: Database.Statement<[string, string, string]>;
  private readonly deleteFront: Database.Statement<[number, number]>;

  constructor(options: SqliteReplyStoreOptions) {
    const { db } = options;
    this.db = db;
    this.options = options;
    this.insert = db.prepare(
      'INSERT OR IGNORE INTO kept_replies (tenant, owner, key, parts, reply, kept_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.select = db.prepare(
      'SELECT parts, reply, kept_at FROM kept_replies WHERE tenant = ? AND owner = ? AND key = ?',
    );
    this.deleteOne = db.prepare('DELETE FROM kept_replies WHERE tenant = ? AND owner = ? AND key = ?');
    // The first rows in the order they were kept, of which the expired go (see the file comment).
    this.deleteFront = db.prepare(
      `DELETE FROM kept_replies
        WHERE rowid IN (SELECT rowid FROM kept_replies ORDER BY rowid LIMIT ?) AND kept_at < ?`,
    );
  }

  keep(reply: NewKeptReply): Promise<KeptReply> {
    let json: string;
    try {
      // Serialised here, outside the transaction: a value JSON cannot hold fails this keep only.
      json = JSON.stringify(reply.reply);
    } catch (error) {
      return Promise.reject(error);
    }
    const { tenant, owner, key, parts } = reply;
    return this.options.enqueue({
      tenant,
      owner,
      key,
      parts,
      json,
      kept: { reply: reply.reply, parts },
    });
  }

  find(key: string, scope: TaskScope): Promise<KeptReply | undefined> {
    if (!this.db.open) return Promise.reject(new Error('task store is closed'));
    if (!this.options.mayHold(scopedIdempotencyKey(key, scope))) return Promise.resolve(undefined);
    try {
      const row = this.select.get(scope.tenant, scope.owner, key);
      if (row === undefined || row.kept_at < this.cutoff(Date.now())) return Promise.resolve(undefined);
      return Promise.resolve({ reply: JSON.parse(row.reply) as Message, parts: row.parts });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Writes one reply inside the write queue's transaction: the reply already kept under its key
   * wins unless it expired (then it is replaced by a new row, at the back of the rowid order).
   */
  writeInBatch(pending: PendingReply, now: number): KeptReply {
    const { tenant, owner, key } = pending;
    const cutoff = this.cutoff(now);
    if (this.insert.run(tenant, owner, key, pending.parts, pending.json, now).changes === 0) {
      const held = this.select.get(tenant, owner, key);
      if (held !== undefined && held.kept_at >= cutoff) {
        return { reply: JSON.parse(held.reply) as Message, parts: held.parts };
      }
      this.deleteOne.run(tenant, owner, key);
      this.insert.run(tenant, owner, key, pending.parts, pending.json, now);
    }
    this.deleteFront.run(EXPIRED_REPLIES_PER_KEEP, cutoff);
    return pending.kept;
  }

  /**
   * Deletes the replies older than `maxAgeMs` (or the store's reply max age, if shorter) at `now`,
   * in IMMEDIATE transactions of at most RETENTION_BATCH_SIZE rows; the retention sweep calls it.
   * Returns how many went.
   */
  deleteExpired(maxAgeMs: number, now: number): number {
    const cutoff = Math.max(this.cutoff(now), now - maxAgeMs);
    const batch = this.db.transaction(() => this.deleteFront.run(RETENTION_BATCH_SIZE, cutoff).changes);
    let total = 0;
    for (;;) {
      this.options.beforeWrite();
      const deleted = batch.immediate();
      total += deleted;
      if (deleted < RETENTION_BATCH_SIZE) return total;
    }
  }

  /** Replies kept before this epoch ms have expired at `now`. */
  private cutoff(now: number): number {
    return now - this.options.maxAgeMs;
  }
}
