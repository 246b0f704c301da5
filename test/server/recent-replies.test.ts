// The bounds of the in-process memory of direct Message replies (decision 0133): the oldest reply
// goes first past RECENT_REPLIES, and none is answered after RECENT_REPLY_MS.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import { RECENT_REPLIES, RECENT_REPLY_MS, RecentReplies } from '../../src/server/recent-replies.js';

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
    expect(replies.find(`k${RECENT_REPLIES}`)).toMatchObject({ parts: '[{"text":"hi"}]', taskId: '' });
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
});
