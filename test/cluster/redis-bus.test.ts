/**
 * The shared ClusterBus suite against Redis (CONCORD_TEST_REDIS_URL), plus what only this bus
 * has: its subscriber connection comes back after the server killed it, and says so.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedisBus } from '../../src/cluster/redis/index.js';
import { describeOnRedis, freshKeyPrefix, REDIS_URL, withRedis } from '../helpers/redis.js';
import { busSuite, Inbox } from './bus-suite.js';

describeOnRedis('Redis cluster bus', () => {
  busSuite('Redis', () => {
    const keyPrefix = freshKeyPrefix();
    return () => createRedisBus({ url: REDIS_URL!, keyPrefix });
  });

  describe('subscriber connection', () => {
    it('reconnects after the server kills it, reports the gap, and delivers again', async () => {
      const keyPrefix = freshKeyPrefix();
      const clientName = `concord-bus-test-${randomBytes(4).toString('hex')}`;
      const listening = createRedisBus({ url: REDIS_URL!, keyPrefix, clientName });
      const sender = createRedisBus({ url: REDIS_URL!, keyPrefix });
      const inbox = new Inbox();
      try {
        await listening.open(inbox);
        await sender.publish({ type: 'committed', agent: '', taskId: 'before', version: 1, from: 'S' });
        await inbox.waitFor((m) => m.taskId === 'before');
        const killed = await withRedis(async (client) => {
          const list = await client.clientList();
          const subscribers = list.filter(
            (c) => c.name === clientName && c.cmd !== 'client|list' && c.sub > 0,
          );
          for (const c of subscribers) await client.clientKill({ filter: 'ID', id: Number(c.id) });
          return subscribers.length;
        });
        expect(killed).toBe(1);
        const until = Date.now() + 10_000;
        while (inbox.reconnects === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        expect(inbox.reconnects).toBe(1);
        await sender.publish({ type: 'committed', agent: '', taskId: 'after', version: 2, from: 'S' });
        await inbox.waitFor((m) => m.taskId === 'after');
      } finally {
        await listening.close();
        await sender.close();
      }
    });
  });
});
