// The bounds of the in-memory ReplyStore (decision 0147, formerly the server's recent-replies of
// 0133): the oldest reply goes first past MEMORY_REPLIES or MEMORY_REPLIES_MAX_BYTES, a reply over
// MEMORY_REPLY_MAX_BYTES is not kept, and none is found once older than its max age.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import {
  MEMORY_REPLIES,
  MEMORY_REPLIES_MAX_BYTES,
  MEMORY_REPLY_MAX_BYTES,
  MemoryReplyStore,
  REPLY_MAX_AGE_MS,
  type TaskScope,
} from '../../src/store/internal.js';

const ANON: TaskScope = { tenant: '', owner: '' };
const message = (id: string, text = 'hi'): Message => ({
  messageId: id,
  role: 'ROLE_AGENT',
  parts: [{ text }],
});
const keep = (store: MemoryReplyStore, key: string, reply: Message, parts = 'digest') =>
  store.keep({ ...ANON, key, parts, reply });
const found = async (store: MemoryReplyStore, key: string) => (await store.find(key, ANON))?.reply.messageId;

describe('MemoryReplyStore', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the newest replies, dropping the oldest first', async () => {
    const store = new MemoryReplyStore();
    for (let i = 0; i <= MEMORY_REPLIES; i++) await keep(store, `k${i}`, message(`r${i}`));
    expect(await found(store, 'k0')).toBeUndefined();
    expect(await found(store, 'k1')).toBe('r1');
    expect(await store.find(`k${MEMORY_REPLIES}`, ANON)).toMatchObject({ parts: 'digest' });
    // A key already kept keeps its first reply, in its place: the store answers with that one.
    expect((await keep(store, 'k1', message('r1b'))).reply.messageId).toBe('r1');
    await keep(store, 'extra', message('rx'));
    expect(await found(store, 'k1')).toBeUndefined();
    expect(await found(store, 'k2')).toBe('r2');
    // Keys are per caller.
    expect(await store.find('k2', { tenant: '', owner: 'bob' })).toBeUndefined();
  });

  it('forgets a reply once it is older than its max age, and then keeps a new one under the key', async () => {
    vi.useFakeTimers();
    const store = new MemoryReplyStore();
    await keep(store, 'k', message('r'));
    vi.advanceTimersByTime(REPLY_MAX_AGE_MS - 1);
    expect(await found(store, 'k')).toBe('r');
    vi.advanceTimersByTime(1);
    expect(await found(store, 'k')).toBeUndefined();
    expect((await keep(store, 'k', message('r2'))).reply.messageId).toBe('r2');
    expect(await found(store, 'k')).toBe('r2');
  });

  it('bounds the replies in bytes, and does not keep one over the per-reply bound', async () => {
    const store = new MemoryReplyStore();
    // Not kept: its retry runs the agent again.
    const big = message('big', 'x'.repeat(MEMORY_REPLY_MAX_BYTES));
    expect((await keep(store, 'big-reply', big)).reply).toBe(big);
    expect(await found(store, 'big-reply')).toBeUndefined();
    // Replies just under it fill the byte budget, past which the oldest go first.
    const text = 'x'.repeat(MEMORY_REPLY_MAX_BYTES - 200);
    const fit = Math.floor(MEMORY_REPLIES_MAX_BYTES / MEMORY_REPLY_MAX_BYTES);
    for (let i = 0; i <= fit; i++) await keep(store, `k${i}`, message(`r${i}`, text));
    expect(await found(store, 'k0')).toBeUndefined();
    expect(await found(store, `k${fit}`)).toBe(`r${fit}`);
  });
});
