/**
 * A piecewise answer (json-pieces.ts, decision 0172) tells its call once how it ended: written
 * whole, failed part-way, or closed by the writer because the client left, also before the writer
 * asked for its first piece (an async generator's own `finally` would not run then).
 */
import { describe, expect, it } from 'vitest';
import { JsonPieces, piecewiseResponse, type PiecesEnd } from '../../src/server/http/json-pieces.js';

async function* pieces(fail = false): AsyncGenerator<string> {
  yield '{"a":';
  if (fail) throw new Error('the store went away');
  yield '1}';
}

function answer(fail = false) {
  const ends: PiecesEnd[] = [];
  const response = piecewiseResponse({}, new JsonPieces(pieces(fail)), (end) => ends.push(end), '[', ']');
  return { iterator: response.stream[Symbol.asyncIterator](), ends, response };
}

describe('a piecewise answer', () => {
  it('is a document, written whole between its envelope: done once, as written', async () => {
    const { iterator, ends, response } = answer();
    expect(response.document).toBe(true);
    let text = '';
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
      text += next.value;
    expect(text).toBe('[{"a":1}]');
    await iterator.return?.(undefined);
    expect(ends).toEqual([{ written: true }]);
  });

  it('says it failed when its source throws part-way', async () => {
    const { iterator, ends } = answer(true);
    await iterator.next();
    await iterator.next();
    await expect(iterator.next()).rejects.toThrow('the store went away');
    expect(ends).toEqual([{ error: new Error('the store went away') }]);
  });

  it('says the client left when closed before its first piece, and after one', async () => {
    const early = answer();
    await early.iterator.return?.(undefined);
    expect(early.ends).toEqual([{ gone: true }]);
    const later = answer();
    await later.iterator.next();
    await later.iterator.return?.(undefined);
    expect(later.ends).toEqual([{ gone: true }]);
  });
});
