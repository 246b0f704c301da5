// The bytes of the artifacts part, the same in every process: chunk `i` of an artifact is a
// pseudo-random 64 KiB block (a fixed seed) repeated, its first 8 bytes the chunk's index, so
// chunks differ, nothing compresses it, and a receiver can check what it got against a hash it
// computes itself without any of the bytes being sent to it another way.

import { createHash } from 'node:crypto';

const BLOCK = 64 * 1024;
const block = Buffer.alloc(BLOCK);
let seed = 0x2545f491;
for (let i = 0; i < BLOCK; i++) {
  // xorshift32: cheap and the same everywhere
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  block[i] = seed & 0xff;
}

/** Chunk `index` of `chunkBytes` bytes (the last one of an artifact may be shorter: `length`). */
export function chunkBytes(index, length) {
  const chunk = Buffer.allocUnsafe(length);
  for (let at = 0; at < length; at += BLOCK) block.copy(chunk, at, 0, Math.min(BLOCK, length - at));
  chunk.writeBigUInt64BE(BigInt(index), 0);
  return chunk;
}

/** How many chunks an artifact of `totalBytes` takes, and the length of chunk `i`. */
export function chunking(totalBytes, chunkSize) {
  const count = Math.ceil(totalBytes / chunkSize);
  return { count, length: (i) => Math.min(chunkSize, totalBytes - i * chunkSize) };
}

/** The SHA-256 (hex) of the whole artifact, computed chunk by chunk. */
export function expectedHash(totalBytes, chunkSize) {
  const hash = createHash('sha256');
  const { count, length } = chunking(totalBytes, chunkSize);
  for (let i = 0; i < count; i++) hash.update(chunkBytes(i, length(i)));
  return hash.digest('hex');
}
