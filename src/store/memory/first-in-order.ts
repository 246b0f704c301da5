/**
 * The first `k` items of a large unsorted collection in a given order, without sorting it all:
 * a bounded binary heap whose root is the last of the items kept, so most candidates cost one
 * comparison and the rest log2(k). ListTasks needs a page of 50 out of possibly 100k tasks.
 */

/** Collects the first `limit` items offered, by `compare` (negative: `a` comes first). */
export class FirstInOrder<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** Considers one item. */
  offer(item: T): void {
    const { heap, limit } = this;
    if (heap.length < limit) {
      heap.push(item);
      this.up(heap.length - 1);
    } else if (limit > 0 && this.compare(item, heap[0]!) < 0) {
      heap[0] = item;
      this.down(0);
    }
  }

  /** The items kept, in order. */
  sorted(): T[] {
    return this.heap.slice().sort(this.compare);
  }

  // The root is the item that comes last: parents never come before their children.
  private up(i: number): void {
    const { heap } = this;
    const item = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(heap[parent]!, item) >= 0) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = item;
  }

  private down(i: number): void {
    const { heap } = this;
    const n = heap.length;
    const item = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.compare(heap[child + 1]!, heap[child]!) > 0) child++;
      if (this.compare(heap[child]!, item) <= 0) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = item;
  }
}
