/**
 * Direct-Message replies to keyed sends (an `Idempotency-Key`, or a messageId where that is a key),
 * kept for a while in this process so a retry gets the same reply instead of running the agent
 * again (decision 0133). A task is the store's to remember (decision 0091); a Message reply leaves
 * nothing in the store, and agents that answer with messages may still have side effects (the
 * dealer's leads and bookings). Best effort by design: bounded in count, bytes and age, and lost
 * with the process. Clients choose the keys, so the bounds are what keeps a client from filling
 * the heap: a request's parts are kept as a digest, and a reply larger than RECENT_REPLY_MAX_BYTES
 * is not kept (its retry runs the agent again).
 */
import { createHash } from 'node:crypto';
import type { Message, Part } from '../protocol/index.js';
import { ReleasingMap } from './releasing-map.js';

/** Replies kept at most (the oldest goes first) and for how long. */
export const RECENT_REPLIES = 1024;
export const RECENT_REPLY_MS = 10 * 60_000;
/** The encoded size of all kept replies together, and of the largest one kept. */
export const RECENT_REPLIES_MAX_BYTES = 16 * 1024 * 1024;
export const RECENT_REPLY_MAX_BYTES = 256 * 1024;

/** A remembered reply and what the send it answered said. */
export interface RecentReply {
  reply: Message;
  /** A digest of the request message's parts: a retry must repeat them. */
  parts: string;
  /** The task the request named, or ''. */
  taskId: string;
  until: number;
  /** The reply's encoded size, counted against RECENT_REPLIES_MAX_BYTES. */
  bytes: number;
}

/** The digest a retry's parts are compared by (SHA-256 of their JSON). */
export function partsDigest(parts: readonly Part[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** See the file comment. Keys are scoped idempotency keys. */
export class RecentReplies {
  private readonly replies = new ReleasingMap<string, RecentReply>();
  private count = 0;
  private bytes = 0;

  remember(slot: string, request: Message, reply: Message): void {
    this.forget(slot);
    const bytes = JSON.stringify(reply).length;
    if (bytes > RECENT_REPLY_MAX_BYTES) return;
    this.replies.set(slot, {
      reply,
      parts: partsDigest(request.parts),
      taskId: request.taskId ?? '',
      until: Date.now() + RECENT_REPLY_MS,
      bytes,
    });
    this.count++;
    this.bytes += bytes;
    // Map order is insertion order: the oldest go first.
    for (const [oldest] of this.replies.entries()) {
      if (this.count <= RECENT_REPLIES && this.bytes <= RECENT_REPLIES_MAX_BYTES) break;
      this.forget(oldest);
    }
  }

  /** The reply to the send with this key, unless it has expired. */
  find(slot: string): RecentReply | undefined {
    const found = this.replies.get(slot);
    if (found === undefined || found.until > Date.now()) return found;
    this.forget(slot);
    return undefined;
  }

  private forget(slot: string): void {
    const found = this.replies.get(slot);
    if (found === undefined) return;
    this.replies.delete(slot);
    this.count--;
    this.bytes -= found.bytes;
  }
}
