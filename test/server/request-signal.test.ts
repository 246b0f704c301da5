/**
 * The node adapter's request signal (HttpRequest.signal: "aborted when the client disconnects").
 * It aborts when the answer is cut short, so a stream's producer parked on a subscription is
 * released when its client goes away; an answer written in full leaves it alone, since nothing
 * waits on it any more and the abort's Event cost every stream CPU (docs/performance.md, 'Where the
 * time goes'). Driven over real sockets through `createNodeHandler`.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/server/adapters/node.js';
import type { HttpApp, HttpRequest, HttpResponse } from '../../src/server/http/http-types.js';

let server: Server | undefined;

afterEach(async () => {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((done) => server!.close(done));
  server = undefined;
});

/** Serves `handle`; `closed` resolves when the first response's 'close' has been emitted. */
async function serve(
  handle: (request: HttpRequest) => Promise<HttpResponse>,
): Promise<{ port: number; closed: Promise<void> }> {
  const handler = createNodeHandler({
    maxBodyBytes: 1024,
    handle,
    setBaseUrl: () => undefined,
    close: () => Promise.resolve(),
  } as HttpApp);
  let closedOnce!: () => void;
  const closed = new Promise<void>((done) => (closedOnce = done));
  server = createServer((req, res: ServerResponse) => {
    handler(req, res);
    // Resolved a turn later: every 'close' listener, the adapter's included, has run by then.
    res.once('close', () => setImmediate(closedOnce));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, closed };
}

/** Sends one POST on a raw socket; resolves the socket once `marker` has been received. */
function post(port: number, marker: string): Promise<ReturnType<typeof connect>> {
  const socket = connect(port, '127.0.0.1');
  socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
  let received = '';
  return new Promise((done) => {
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      if (received.includes(marker)) done(socket);
    });
  });
}

function stream(chunks: () => AsyncGenerator<string>): HttpResponse {
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, stream: chunks() };
}

describe('the node adapter request signal', () => {
  it('aborts when the client goes away mid-stream, releasing a producer parked on it', async () => {
    let signal: AbortSignal | undefined;
    let released!: (reason: unknown) => void;
    const producerReleased = new Promise<unknown>((done) => (released = done));
    const { port, closed } = await serve(async (request) => {
      signal = request.signal;
      return stream(async function* () {
        yield 'data: first\n\n';
        // Parked until the call's signal says the exchange is over, as a live subscription is.
        await new Promise<void>((done) => signal!.addEventListener('abort', () => done(), { once: true }));
        released(signal!.reason);
      });
    });
    const socket = await post(port, 'data: first');
    socket.destroy();
    await closed;
    const reason = await producerReleased;
    expect(signal!.aborted).toBe(true);
    expect((reason as DOMException).name).toBe('AbortError');
  });

  it('stays unaborted after a stream written in full', async () => {
    let signal: AbortSignal | undefined;
    const { port, closed } = await serve(async (request) => {
      signal = request.signal;
      return stream(async function* () {
        yield 'data: one\n\n';
        yield 'data: two\n\n';
      });
    });
    const socket = await post(port, '0\r\n\r\n');
    await closed;
    socket.destroy();
    expect(signal).toBeDefined();
    expect(signal!.aborted).toBe(false);
  });

  it('stays unaborted after a plain answer written in full', async () => {
    let signal: AbortSignal | undefined;
    const { port, closed } = await serve(async (request) => {
      signal = request.signal;
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'done' };
    });
    const socket = await post(port, 'done');
    await closed;
    socket.destroy();
    expect(signal!.aborted).toBe(false);
  });
});
