/**
 * Identifiers Concord generates (task, context, message and artifact ids): UUID version 7
 * (RFC 9562 §5.7), a 48-bit Unix-millisecond timestamp followed by random bits.
 *
 * Why not `crypto.randomUUID()` (version 4): ids that grow with time land at the end of every
 * index they key (the task table, the event log, the context index), so a store appends instead of
 * writing a random page per task. On SQLite that is the difference between a handful of dirty pages
 * per transaction and one per task per index (decision 0009). Why not the `uuid` package: its v7
 * draws fresh randomness per call and measured ~5 µs an id here, ten times randomUUID; this one
 * draws from a pooled buffer and costs about as much as randomUUID.
 *
 * Within one millisecond, ids stay strictly increasing: `rand_a` holds a counter that starts at a
 * random value each millisecond (RFC 9562 §6.2, method 1); if it runs out, the timestamp is moved
 * one millisecond ahead (§6.2 allows this) rather than repeating or going backwards.
 */
import { randomFillSync } from 'node:crypto';

// ASCII hex digits of every byte value: HEX_DIGITS[2 * b] and HEX_DIGITS[2 * b + 1].
const HEX_DIGITS = Buffer.from(
  Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
  'latin1',
);

// 8 random bytes per id (rand_b, minus the variant bits) plus 2 for the counter's start.
const POOL_IDS = 512;
const pool = Buffer.allocUnsafe(POOL_IDS * 10);
let offset = pool.length;

let lastMs = -1;
let counter = 0;

// The id is written here, then read out as one string. Joining 20 pieces with `+` made 19
// intermediate cons strings per id, about 470 bytes of heap that lived as long as the id did (a
// store keeps several ids per task) until V8 flattened it; one latin1 read makes a flat 36-byte
// string and half the work (docs/performance.md, 'Shared hidden classes').
const text = Buffer.alloc(36);
text[8] = text[13] = text[18] = text[23] = 0x2d; // '-'

function nextBytes(): number {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += 10;
  return at;
}

/** Writes `byte` as two hex digits at `position` of `text`. */
function hex(position: number, byte: number): void {
  text[position] = HEX_DIGITS[2 * byte]!;
  text[position + 1] = HEX_DIGITS[2 * byte + 1]!;
}

/** A new UUIDv7 string, greater than every id this process generated before. */
export function newId(): string {
  const at = nextBytes();
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    // Start below half the range so a burst of 2048+ ids in one millisecond still fits.
    counter = ((pool[at + 8]! << 8) | pool[at + 9]!) & 0x7ff;
  } else {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
    ms = lastMs;
  }
  // 48-bit timestamp as 12 hex digits: high 16 bits and low 32 bits separately (no BigInt).
  const high = Math.floor(ms / 0x100000000);
  const low = ms >>> 0;
  hex(0, (high >>> 8) & 0xff);
  hex(2, high & 0xff);
  hex(4, low >>> 24);
  hex(6, (low >>> 16) & 0xff);
  hex(9, (low >>> 8) & 0xff);
  hex(11, low & 0xff);
  hex(14, 0x70 | (counter >>> 8));
  hex(16, counter & 0xff);
  hex(19, 0x80 | (pool[at]! & 0x3f));
  hex(21, pool[at + 1]!);
  for (let i = 0; i < 6; i++) hex(24 + 2 * i, pool[at + 2 + i]!);
  return text.toString('latin1', 0, 36);
}
