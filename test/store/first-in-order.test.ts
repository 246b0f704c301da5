// The bounded heap behind the memory store's ListTasks must agree with a full sort.
import { describe, expect, it } from 'vitest';
import { FirstInOrder } from '../../src/store/memory/first-in-order.js';

describe('FirstInOrder', () => {
  const byValue = (a: number, b: number) => a - b;

  it('keeps the first k items of any input, in order, as a full sort would', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 1000;
    for (const size of [0, 1, 5, 51, 52, 500]) {
      for (const limit of [1, 3, 51]) {
        const items = Array.from({ length: size }, random);
        const first = new FirstInOrder(limit, byValue);
        for (const item of items) first.offer(item);
        expect(first.sorted()).toEqual(items.slice().sort(byValue).slice(0, limit));
      }
    }
  });

  it('handles ascending and descending input (the common insertion orders)', () => {
    const up = Array.from({ length: 200 }, (_, i) => i);
    for (const items of [up, up.slice().reverse()]) {
      const first = new FirstInOrder(10, byValue);
      for (const item of items) first.offer(item);
      expect(first.sorted()).toEqual(up.slice(0, 10));
    }
  });
});
