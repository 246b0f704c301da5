/**
 * The PostgreSQL ReplyStore (decision 0147): replies of keyed sends in the store's schema (table
 * `kept_replies`, migration 3), exposed as `PostgresTaskStore.replies`, shared by every instance.
 *
 * Keeping a reply is one statement: the insert, unique per (tenant, owner, key), which replaces an
 * expired reply under the key and otherwise leaves the one there; the same statement deletes a few
 * expired replies of other keys (SKIP LOCKED, so instances keeping replies at once never wait on
 * each other). When another instance kept a reply first (two instances ran the same retry), the
 * insert returns nothing and that reply is read and answered with. Like task keys
 * (recent-keys.ts), a look-up that started before a keep of this process resolved still finds it.
 */
import type { Message } from '../../protocol/index.js';
import { RETENTION_BATCH_SIZE } from '../retention.js';
import {
  EXPIRED_REPLIES_PER_KEEP,
  type KeptReply,
  type NewKeptReply,
  type ReplyStore,
} from '../reply-store.js';
import { scopedIdempotencyKey, type TaskScope } from '../task-store.js';
import type { Database } from './database.js';
import { RecentKeys } from './recent-keys.js';

const CLOSED = 'task store is closed';

const KEEP = `
WITH expired AS (
  DELETE FROM kept_replies WHERE (tenant, owner, key) IN (
    SELECT tenant, owner, key FROM kept_replies
     WHERE kept_at < $7 AND NOT (tenant = $1 AND owner = $2 AND key = $3)
     ORDER BY kept_at LIMIT $8
     FOR UPDATE SKIP LOCKED)
)
INSERT INTO kept_replies AS r (tenant, owner, key, parts, reply, kept_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (tenant, owner, key) DO UPDATE
  SET parts = excluded.parts, reply = excluded.reply, kept_at = excluded.kept_at
  WHERE r.kept_at < $7
RETURNING kept_at`;

const FIND = `SELECT parts, reply FROM kept_replies
 WHERE tenant = $1 AND owner = $2 AND key = $3 AND kept_at >= $4`;

const SWEEP = `
WITH doomed AS (
  SELECT tenant, owner, key FROM kept_replies WHERE kept_at < $1
   ORDER BY kept_at LIMIT $2
   FOR UPDATE SKIP LOCKED
)
DELETE FROM kept_replies r USING doomed
 WHERE r.tenant = doomed.tenant AND r.owner = doomed.owner AND r.key = doomed.key`;

/** A ReplyStore in a PostgreSQL schema; see the file comment. */
export class PostgresReplyStore implements ReplyStore {
  /** Replies kept while look-ups ran, so a look-up never misses a keep resolved before it. */
  private readonly recent = new RecentKeys<KeptReply>();

  constructor(
    private readonly db: Database,
    /** How long a reply answers retries (reply-store.ts `replyMaxAge`). */
    private readonly maxAgeMs: number,
  ) {}

  async keep(reply: NewKeptReply): Promise<KeptReply> {
    const kept: KeptReply = { reply: reply.reply, parts: reply.parts };
    // PostgreSQL text cannot hold NUL: such a key cannot be kept, and its retry runs again.
    if (hasNul(reply.key, reply.tenant, reply.owner)) return kept;
    // Serialised before any round trip: a value JSON cannot hold fails this keep only.
    const json = JSON.stringify(reply.reply);
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const cutoff = now - this.maxAgeMs;
      const { key, tenant, owner } = reply;
      const written = await this.db.query(
        {
          name: 'concord-keep-reply',
          text: KEEP,
          values: [tenant, owner, key, reply.parts, json, now, cutoff, EXPIRED_REPLIES_PER_KEEP],
        },
        CLOSED,
      );
      // Another instance kept a reply under this key first: that one is the answer.
      const winner = written.rowCount === 0 ? await this.select(key, reply, cutoff) : kept;
      // Gone again already (it expired meanwhile): the key is free, so try once more.
      if (winner === undefined && attempt === 0) continue;
      const answer = winner ?? kept;
      this.recent.committed(scopedIdempotencyKey(key, reply), answer);
      return answer;
    }
  }

  find(key: string, scope: TaskScope): Promise<KeptReply | undefined> {
    if (hasNul(key, scope.tenant, scope.owner)) return Promise.resolve(undefined);
    return this.recent.lookup(scopedIdempotencyKey(key, scope), () =>
      this.select(key, scope, Date.now() - this.maxAgeMs),
    );
  }

  /**
   * Deletes the replies older than `maxAgeMs` (or the store's reply max age, if shorter) at `now`,
   * batch by batch; the retention sweep calls it. Returns how many went.
   */
  async deleteExpired(maxAgeMs: number, now: number): Promise<number> {
    const cutoff = Math.max(now - this.maxAgeMs, now - maxAgeMs);
    let total = 0;
    for (;;) {
      const { rowCount } = await this.db.query(
        { name: 'concord-sweep-replies', text: SWEEP, values: [cutoff, RETENTION_BATCH_SIZE] },
        CLOSED,
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < RETENTION_BATCH_SIZE) return total;
    }
  }

  private async select(key: string, scope: TaskScope, cutoff: number): Promise<KeptReply | undefined> {
    const { rows } = await this.db.query<{ parts: string; reply: Message }>(
      { name: 'concord-find-reply', text: FIND, values: [scope.tenant, scope.owner, key, cutoff] },
      CLOSED,
    );
    const row = rows[0];
    return row === undefined ? undefined : { reply: row.reply, parts: row.parts };
  }
}

/** True when a value holds NUL, which PostgreSQL text cannot (so it names nothing stored). */
function hasNul(...values: string[]): boolean {
  return values.some((value) => value.includes('\u0000'));
}
