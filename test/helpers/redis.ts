/**
 * Redis for tests. They run when CONCORD_TEST_REDIS_URL is set and say they were skipped
 * otherwise. Each cluster a test makes uses a key prefix of its own, and every key under the
 * file's prefixes is deleted when the file ends, so parallel test files never collide.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, describe, it } from 'vitest';

/** The test Redis URL, or undefined when Redis tests are off. */
export const REDIS_URL = process.env.CONCORD_TEST_REDIS_URL || undefined;

/** Appended to a test name when Redis is off, so the skip says why. */
export const REDIS_SKIP_NOTE =
  REDIS_URL === undefined ? ' (skipped: set CONCORD_TEST_REDIS_URL to run against Redis)' : '';

const filePrefix = `concord-test:${process.pid}:${randomBytes(3).toString('hex')}`;
let counter = 0;

/** A key prefix no other test (file) uses. */
export function freshKeyPrefix(): string {
  return `${filePrefix}:${++counter}:`;
}

type TestClient = ReturnType<typeof testClient>;
const testClient = () => createClient({ url: REDIS_URL! });

/** Runs commands on a client of the test Redis (setup and inspection only). */
export async function withRedis<T>(work: (client: TestClient) => Promise<T>): Promise<T> {
  const client = testClient();
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

afterAll(async () => {
  if (REDIS_URL === undefined || counter === 0) return;
  await withRedis(async (client) => {
    for await (const keys of client.scanIterator({ MATCH: `${filePrefix}:*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  });
});

/** Registers tests against Redis, or one skipped test saying why when it is off. */
export function describeOnRedis(name: string, register: () => void): void {
  if (REDIS_URL === undefined) {
    describe(name, () => {
      it.skip(`runs against Redis${REDIS_SKIP_NOTE}`, () => {});
    });
  } else register();
}
