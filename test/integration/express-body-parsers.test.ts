// a2aExpress behind Express's body parsers (decision 0146): `express.json()` mounted in
// front read the stream, and every JSON-RPC call waited for a body that had already gone. The
// parsed body is used, within the server's body limit; a stream read with nothing left fails at
// once with an error that says what to change.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { a2aExpress } from '../../src/server/adapters/express.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

type Json = Record<string, unknown>;

let server: Server;
let url: string;

/** Reads the stream to its end and leaves nothing behind, as a careless logging middleware might. */
const swallow: RequestHandler = (req, _res, next) => {
  req.on('data', () => undefined);
  req.on('end', () => next());
};

beforeAll(async () => {
  const a2a = () =>
    createA2AServer({ agentCard: echo.agentCard, executor: echo.executor, maxBodyBytes: 4096 });
  const app = express();
  app.use('/json', express.json({ limit: '1mb' }), a2aExpress(a2a()));
  app.use('/text', express.text({ type: '*/*' }), a2aExpress(a2a()));
  app.use('/raw', express.raw({ type: '*/*' }), a2aExpress(a2a()));
  app.use('/swallowed', swallow, a2aExpress(a2a()));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function rpc(path: string, text: string, extra: Json = {}, chunked = false): Promise<Response> {
  const json = JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'SendMessage',
    params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text }] }, ...extra },
  });
  // A streamed body goes out chunked, without a content-length to refuse it by.
  const body = chunked ? new Blob([json]).stream() : json;
  return fetch(`${url}${path}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body,
    signal: AbortSignal.timeout(5_000),
    ...(chunked ? { duplex: 'half' } : {}),
  } as RequestInit);
}

describe('a2aExpress after a body parser', () => {
  it('answers JSON-RPC and REST calls whose body express.json() parsed', async () => {
    const res = await rpc('json', 'parsed first');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; result: Json };
    expect(body.id).toBe(3);
    expect(JSON.stringify(body.result)).toContain('echo: parsed first');
    const rest = await fetch(`${url}json/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'rest' }] } }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(rest.status).toBe(200);
    expect(JSON.stringify(await rest.json())).toContain('echo: rest');
  });

  it('answers when express.text() or express.raw() read the body', async () => {
    for (const path of ['text', 'raw']) {
      const res = await rpc(path, `via ${path}`);
      expect(JSON.stringify(await res.json()), path).toContain(`echo: via ${path}`);
    }
  });

  it("keeps the server's body limit on a parsed body", async () => {
    const res = await rpc('json', 'big', { metadata: { padding: 'x'.repeat(8_000) } }, true);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('fails at once, saying what to change, when the body was read and nothing was left', async () => {
    const res = await rpc('swallowed', 'lost');
    // A JSON-RPC error travels with HTTP 200 (decision 0002); the REST binding's status is 500.
    const body = (await res.json()) as { error: Json };
    expect(body.error).toMatchObject({ code: -32603 });
    expect(body.error.message).toMatch(/mount a2aExpress .* before any middleware that reads bodies/);
    const rest = await fetch(`${url}swallowed/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ message: { messageId: 'm3', role: 'ROLE_USER', parts: [{ text: 'lost' }] } }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(rest.status).toBe(500);
    expect(((await rest.json()) as { error: Json }).error.message).toMatch(/req\.body/);
  });
});
