/**
 * The shared ClusterBus suite against Redis (CONCORD_TEST_REDIS_URL), plus what only this bus
 * has: its subscriber connection comes back after the server killed it, and says so.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedisBus } from '../../src/cluster/redis/index.js';
import { createA2AServer, createCluster, type AgentExecutor } from '../../src/server/index.js';
import { listen } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';
import { eventually, sendText } from '../helpers/a2a-http.js';
import { describeOnRedis, freshKeyPrefix, REDIS_URL, withRedis } from '../helpers/redis.js';
import { busSuite, Inbox } from './bus-suite.js';

/** Kills the subscriber connection of the bus named `clientName`; returns how many it killed. */
function killSubscriber(clientName: string): Promise<number> {
  return withRedis(async (client) => {
    const list = await client.clientList();
    const subscribers = list.filter((c) => c.name === clientName && c.cmd !== 'client|list' && c.sub > 0);
    for (const c of subscribers) await client.clientKill({ filter: 'ID', id: Number(c.id) });
    return subscribers.length;
  });
}

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
        expect(await killSubscriber(clientName)).toBe(1);
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

  describe('after Redis lost its state', () => {
    it('an instance records its live runs again once its subscriber is back', async () => {
      const keyPrefix = freshKeyPrefix();
      const clientName = `concord-rerecord-${randomBytes(4).toString('hex')}`;
      const cluster = createCluster({ bus: createRedisBus({ url: REDIS_URL!, keyPrefix, clientName }) });
      const registry = createRedisBus({ url: REDIS_URL!, keyPrefix });
      await cluster.ready;
      const server = createA2AServer({
        agentCard: echo.agentCard,
        executor: echo.executor as AgentExecutor,
        store: createMemoryTaskStore(),
        cluster,
      });
      const running = await listen(server, { port: 0 });
      try {
        const waiting = await sendText(running.url, 'wait');
        const runner = () => registry.runnerOf('', waiting.id);
        await eventually(runner, (r) => r?.instanceId === cluster.instanceId);
        // A restart without persistence: the run records are gone, and the subscriber drops.
        await withRedis((client) => client.del(`${keyPrefix}runs:`));
        expect(await runner()).toBeUndefined();
        expect(await killSubscriber(clientName)).toBe(1);
        await eventually(runner, (r) => r?.instanceId === cluster.instanceId);
      } finally {
        await running.close();
        await cluster.close();
        await registry.close();
      }
    });
  });
});
