// What counts as a reply under a contract (shared by the server's output check and the client):
// data parts first, else the JSON the text holds, read across streamed text chunks.
import { describe, expect, it } from 'vitest';
import { replyValues } from '../../src/contracts/internal.js';

describe('replyValues', () => {
  it('takes data parts and ignores text beside them', () => {
    expect(replyValues([{ text: '{"a": 1}' }, { data: { b: 2 } }, { data: [3] }])).toEqual([
      { index: 1, value: { b: 2 } },
      { index: 2, value: [3] },
    ]);
  });

  it('reads a JSON reply cut into text chunks as one value', () => {
    expect(replyValues([{ text: '{"summary": ' }, { text: '"ok", "score"' }, { text: ': 2}' }])).toEqual([
      { index: 0, value: { summary: 'ok', score: 2 } },
    ]);
  });

  it('falls back to text parts one by one, skipping prose', () => {
    expect(replyValues([{ text: '{"a": 1}' }, { text: '{"b": 2}' }, { text: 'done.' }])).toEqual([
      { index: 0, value: { a: 1 } },
      { index: 1, value: { b: 2 } },
    ]);
    expect(replyValues([{ text: '{not json' }, { url: 'https://x.example/f' }])).toEqual([]);
  });
});
