/**
 * A Map for entries that come and go with requests (live runs, in-flight sends, stream topics):
 * each value sits in a small slot, and `delete` empties the slot before removing the entry.
 *
 * Why (docs/performance.md, 'Releasing registries'): V8 grows and compacts a Map by copying it into
 * a new hash table, and the old table keeps its entries and a link to the new one (live iterators
 * follow that link). Once the long-lived Map is in the old generation, its old tables are too, and
 * the scavenger treats every old-to-young pointer as live until a full mark-compact: each
 * superseded table keeps the values it held, and the tables after it, alive. A Map that sees one
 * set and one delete per request so drags every request's whole object graph into the old
 * generation: twice the copying per scavenge, and an old space that grows by kilobytes per request
 * until the next full GC. With the value behind an emptied slot, a superseded table holds only
 * slots and keys.
 */
interface Slot<V> {
  value: V | undefined;
}

/** The subset of Map that the server's registries use; see the file comment. */
export class ReleasingMap<K, V> {
  readonly #slots = new Map<K, Slot<V>>();

  get(key: K): V | undefined {
    return this.#slots.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#slots.has(key);
  }

  set(key: K, value: V): this {
    const slot = this.#slots.get(key);
    if (slot === undefined) this.#slots.set(key, { value });
    else slot.value = value;
    return this;
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    slot.value = undefined;
    return this.#slots.delete(key);
  }

  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.#slots) yield [key, slot.value as V];
  }
}
