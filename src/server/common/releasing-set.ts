/**
 * A set of objects that come and go with requests or connections (the node adapter's open streams
 * and sockets), for the same reason as `ReleasingMap` (releasing-map.ts; docs/performance.md,
 * 'Releasing registries'): a V8 Set that gains and loses a member per request leaves superseded
 * hash tables behind that still hold their members, and once they are in the old generation every
 * scavenge keeps those members, and all they reach, alive. Here each member sits in a slot that is
 * emptied before it leaves the Set, so a superseded table holds only empty slots.
 *
 * Measured on the SQLite benchmark server's streaming run: a plain Set of open responses made
 * 2,190-2,230 bytes of every stream end in the old generation; without it, 713.
 */
interface Slot<T> {
  value: T | undefined;
}

/** The members of a set that come and go; see the file comment. */
export class ReleasingSet<T> {
  readonly #slots = new Set<Slot<T>>();

  /** Adds `value`; the returned function removes it again (later calls do nothing). */
  add(value: T): () => void {
    const slot: Slot<T> = { value };
    this.#slots.add(slot);
    return () => {
      slot.value = undefined;
      this.#slots.delete(slot);
    };
  }

  *values(): IterableIterator<T> {
    for (const slot of this.#slots) if (slot.value !== undefined) yield slot.value;
  }
}
