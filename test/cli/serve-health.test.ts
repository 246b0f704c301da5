/**
 * `/healthz` and `/readyz` of `concord serve` (decision 0158). On PostgreSQL, through a TCP proxy
 * the test cuts and restores (the machine's PostgreSQL is never stopped): readyz is 503 while the
 * database cannot be reached, and 200 again once it can (the store answers at its schema version
 * and the cluster bus has reconnected its LISTEN session). Loopback callers get the details; the
 * probes need no credentials. Also: readyz turns 503 as soon as a stop begins.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL, withTestClient } from '../helpers/postgres.js';
import { sendText, serve } from './serve-helpers.js';

/** A TCP proxy to `target` that can refuse and cut every connection, then let them through again. */
async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function probe(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('concord serve health', () => {
  it('answers /healthz and /readyz without credentials, details only to a loopback caller', async () => {
    const served = await serve(['examples/echo', '--port', '0', '--store', 'memory']);
    try {
      expect(await probe(`${served.url}healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await probe(`${served.url}readyz`)).toEqual({ status: 200, body: { status: 'ok', checks: {} } });
      // A proxied caller is not told the details, even from loopback.
      const proxied = await fetch(`${served.url}readyz`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(await proxied.json()).toEqual({ status: 'ok' });
      expect((await fetch(`${served.url}readyz`, { method: 'POST' })).status).toBe(405);
      // The agent still answers at the root.
      expect((await sendText(served.url, 'hello')).status).toBe(200);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});

describe.skipIf(POSTGRES_URL === undefined)(
  `concord serve /readyz on PostgreSQL${POSTGRES_SKIP_NOTE}`,
  () => {
    const schema = freshSchema();
    afterAll(async () => {
      await withTestClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    });

    it('is 503 while PostgreSQL is unreachable and 200 once it is back', { timeout: 60_000 }, async () => {
      const real = new URL(POSTGRES_URL!);
      const proxy = await tcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
      const viaProxy = new URL(POSTGRES_URL!);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const served = await serve([
        'examples/echo',
        '--port',
        '0',
        '--store',
        'postgres',
        '--database-url',
        viaProxy.toString(),
        '--database-schema',
        schema,
      ]);
      try {
        const ready = `${served.url}readyz`;
        await expect.poll(async () => (await probe(ready)).status, { timeout: 10_000 }).toBe(200);
        expect((await probe(ready)).body).toEqual({ status: 'ok', checks: { store: 'ok', cluster: 'ok' } });

        proxy.cut();
        await expect
          .poll(async () => (await probe(ready)).status, { timeout: 15_000, interval: 250 })
          .toBe(503);
        const down = await probe(ready);
        expect(down.body.status).toBe('unavailable');
        expect((down.body.checks as Record<string, string>).store).not.toBe('ok');
        // Liveness is not readiness: the process still serves.
        expect((await probe(`${served.url}healthz`)).status).toBe(200);

        proxy.restore();
        await expect
          .poll(async () => (await probe(ready)).status, { timeout: 30_000, interval: 250 })
          .toBe(200);
        expect((await sendText(served.url, 'back again')).status).toBe(200);
      } finally {
        await served.stop();
        proxy.cut();
        await proxy.close();
      }
    });
  },
);
