// Connections on `listen` (decision 0146): a cap that sheds the oldest silent connection,
// short header and idle timeouts, and node's parser refusals (431, 400, 408) answered in the error
// envelope of the binding the request was for, over real sockets.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { listen, type ListenOptions, type RunningServer } from '../../src/server/adapters/node.js';
import { closedWithin, openSocket, parseResponse, rawExchange, received } from '../helpers/raw-http.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

type Json = Record<string, unknown>;

const running: RunningServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of running.splice(0)) await server.close();
});

async function serve(options: ListenOptions = {}): Promise<string> {
  const a2a = createA2AServer({ agentCard: echo.agentCard, executor: echo.executor });
  const server = await listen(a2a, { port: 0, ...options });
  running.push(server);
  return server.url;
}

async function socketTo(url: string): Promise<Socket> {
  const socket = await openSocket(url);
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

const BIG = 'a'.repeat(20_000);
const SEND_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'SendMessage',
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
});

function errorInfo(details: unknown): Json | undefined {
  return (details as Json[]).find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
}

describe('header fields over the limit', () => {
  it('answers a JSON-RPC call with a JSON-RPC error (1.0: typed details), status 431', async () => {
    const url = await serve();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'x-padding': BIG },
      body: SEND_BODY,
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const error = body.error as Json;
    expect(error.message).toMatch(/header fields exceed the limit of \d+ bytes/);
    expect(errorInfo(error.data)).toMatchObject({ reason: 'HEADERS_TOO_LARGE', domain: 'concord.a2a' });
  });

  it('answers a header-less (0.3) JSON-RPC call in the 0.3 form', async () => {
    const url = await serve();
    const res = await rawExchange(
      url,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Padding: ${BIG}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, data: { reason: 'HEADERS_TOO_LARGE' } },
    });
  });

  it('answers a REST call with the HTTP+JSON error envelope', async () => {
    const url = await serve();
    const res = await fetch(`${url}tasks/abc`, { headers: { 'a2a-version': '1.0', 'x-padding': BIG } });
    expect(res.status).toBe(431);
    const body = (await res.json()) as { error: Json };
    expect(body.error).toMatchObject({ code: 431, status: 'RESOURCE_EXHAUSTED' });
    expect(errorInfo(body.error.details)).toMatchObject({ reason: 'HEADERS_TOO_LARGE' });
  });
});

describe('malformed requests', () => {
  it('answers a request line that is not HTTP with a 400 envelope, not a bare close', async () => {
    const url = await serve();
    const res = await rawExchange(url, 'HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    const body = res.json as { error: Json };
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toMatch(/^Malformed HTTP request: /);
    expect(errorInfo(body.error.details)).toMatchObject({
      reason: 'MALFORMED_HTTP_REQUEST',
      metadata: { parserError: expect.stringMatching(/^HPE_/) as unknown },
    });
  });

  it('answers a bad header on a JSON-RPC call with a JSON-RPC error, status 400', async () => {
    const url = await serve();
    const res = await rawExchange(
      url,
      'POST / HTTP/1.1\r\nHost: x\r\nA2A-Version: 1.0\r\nbad header\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(errorInfo((res.json as { error: Json }).error.data)).toMatchObject({
      reason: 'MALFORMED_HTTP_REQUEST',
    });
  });
});

describe('timeouts', () => {
  it('closes a connection that sends nothing once the header timeout passes, writing nothing', async () => {
    const url = await serve({ headersTimeoutMs: 300 });
    const socket = await socketTo(url);
    const text = received(socket);
    const after = await closedWithin(socket, 2_500);
    expect(after).toBeGreaterThanOrEqual(250);
    expect(await text).toBe('');
  });

  it('answers a request whose headers stall with a 408 envelope', async () => {
    const url = await serve({ headersTimeoutMs: 300 });
    const socket = await socketTo(url);
    const text = received(socket);
    socket.write('GET /tasks/abc HTTP/1.1\r\nHost: x\r\n');
    await closedWithin(socket, 2_500);
    const res = parseResponse(await text);
    expect(res.status).toBe(408);
    const body = res.json as { error: Json };
    expect(body.error).toMatchObject({ code: 408, status: 'DEADLINE_EXCEEDED' });
    expect(body.error.message).toContain('headers within 300 ms');
  });

  it('closes a keep-alive connection idle between requests after the idle timeout', async () => {
    const url = await serve({ idleTimeoutMs: 200 });
    const socket = await socketTo(url);
    const text = received(socket);
    socket.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\n\r\n');
    const after = await closedWithin(socket, 2_000);
    expect(after).toBeGreaterThanOrEqual(150);
    expect(await text).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses options that cannot work', async () => {
    const a2a = createA2AServer({ agentCard: echo.agentCard, executor: echo.executor });
    await expect(listen(a2a, { port: 0, headersTimeoutMs: 60_000 })).rejects.toThrow(
      /headersTimeoutMs \(60000\) exceeds requestTimeoutMs \(30000\)/,
    );
    await expect(listen(a2a, { port: 0, maxConnections: 0 })).rejects.toThrow(
      /maxConnections: expected a positive integer, got 0/,
    );
  });
});

describe('the connection cap', () => {
  it('sheds the oldest silent connections, so a real request is served past the cap', async () => {
    const url = await serve({ maxConnections: 20 });
    const idle: Socket[] = [];
    for (let i = 0; i < 60; i++) idle.push(await socketTo(url));
    const res = await fetch(`${url}.well-known/agent-card.json`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    // The first 41 were shed, oldest first (20 kept, one of them fetch's): the newest still wait.
    await closedWithin(idle[0]!, 1_000);
    await closedWithin(idle[40]!, 1_000);
    expect(idle.slice(45).every((socket) => !socket.closed)).toBe(true);
  });

  it('closes a new connection when every kept one has spoken', async () => {
    const url = await serve({ maxConnections: 5 });
    const talking: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const socket = await socketTo(url);
      socket.write('GET / HTTP/1.1\r\n');
      talking.push(socket);
    }
    // Let the server read what they sent.
    await new Promise((r) => setTimeout(r, 100));
    const late = await socketTo(url);
    await closedWithin(late, 1_000);
    expect(talking.every((socket) => !socket.closed)).toBe(true);
  });
});
