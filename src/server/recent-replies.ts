/**
 * Direct-Message replies to keyed sends (an `Idempotency-Key`, or a messageId where that is a key),
 * kept for a while in this process so a retry gets the same reply instead of running the agent
 * again (decision 0133). A task is the store's to remember (decision 0091); a Message reply leaves
 * nothing in the store, and agents that answer with messages may still have side effects (the
 * dealer's leads and bookings). Best effort by design: bounded in count and age, and lost with
 * the process.
 */
import type { Message } from '../protocol/index.js';
import { ReleasingMap } from './releasing-map.js';

/** Replies kept at most (the oldest goes first) and for how long. */
export const RECENT_REPLIES = 1024;
export const RECENT_REPLY_MS = 10 * 60_000;

/** A remembered reply and what the send it answered said. */
export interface RecentReply {
  reply: Message;
  /** The request message's parts, as JSON: a retry must repeat them. */
  parts: string;
  /** The task the request named, or ''. */
  taskId: string;
  until: number;
}

/** See the file comment. Keys are scoped idempotency keys. */
export class RecentReplies {
  private readonly replies = new ReleasingMap<string, RecentReply>();
  private size = 0;

  remember(slot: string, request: Message, reply: Message): void {
    if (this.replies.delete(slot)) this.size--;
    const parts = JSON.stringify(request.parts);
    this.replies.set(slot, {
      reply,
      parts,
      taskId: request.taskId ?? '',
      until: Date.now() + RECENT_REPLY_MS,
    });
    if (++this.size <= RECENT_REPLIES) return;
    for (const [oldest] of this.replies.entries()) {
      this.replies.delete(oldest);
      this.size--;
      break;
    }
  }

  /** The reply to the send with this key, unless it has expired. */
  find(slot: string): RecentReply | undefined {
    const found = this.replies.get(slot);
    if (found === undefined || found.until > Date.now()) return found;
    this.replies.delete(slot);
    this.size--;
    return undefined;
  }
}
