/**
 * Text kept outside the JavaScript heap, for the in-memory store's finished tasks
 * (docs/performance.md, 'Frozen memory-store tasks').
 *
 * A finished task never changes again, but kept as live objects it costs the garbage collector
 * for as long as it is kept: some twenty objects per task, copied into the old generation and
 * marked by every full collection, and V8 lets the old generation grow to up to four times what it
 * holds before collecting it. Written as UTF-8 into large shared buffers, the same task is a
 * thousand-odd bytes that the collector never looks at.
 *
 * Texts are appended to the current slab. A slab counts the texts it holds that were not released;
 * once that reaches zero (and it is no longer the slab being filled) it is kept for reuse, so in a
 * steady state no buffer is allocated and none waits for a full collection to be freed. The store
 * forgets tasks roughly in the order they finished, so slabs empty roughly in order too.
 */

/** One buffer, how much of it is written, and how many of its texts are still held. */
export class Slab {
  used = 0;
  live = 0;

  constructor(readonly bytes: Buffer) {}
}

/** Where a text was put: its slab, first byte and length in bytes. */
export interface TextPlace {
  readonly slab: Slab;
  readonly at: number;
  readonly length: number;
}

/** Slabs of this size; a text over a quarter of it gets a buffer of its own. */
export const SLAB_BYTES = 1 << 20;

/** Emptied slabs kept for reuse; beyond these, an emptied slab is left to the collector. */
const SPARE_SLABS = 2;

/** Appends texts to slabs and reads them back; see the file comment. */
export class TextArchive {
  private current: Slab | undefined;
  private readonly spare: Slab[] = [];

  /**
   * Stores `text`, whose UTF-8 length is `length` (measured here unless the caller knows it); it
   * stays readable until its place is released.
   */
  put(text: string, length = Buffer.byteLength(text, 'utf8')): TextPlace {
    let slab = this.current;
    if (slab === undefined || slab.used + length > slab.bytes.length) {
      if (length > SLAB_BYTES / 4) {
        // The current slab stays current.
        slab = newSlab(length);
      } else if (slab !== undefined && slab.live === 0) {
        // Everything in it was released already: start it over.
        slab.used = 0;
      } else {
        slab = this.current = this.spare.pop() ?? newSlab(SLAB_BYTES);
      }
    }
    const at = slab.used;
    slab.bytes.write(text, at, length, 'utf8');
    slab.used = at + length;
    slab.live++;
    return { slab, at, length };
  }

  /** The text at `place`, or the part of it between byte offsets `from` and `to`. */
  read(place: TextPlace, from = 0, to = place.length): string {
    return place.slab.bytes.toString('utf8', place.at + from, place.at + to);
  }

  /** Gives the text's room back. Call it once per place, and never read the place again. */
  release(place: TextPlace): void {
    const { slab } = place;
    if (--slab.live > 0 || slab === this.current) return;
    if (slab.bytes.length === SLAB_BYTES && this.spare.length < SPARE_SLABS) {
      slab.used = 0;
      this.spare.push(slab);
    }
  }
}

function newSlab(bytes: number): Slab {
  // allocUnsafeSlow: a buffer of its own, outside Node's shared 8 KiB pool. Only bytes written by
  // `put` are ever read back.
  return new Slab(Buffer.allocUnsafeSlow(bytes));
}
