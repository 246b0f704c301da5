/**
 * A Bloom filter of the idempotency keys in a SQLite file (docs/performance.md, 'Idempotency-key
 * filter'), so the look-up every send makes before its agent runs (decision 0091) skips SQL when
 * the key is surely new, which is the usual case. A look-up in WAL mode is its own read
 * transaction; under load it cost 5 to 13 µs a send, several percent of the SQLite server's time.
 *
 * The filter answers "surely absent" or "maybe present"; only the first skips SQL, so a false
 * positive costs what every look-up cost before, and keys deleted by retention may stay in the
 * filter. It grows in layers (a scalable Bloom filter): when the newest layer holds its capacity, a
 * layer twice as large is added, so no layer is ever rebuilt. Each layer keeps about 1% false
 * positives and they add up (about 3% at a million keys, in five layers); memory is 1.25 bytes a
 * key of capacity, up to 2.5 bytes a key held. Until the keys already in the file have all been
 * added (`filled`), every answer is "maybe".
 *
 * The filter knows only the keys this process wrote or read, so the store trusts it only while it
 * holds the file's owner lease (store-owner.ts, decision 0119): one SQLite file, one server.
 *
 * The keys of kept replies (table `kept_replies`, decision 0147) are in the same filter: a send
 * looks for a task and a reply under its key, and a surely new key skips both look-ups.
 */
import type Database from 'better-sqlite3';
import { scopedIdempotencyKey } from '../task-store.js';

/** Bits per key and hash functions per layer: a false-positive rate of about 1% per layer. */
const BITS_PER_KEY = 10;
const HASHES = 7;
/** Keys the first layer holds; each further layer holds twice its predecessor, up to the last. */
const FIRST_CAPACITY = 1 << 16;
/** Largest layer: its bit count must stay below 2^32, the range of the probe arithmetic. */
const LAST_CAPACITY = 1 << 28;

/** A UTF-16 code unit that is half of a pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Two independent 32-bit hashes of a string (FNV-1a with two offsets), for double hashing. */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Odd, so the probe sequence visits distinct bits.
  return [a >>> 0, (b | 1) >>> 0];
}

class Layer {
  readonly bits: Uint32Array;
  readonly size: number;
  count = 0;

  constructor(readonly capacity: number) {
    this.size = capacity * BITS_PER_KEY;
    this.bits = new Uint32Array(Math.ceil(this.size / 32));
  }

  add(a: number, b: number): void {
    for (let i = 0; i < HASHES; i++) {
      const bit = (a + Math.imul(i, b)) >>> 0;
      const at = bit % this.size;
      this.bits[at >>> 5]! |= 1 << (at & 31);
    }
    this.count++;
  }

  has(a: number, b: number): boolean {
    for (let i = 0; i < HASHES; i++) {
      const bit = (a + Math.imul(i, b)) >>> 0;
      const at = bit % this.size;
      if ((this.bits[at >>> 5]! & (1 << (at & 31))) === 0) return false;
    }
    return true;
  }
}

/** The filter; see the file comment. Keys are in their scoped form (`scopedIdempotencyKey`). */
export class KeyFilter {
  private readonly layers: Layer[] = [new Layer(FIRST_CAPACITY)];
  /** True once every key of the file is in the filter. */
  filled = false;

  /** Adds a key (a commit that records it, or one read from the file). */
  add(scopedKey: string): void {
    let layer = this.layers[this.layers.length - 1]!;
    if (layer.count >= layer.capacity) {
      layer = new Layer(Math.min(layer.capacity * 2, LAST_CAPACITY));
      this.layers.push(layer);
    }
    const [a, b] = hashes(scopedKey);
    layer.add(a, b);
  }

  /** False only when the key is surely not in the file. */
  mayHold(scopedKey: string): boolean {
    // A lone surrogate has no exact UTF-8 form: SQLite holds other bytes than the filter hashed.
    if (!this.filled || LONE_SURROGATE.test(scopedKey)) return true;
    const [a, b] = hashes(scopedKey);
    for (const layer of this.layers) if (layer.has(a, b)) return true;
    return false;
  }

  /** Bytes the filter holds. */
  get bytes(): number {
    return this.layers.reduce((sum, layer) => sum + layer.bits.byteLength, 0);
  }
}

/** Keys read per event-loop turn while filling, so a large file never holds the loop for long. */
const FILL_CHUNK = 4096;

/** The tables whose (tenant, owner, key) the filter holds, filled in this order. */
const KEY_TABLES = ['idempotency_keys', 'kept_replies'] as const;

/**
 * Adds every key of the file to `filter` (those of each table of KEY_TABLES in turn) in chunks of
 * FILL_CHUNK, one per turn, in key order, then marks it filled. Keys committed meanwhile are added as they are queued, so the filter
 * misses none. A closed database or a failed read stops the fill and leaves the filter unfilled,
 * which only means every look-up keeps going to SQL.
 *
 * The cursor is the last row's exact bytes (CAST to BLOB and back): a key that is not well-formed
 * UTF-16 is stored as bytes that do not read back as the same string, and a cursor made of the
 * read-back string would sort after it and skip the keys in between.
 */
export function fillKeyFilter(db: Database.Database, filter: KeyFilter): void {
  type Row = { tenant: string; owner: string; key: string; t: Buffer; o: Buffer; k: Buffer };
  const columns =
    'tenant, owner, key, CAST(tenant AS BLOB) AS t, CAST(owner AS BLOB) AS o, CAST(key AS BLOB) AS k';
  const reads = KEY_TABLES.map((table) => ({
    first: db.prepare<[number], Row>(`SELECT ${columns} FROM ${table} ORDER BY tenant, owner, key LIMIT ?`),
    next: db.prepare<[Buffer, Buffer, Buffer, number], Row>(
      `SELECT ${columns} FROM ${table}
        WHERE (tenant, owner, key) > (CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT))
        ORDER BY tenant, owner, key LIMIT ?`,
    ),
  }));
  filter.filled = false;
  const step = (table: number, after: Row | undefined): void => {
    if (!db.open) return;
    const { first, next } = reads[table]!;
    let rows: Row[];
    try {
      rows = after === undefined ? first.all(FILL_CHUNK) : next.all(after.t, after.o, after.k, FILL_CHUNK);
    } catch {
      return;
    }
    for (const row of rows) filter.add(scopedIdempotencyKey(row.key, row));
    if (rows.length === FILL_CHUNK) setImmediate(step, table, rows[rows.length - 1]);
    else if (table + 1 < reads.length) setImmediate(step, table + 1, undefined);
    else filter.filled = true;
  };
  step(0, undefined);
}
