/**
 * Transport behaviour over real sockets: the express middleware, graceful shutdown that lets
 * in-flight requests finish, SSE heartbeats, and several concurrent streams of one task seeing
 * the same events in the same order (A2A 1.0 §3.5.2).
 */
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { a2aExpress } from '../../src/server/adapters/express.js';
import { SseDecoder } from '../../src/protocol/internal.js';
import { jsonRpcDriver, ok, restDriver, taskOf, userText } from '../helpers/drivers.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { readSse } from '../helpers/sse-client.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

describe('express middleware', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = express();
    app.get('/health', (_req, res) => {
      res.send('ok');
    });
    const a2a = createA2AServer({
      agentCard: echo.agentCard,
      executor: echo.executor,
      baseUrl: 'http://placeholder/agent/',
    });
    app.use('/agent', a2aExpress(a2a));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    close = () => new Promise((r) => server.close(() => r()));
  });
  afterAll(() => close());

  it('serves A2A under the mount path and leaves the rest of the app alone', async () => {
    expect(await (await fetch(`${url}health`)).text()).toBe('ok');
    const task = taskOf(await restDriver(`${url}agent/`, '1.0').send(userText('via express')));
    expect(task.artifacts![0]!.parts[0]!.text).toBe('echo: via express');
    const rpc = taskOf(await jsonRpcDriver(`${url}agent/`, '0.3').send(userText('rpc via express')));
    expect(rpc.status.state).toBe('TASK_STATE_COMPLETED');
    const card = await fetch(`${url}agent/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    const stream = await readSse(`${url}agent/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ message: userText('stream 2') }),
    });
    expect(stream.events).toHaveLength(5); // task, working, chunk, chunk, completed
  });
});

describe('streams and shutdown on node:http', () => {
  let server: EchoServer;
  beforeAll(async () => {
    server = await startEcho({ heartbeatMs: 50 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends heartbeats on an idle stream', async () => {
    const driver = restDriver(server.url, '1.0');
    const task = taskOf(await driver.send(userText('wait'), { returnImmediately: true }));
    const read = readSse(
      `${server.url}tasks/${task.id}:subscribe`,
      { method: 'POST', headers: { 'a2a-version': '1.0' } },
      { timeoutMs: 400 },
    );
    await new Promise((r) => setTimeout(r, 250));
    ok(await driver.cancelTask(task.id));
    const result = await read;
    expect(result.raw).toContain(': keep-alive');
    expect(result.closedByServer).toBe(true);
    const states = result.events.map(
      (e) => JSON.parse(e.data) as Record<string, { status?: { state: string } }>,
    );
    expect(states.at(-1)!.statusUpdate!.status!.state).toBe('TASK_STATE_CANCELED');
  });

  it('gives every concurrent stream of a task the same events in the same order', async () => {
    const driver = jsonRpcDriver(server.url, '1.0');
    const task = taskOf(await driver.send(userText('stream 4'), { returnImmediately: true }));
    const subscribers = await Promise.all(
      [1, 2, 3].map(() => restDriver(server.url, '1.0').subscribe(task.id, { lastEventId: '0' })),
    );
    const logs = subscribers.map((s) => s.items.map((i) => `${i.id}:${JSON.stringify(i.event)}`));
    expect(logs[0]!.length).toBeGreaterThanOrEqual(7); // task, working, 4 chunks, completed
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[2]).toEqual(logs[0]);
  });

  it('finishes in-flight requests on graceful shutdown', async () => {
    const own = await startEcho();
    const pending = restDriver(own.url, '1.0').send(userText('stream 5'));
    await new Promise((r) => setTimeout(r, 100));
    const closing = own.close();
    const task = taskOf(await pending);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts![0]!.parts).toHaveLength(5);
    await closing;
    await expect(fetch(own.url)).rejects.toThrow();
  });

  it('closes, on shutdown, a connection that never sent a request instead of waiting out the grace', async () => {
    // fetch clients open such spare connections; node's closeIdleConnections leaves them open, and
    // before this a shutdown waited for the client to drop them (seconds) or for the grace (10 s).
    const own = await startEcho();
    const url = new URL(own.url);
    const accepted = new Promise<void>((resolve) => own.running.server.once('connection', () => resolve()));
    const idle = connect(Number(url.port), url.hostname);
    const dropped = new Promise<void>((resolve) => idle.once('close', () => resolve()));
    idle.on('error', () => undefined);
    await accepted;
    await own.close();
    await dropped;
    expect(idle.destroyed).toBe(true);
  }, 5_000);

  it('decodes SSE split at any byte boundary', () => {
    const text = 'id: 1\ndata: {"a":1}\n\n: ping\n\nid: 2\r\ndata: {"b":\r\ndata: 2}\r\n\r\n';
    for (let cut = 0; cut < text.length; cut++) {
      const decoder = new SseDecoder();
      const events = [...decoder.push(text.slice(0, cut)), ...decoder.push(text.slice(cut))];
      expect(events).toEqual([
        { id: '1', data: '{"a":1}' },
        { id: '2', data: '{"b":\n2}' },
      ]);
    }
  });
});
