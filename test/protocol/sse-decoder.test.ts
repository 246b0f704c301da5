/**
 * The SSE decoder (WHATWG HTML §9.2.6) fed the way sockets deliver text: in pieces cut anywhere,
 * also between the `\r` and `\n` of a line end. A large event (issue 27: artifacts of megabytes
 * arrive in dozens of reads) must come out exact, and every line-end form, comments, ids, the
 * `event` field and a leading BOM must read the same however the text is cut.
 */
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseEvent } from '../../src/protocol/internal.js';

/** Feeds `text` in pieces of the given sizes (cycled) and collects every event. */
function decodeInPieces(text: string, sizes: readonly number[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length]!;
    events.push(...decoder.push(text.slice(at, at + size)));
    at += size;
  }
  return events;
}

/** Deterministic pseudo-random piece sizes from 1 to `max` (no Math.random: a failure replays). */
function pieceSizes(count: number, max: number, seed = 7): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 1 + (state % max);
  });
}

describe('SseDecoder', () => {
  it('decodes a 1.5 MB multi-line event cut into thousands of pieces, CRLF pairs split too', () => {
    // 1.5 MB of data over 600 lines of 2.5 KB, each ended by CRLF: many of the cuts fall
    // between a `\r` and its `\n`, where a decoder that took each half for a line end would end
    // the event early.
    const lines = Array.from({ length: 600 }, (_, i) =>
      `${i}:`.padEnd(2500, String.fromCharCode(97 + (i % 26))),
    );
    const text = `: heartbeat\r\nid: 41\r\nevent: update\r\n${lines.map((l) => `data: ${l}\r\n`).join('')}\r\n`;
    const expected = [{ id: '41', event: 'update', data: lines.join('\n') }];

    // Odd sizes that land on every offset of the CRLF pairs, and one big read for comparison.
    expect(decodeInPieces(text, pieceSizes(500, 4096))).toEqual(expected);
    expect(decodeInPieces(text, [2499, 2, 2503, 1])).toEqual(expected);
    expect(decodeInPieces(text, [text.length])).toEqual(expected);

    // Every CRLF of the text split exactly between its halves.
    const decoder = new SseDecoder();
    const events: SseEvent[] = [];
    let from = 0;
    for (let cr = text.indexOf('\r'); cr !== -1; cr = text.indexOf('\r', cr + 1)) {
      events.push(...decoder.push(text.slice(from, cr + 1)));
      from = cr + 1;
    }
    events.push(...decoder.push(text.slice(from)));
    expect(events).toEqual(expected);
  });

  it('reads LF, CRLF and CR line ends, comments, ids and event names alike at every cut', () => {
    const text =
      '\uFEFFid: 1\ndata: {"a":1}\n\n: ping\r\n\r\n' +
      'event: note\rid: 2\rdata: one\rdata:two\r\r' +
      'data: kept id\r\n\r\n' +
      'data\n\n' +
      'data: lone cr\r\rdata: after\n\n';
    const expected = [
      { id: '1', data: '{"a":1}' },
      { id: '2', event: 'note', data: 'one\ntwo' },
      // The last event id stays until another is set (§9.2.6); the event name does not.
      { id: '2', data: 'kept id' },
      { id: '2', data: '' },
      { id: '2', data: 'lone cr' },
      { id: '2', data: 'after' },
    ];
    for (let cut = 0; cut <= text.length; cut++) {
      const decoder = new SseDecoder();
      expect([...decoder.push(text.slice(0, cut)), ...decoder.push(text.slice(cut))]).toEqual(expected);
    }
    for (const size of [1, 2, 3, 5]) expect(decodeInPieces(text, [size])).toEqual(expected);
  });

  it('takes a CR that ends one piece and an LF that opens the next as one line end', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: a\r')).toEqual([]);
    // Were the `\n` a line end of its own, the empty line would dispatch `a` alone.
    expect(decoder.push('\ndata: b\r')).toEqual([]);
    expect(decoder.push('')).toEqual([]);
    expect(decoder.push('\n\r')).toEqual([{ data: 'a\nb' }]);
    // After a CR that ended a line, a piece opening with something else starts a new line.
    expect(decoder.push('data: c\n\n')).toEqual([{ data: 'c' }]);
  });

  it('drops a BOM only at the very start of the stream', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('\uFEFF')).toEqual([]);
    expect(decoder.push('data: x\n\n')).toEqual([{ data: 'x' }]);
    // Later, U+FEFF is text: here it makes the field name unknown, so the line is ignored.
    expect(decoder.push('\uFEFFdata: y\n\ndata: z\n\n')).toEqual([{ data: 'z' }]);
  });
});
