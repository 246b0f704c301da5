// The bounds of the in-process memory of direct Message replies (decision 0133): the oldest reply
// goes first past RECENT_REPLIES, and none is answered after RECENT_REPLY_MS.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import {
  partsDigest,
  RECENT_REPLIES,
  RECENT_REPLIES_MAX_BYTES,
  RECENT_REPLY_MAX_BYTES,
  RECENT_REPLY_MS,
  RecentReplies,
} from '../../src/server/recent-replies.js';

const message = (id: string, text = 'hi'): Message => ({
  messageId: id,
  role: 'ROLE_USER',
  parts: [{ text }],
});

describe('RecentReplies', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the newest replies, dropping the oldest first', () => {
    const replies = new RecentReplies();
    for (let i = 0; i <= RECENT_REPLIES; i++) replies.remember(`k${i}`, message(`m${i}`), message(`r${i}`));
    expect(replies.find('k0')).toBeUndefined();
    expect(replies.find('k1')?.reply.messageId).toBe('r1');
    expect(replies.find(`k${RECENT_REPLIES}`)).toMatchObject({
      parts: partsDigest([{ text: 'hi' }]),
      taskId: '',
    });
    // Remembering a key again moves it to the newest end.
    replies.remember('k1', message('m1'), message('r1b'));
    replies.remember('extra', message('mx'), message('rx'));
    expect(replies.find('k1')?.reply.messageId).toBe('r1b');
    expect(replies.find('k2')).toBeUndefined();
  });

  it('forgets a reply once it is older than RECENT_REPLY_MS', () => {
    vi.useFakeTimers();
    const replies = new RecentReplies();
    replies.remember('k', message('m'), message('r'));
    vi.advanceTimersByTime(RECENT_REPLY_MS - 1);
    expect(replies.find('k')?.reply.messageId).toBe('r');
    vi.advanceTimersByTime(1);
    expect(replies.find('k')).toBeUndefined();
  });

  it('keeps what a client sends as a digest, and bounds the replies in bytes', () => {
    const replies = new RecentReplies();
    // A megabyte of request parts is remembered as a 43-character digest.
    replies.remember('big-request', message('m', 'x'.repeat(1 << 20)), message('r'));
    expect(replies.find('big-request')?.parts).toHaveLength(43);
    // A reply over the per-reply bound is not kept: its retry runs the agent again.
    replies.remember('big-reply', message('m'), message('r', 'x'.repeat(RECENT_REPLY_MAX_BYTES)));
    expect(replies.find('big-reply')).toBeUndefined();
    // Replies just under it fill the byte budget, past which the oldest go first.
    const text = 'x'.repeat(RECENT_REPLY_MAX_BYTES - 200);
    const fit = Math.floor(RECENT_REPLIES_MAX_BYTES / RECENT_REPLY_MAX_BYTES);
    for (let i = 0; i <= fit; i++) replies.remember(`k${i}`, message(`m${i}`), message(`r${i}`, text));
    expect(replies.find('k0')).toBeUndefined();
    expect(replies.find(`k${fit}`)?.reply.messageId).toBe(`r${fit}`);
  });
});
