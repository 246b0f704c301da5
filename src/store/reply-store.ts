/**
 * The ReplyStore port (decision 0147): the direct Message replies of keyed sends, kept so that a
 * retry of the send (same `Idempotency-Key`, or same messageId where that keys sends; decisions
 * 0091, 0133) is answered with the first reply instead of running the agent again. A send answered
 * with a task needs none of this: the task and its key are in the task store. A send answered with
 * a Message leaves no task, and an agent that answers that way may still have acted (the dealer
 * books a test drive), so its reply is kept here, scoped like task keys (tenant + caller).
 *
 * Replies are kept for a bounded time: REPLY_MAX_AGE_MS, or the store's task retention when that
 * is shorter (decision 0103). Retries come within minutes or hours; a reply that old answers
 * nothing any more and is deleted.
 */
import type { Message } from '../protocol/index.js';

/** Whose replies: a tenant and a caller, as `TaskScope` (task-store.ts) names them. */
export interface ReplyScope {
  tenant: string;
  owner: string;
}

/** What a retry is answered with, and what it must repeat. */
export interface KeptReply {
  /** The reply the first attempt was answered with. */
  reply: Message;
  /**
   * A digest of the first attempt's message parts (the server's choice; Concord's is SHA-256 of
   * their JSON): a retry must repeat the parts, or it is a new message under an old key.
   */
  parts: string;
}

/** A reply to keep, with the send's key and caller. */
export interface NewKeptReply extends ReplyScope, KeptReply {
  /** The send's idempotency key, as task commits carry it (`TaskCommit.idempotencyKey`). */
  key: string;
}

/** Keeps direct Message replies of keyed sends; see the file comment. */
export interface ReplyStore {
  /**
   * Keeps `reply` under its key for its caller, and resolves once it is durable with the reply
   * the store keeps. That is `reply`, unless the store already kept another one for the same key
   * and caller (another instance answered the same retry first): then it is that one, unchanged,
   * and the caller answers with it. An expired reply under the key is replaced.
   */
  keep(reply: NewKeptReply): Promise<KeptReply>;
  /**
   * The reply kept for this key and caller, unless it expired. Like `TaskStore.findIdempotencyKey`
   * it must see every `keep` of this process that resolved before it answers, even one that
   * resolved while it ran: the server forgets an in-flight send once its reply is kept.
   */
  find(key: string, scope: ReplyScope): Promise<KeptReply | undefined>;
}

/** How long a kept reply answers retries at most: a day, as HTTP APIs commonly keep keys. */
export const REPLY_MAX_AGE_MS = 24 * 3_600_000;

/** How long a store keeps replies: REPLY_MAX_AGE_MS, or its task retention if shorter. */
export function replyMaxAge(retentionMaxAgeMs: number | undefined): number {
  return Math.min(REPLY_MAX_AGE_MS, retentionMaxAgeMs ?? Infinity);
}

/**
 * Expired replies a store deletes each time it keeps one. More than one, so however unevenly
 * replies come, the expired ones never pile up: each new reply clears more than it adds. The
 * retention sweep, when configured, deletes the rest in batches.
 */
export const EXPIRED_REPLIES_PER_KEEP = 4;
