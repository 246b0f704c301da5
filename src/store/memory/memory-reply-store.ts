/**
 * The in-memory ReplyStore (decision 0147; it replaced the server's in-process recent-replies of
 * decision 0133): the memory task store's `replies`, and what a server keeps replies in when its
 * task store keeps none. Lost with the process, like everything in memory.
 *
 * Clients choose the keys, so the bounds are what keeps a client from filling the heap: at most
 * MEMORY_REPLIES replies and MEMORY_REPLIES_MAX_BYTES of them (the oldest go first), none older
 * than its max age, and a reply larger than MEMORY_REPLY_MAX_BYTES is not kept (its retry runs the
 * agent again). A request's parts are kept only as the digest the server computed.
 */
import type { TaskScope } from '../task-store.js';
import { scopedIdempotencyKey } from '../task-store.js';
import { REPLY_MAX_AGE_MS, type KeptReply, type NewKeptReply, type ReplyStore } from '../reply-store.js';

/** Replies kept at most. */
export const MEMORY_REPLIES = 1024;
/** The encoded size of all kept replies together, and of the largest one kept. */
export const MEMORY_REPLIES_MAX_BYTES = 16 * 1024 * 1024;
export const MEMORY_REPLY_MAX_BYTES = 256 * 1024;

interface Entry {
  kept: KeptReply;
  /** Epoch ms past which it answers nothing. */
  until: number;
  /** The reply's encoded size, counted against MEMORY_REPLIES_MAX_BYTES. */
  bytes: number;
}

/** See the file comment. */
export class MemoryReplyStore implements ReplyStore {
  /** Scoped key → entry; Map order is insertion order, so the oldest come first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxAgeMs: number;

  constructor(options: { maxAgeMs?: number } = {}) {
    this.maxAgeMs = options.maxAgeMs ?? REPLY_MAX_AGE_MS;
  }

  keep(reply: NewKeptReply): Promise<KeptReply> {
    const slot = scopedIdempotencyKey(reply.key, reply);
    const held = this.live(slot);
    if (held !== undefined) return Promise.resolve(held.kept);
    const kept: KeptReply = { reply: reply.reply, parts: reply.parts };
    let bytes: number;
    try {
      bytes = JSON.stringify(kept.reply).length;
    } catch (error) {
      return Promise.reject(error);
    }
    if (bytes > MEMORY_REPLY_MAX_BYTES) return Promise.resolve(kept);
    this.entries.set(slot, { kept, until: Date.now() + this.maxAgeMs, bytes });
    this.bytes += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MEMORY_REPLIES && this.bytes <= MEMORY_REPLIES_MAX_BYTES) break;
      this.forget(oldest);
    }
    return Promise.resolve(kept);
  }

  find(key: string, scope: TaskScope): Promise<KeptReply | undefined> {
    return Promise.resolve(this.live(scopedIdempotencyKey(key, scope))?.kept);
  }

  /** The entry under `slot`, unless it has expired (then it goes). */
  private live(slot: string): Entry | undefined {
    const found = this.entries.get(slot);
    if (found === undefined || found.until > Date.now()) return found;
    this.forget(slot);
    return undefined;
  }

  private forget(slot: string): void {
    const found = this.entries.get(slot);
    if (found === undefined) return;
    this.entries.delete(slot);
    this.bytes -= found.bytes;
  }
}
