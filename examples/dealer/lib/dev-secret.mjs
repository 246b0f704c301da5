// @ts-check
/**
 * The dealer's development secret, used when DEALER_JWT_SECRET is not set. It is kept in the data
 * directory (`dealer-jwt-secret`, readable by its owner only), so the development token printed at
 * start stays valid for its 24 hours across restarts on the same data directory. With the memory
 * store nothing is kept: the secret, and every token signed with it, lasts as long as the process.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file the secret is kept in, inside the data directory. */
export const DEV_SECRET_FILE = 'dealer-jwt-secret';

/**
 * The development secret: read from `dataDir` when kept there, else made (and kept, unless
 * `dataDir` is undefined). `persisted` says whether it outlives the process.
 * @param {string | undefined} dataDir
 * @returns {{ secret: string, persisted: boolean }}
 */
export function developmentSecret(dataDir) {
  if (dataDir === undefined) return { secret: randomBytes(32).toString('hex'), persisted: false };
  const file = join(dataDir, DEV_SECRET_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(kept)) {
      // Someone may have loosened it; a secret others can read lets them mint tokens.
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { secret: kept, persisted: true };
    }
    throw new Error(`${file}: not a development secret (64 hex digits); delete it to make a new one`);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  // `wx`: never overwrite a secret another process just wrote; mode 0600 from the first byte.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'EEXIST') return developmentSecret(dataDir);
    throw error;
  }
  return { secret, persisted: true };
}
