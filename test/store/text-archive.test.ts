// The memory store's off-heap text archive (docs/performance.md, 'Frozen memory-store tasks'): round
// trips, slab reuse, large texts.
import { describe, expect, it } from 'vitest';
import { SLAB_BYTES, TextArchive } from '../../src/store/memory/text-archive.js';

describe('TextArchive', () => {
  it('reads back what was put, whole or by byte range, in any script', () => {
    const archive = new TextArchive();
    const first = archive.put('{"a":1}');
    const second = archive.put('é漢字🙂 — ok');
    expect(archive.read(first)).toBe('{"a":1}');
    expect(archive.read(second)).toBe('é漢字🙂 — ok');
    // Byte offsets: "é" is two bytes, "漢字" six, "🙂" four.
    expect(archive.read(second, 0, 2)).toBe('é');
    expect(archive.read(second, 2, 8)).toBe('漢字');
    expect(archive.read(second, 8)).toBe('🙂 — ok');
    expect(second.slab).toBe(first.slab);
    expect(second.at).toBe(first.length);
  });

  it('reuses a slab once every text in it was released, and never one still in use', () => {
    const archive = new TextArchive();
    const text = 'x'.repeat(SLAB_BYTES / 8);
    const firstSlab = Array.from({ length: 8 }, () => archive.put(text));
    // The ninth text does not fit: a second slab.
    const ninth = archive.put(text);
    expect(ninth.slab).not.toBe(firstSlab[0]!.slab);
    // Seven of eight released: the first slab still holds a text, so it is not handed out again.
    for (const place of firstSlab.slice(0, 7)) archive.release(place);
    const secondSlab = [ninth, ...Array.from({ length: 7 }, () => archive.put(text))];
    const third = archive.put(text);
    expect(third.slab).not.toBe(firstSlab[0]!.slab);
    expect(archive.read(firstSlab[7]!)).toBe(text);
    // Its last text released: the next slab needed is that one, and what it held is overwritten.
    archive.release(firstSlab[7]!);
    for (const place of secondSlab) archive.release(place);
    for (let i = 0; i < 7; i++) archive.put('y'.repeat(SLAB_BYTES / 8));
    const reused = archive.put('z'.repeat(SLAB_BYTES / 8));
    expect([firstSlab[0]!.slab, ninth.slab]).toContain(reused.slab);
    expect(archive.read(reused)).toBe('z'.repeat(SLAB_BYTES / 8));
    expect(archive.read(third)).toBe(text);
  });

  it('starts the current slab over when everything in it was released', () => {
    const archive = new TextArchive();
    const big = 'q'.repeat(SLAB_BYTES / 4);
    const places = Array.from({ length: 4 }, () => archive.put(big));
    for (const place of places) archive.release(place);
    const next = archive.put(big);
    expect(next.slab).toBe(places[0]!.slab);
    expect(next.at).toBe(0);
  });

  it('gives a text over a quarter of a slab a buffer of its own, leaving the current slab current', () => {
    const archive = new TextArchive();
    const small = archive.put('small');
    const large = archive.put('L'.repeat(SLAB_BYTES * 2));
    expect(large.slab).not.toBe(small.slab);
    expect(large.slab.bytes.length).toBe(SLAB_BYTES * 2);
    expect(archive.read(large)).toHaveLength(SLAB_BYTES * 2);
    expect(archive.put('next').slab).toBe(small.slab);
    archive.release(large);
    expect(archive.read(small)).toBe('small');
  });
});
