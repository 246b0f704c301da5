/**
 * The one test suite of the ReplyStore port (decision 0147): every implementation runs it. A kept
 * reply is found under its key and caller only; the first reply kept under a key stays the one
 * (a second keep answers with it); an expired reply is not found and may be replaced.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import {
  REPLY_MAX_AGE_MS,
  type NewKeptReply,
  type ReplyStore,
  type TaskScope,
} from '../../src/store/internal.js';

/** What a suite run needs: a fresh empty store and a way to dispose of it. */
export type OpenReplyStore = () => Promise<{ replies: ReplyStore; cleanup(): Promise<void> }>;

export const ALICE: TaskScope = { tenant: 'acme', owner: 'alice' };

/** A reply with text `text`, kept under `key` for `scope`. */
export function newReply(key: string, text: string, scope: TaskScope = ALICE, parts = 'p1'): NewKeptReply {
  const reply: Message = { messageId: `r-${text}`, role: 'ROLE_AGENT', parts: [{ text }] };
  return { ...scope, key, parts, reply };
}

/** Registers the ReplyStore suite under `name`, against a fresh store from `open` per test. */
export function describeReplyStoreSuite(name: string, open: OpenReplyStore): void {
  describe(`ReplyStore suite: ${name}`, () => {
    let store: ReplyStore;
    let cleanup: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      ({ replies: store, cleanup } = await open());
    });
    afterEach(async () => {
      vi.useRealTimers();
      await cleanup?.();
    });

    it('finds a kept reply under its key, for its caller only', async () => {
      const kept = await store.keep(newReply('m:1', 'one'));
      expect(kept).toEqual({ reply: newReply('m:1', 'one').reply, parts: 'p1' });
      expect(await store.find('m:1', ALICE)).toEqual(kept);
      expect(await store.find('m:1', { tenant: 'acme', owner: 'bob' })).toBeUndefined();
      expect(await store.find('m:1', { tenant: 'other', owner: 'alice' })).toBeUndefined();
      expect(await store.find('m:2', ALICE)).toBeUndefined();
      // Each caller has keys of its own.
      await store.keep(newReply('m:1', 'bob', { tenant: 'acme', owner: 'bob' }));
      expect((await store.find('m:1', { tenant: 'acme', owner: 'bob' }))?.reply.messageId).toBe('r-bob');
      expect((await store.find('m:1', ALICE))?.reply.messageId).toBe('r-one');
    });

    it('keeps the first reply under a key: a second keep answers with it, unchanged', async () => {
      await store.keep(newReply('k:same', 'first'));
      const second = await store.keep(newReply('k:same', 'second', ALICE, 'p2'));
      expect(second).toEqual({ reply: newReply('k:same', 'first').reply, parts: 'p1' });
      expect((await store.find('k:same', ALICE))?.reply.messageId).toBe('r-first');
    });

    it('keeps a reply as written, unusual characters included', async () => {
      const reply = newReply('m:odd', 'odd');
      reply.reply = {
        ...reply.reply,
        parts: [{ text: 'é \u2028 "quoted" \\ 😀' }, { data: { nested: [1, { a: null }] } }],
        metadata: { 'x-key': 'v' },
      };
      await store.keep(reply);
      expect((await store.find('m:odd', ALICE))?.reply).toEqual(reply.reply);
    });

    it(`stops answering with a reply after ${REPLY_MAX_AGE_MS / 3_600_000} hours, and keeps a new one under its key`, async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.parse('2026-04-30T12:00:00Z');
      vi.setSystemTime(start);
      await store.keep(newReply('m:old', 'old'));
      vi.setSystemTime(start + REPLY_MAX_AGE_MS - 1);
      expect((await store.find('m:old', ALICE))?.reply.messageId).toBe('r-old');
      vi.setSystemTime(start + REPLY_MAX_AGE_MS + 1);
      expect(await store.find('m:old', ALICE)).toBeUndefined();
      const again = await store.keep(newReply('m:old', 'new'));
      expect(again.reply.messageId).toBe('r-new');
      expect((await store.find('m:old', ALICE))?.reply.messageId).toBe('r-new');
    });
  });
}
