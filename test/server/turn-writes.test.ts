/**
 * docs/performance.md, 'End-of-turn writes': the node adapter writes plain responses together at
 * the end of the event-loop turn, and corks streams until the end of each turn. Driven over real
 * sockets through `createNodeHandler`: responses that became ready together are written in one run
 * of the check phase, a pipelined connection still gets its responses in request order, a response
 * that cannot be written does not hold back the others, and a stream whose events are ready at once
 * leaves in one socket write, in the check phase even when it ends in the turn it began.
 */
import { createServer, type Server } from 'node:http';
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

function app(handle: (request: HttpRequest) => Promise<HttpResponse>): HttpApp {
  return {
    maxBodyBytes: 1024,
    handle,
    setBaseUrl: () => undefined,
    close: () => Promise.resolve(),
  } as HttpApp;
}

const reply = (body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status: 200,
  headers: Object.assign({ 'content-type': 'text/plain' }, headers),
  body,
});

/** Serves `target` with every `res.end` call recorded: which batch of synchronous work, and from where. */
async function serve(target: HttpApp, ends: { path: string; batch: number; fromImmediate: boolean }[]) {
  const handler = createNodeHandler(target);
  let batch = 0;
  let open = false;
  server = createServer((req, res) => {
    const end = res.end.bind(res) as (...args: unknown[]) => unknown;
    res.end = ((...args: unknown[]) => {
      // One batch = one run of synchronous work: the first end of a run opens it, a microtask closes it.
      if (!open) {
        open = true;
        batch++;
        queueMicrotask(() => (open = false));
      }
      ends.push({
        path: req.url ?? '',
        batch,
        fromImmediate: (new Error().stack ?? '').includes('processImmediate'),
      });
      return end(...args);
    }) as typeof res.end;
    handler(req, res);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('plain responses written at the end of the turn (docs/performance.md, "End-of-turn writes")', () => {
  it('writes the responses that became ready together in one run of the check phase', async () => {
    // All three are answered at once, when the third has arrived.
    let release!: () => void;
    const allIn = new Promise<void>((done) => (release = done));
    let arrived = 0;
    const ends: { path: string; batch: number; fromImmediate: boolean }[] = [];
    const base = await serve(
      app(async (request) => {
        if (++arrived === 3) release();
        await allIn;
        return reply(`answer ${request.path}`);
      }),
      ends,
    );
    const bodies = await Promise.all(
      ['/a', '/b', '/c'].map(async (path) =>
        (await fetch(base + path, { method: 'POST', body: '{}' })).text(),
      ),
    );
    expect(bodies).toEqual(['answer /a', 'answer /b', 'answer /c']);
    expect(ends.map((end) => end.path).sort()).toEqual(['/a', '/b', '/c']);
    expect(ends.every((end) => end.fromImmediate)).toBe(true);
    expect(new Set(ends.map((end) => end.batch)).size).toBe(1);
  });

  it('keeps request order on a pipelined connection, even when a later answer is ready first', async () => {
    const base = await serve(
      app(async (request) => {
        if (request.path === '/slow') await new Promise((done) => setTimeout(done, 30));
        return reply(request.path);
      }),
      [],
    );
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.write(
      'POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}' +
        'POST /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
    );
    await new Promise<void>((done) => {
      const check = (): void => {
        if (received.includes('/fast')) done();
        else setTimeout(check, 5);
      };
      check();
    });
    socket.destroy();
    expect(received.indexOf('/slow')).toBeGreaterThan(-1);
    expect(received.indexOf('/slow')).toBeLessThan(received.indexOf('/fast'));
  });

  it('a response that cannot be written is cut off without holding back the rest of its turn', async () => {
    let release!: () => void;
    const bothIn = new Promise<void>((done) => (release = done));
    let arrived = 0;
    const base = await serve(
      app(async (request) => {
        if (++arrived === 2) release();
        await bothIn;
        // A header value with a line break makes writeHead throw (ERR_INVALID_CHAR).
        return request.path === '/bad' ? reply('never', { 'x-broken': 'a\nb' }) : reply('fine');
      }),
      [],
    );
    const [bad, good] = await Promise.allSettled([
      fetch(base + '/bad', { method: 'POST', body: '{}' }),
      fetch(base + '/good', { method: 'POST', body: '{}' }),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    expect(await (good as PromiseFulfilledResult<Response>).value.text()).toBe('fine');
  });

  it('sends a stream whose events are ready together in one socket write, headers included', async () => {
    let writes = 0;
    const handler = createNodeHandler(
      app(async () => ({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        stream: (async function* () {
          yield 'data: one\n\n';
          yield 'data: two\n\n';
          yield 'data: three\n\n';
        })(),
      })),
    );
    server = createServer((req, res) => {
      // Count what reaches the kernel: one call to _write or _writev per flush of the socket.
      const socket = req.socket as unknown as {
        _write: (...a: unknown[]) => unknown;
        _writev: (...a: unknown[]) => unknown;
      };
      for (const name of ['_write', '_writev'] as const) {
        const original = socket[name].bind(socket);
        socket[name] = (...args: unknown[]) => {
          writes++;
          return original(...args);
        };
      }
      handler(req, res);
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      body: '{}',
    });
    expect(await response.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    expect(writes).toBe(1);
  });

  it("writes streams that end in the turn they began with the turn's other writes, in the check phase", async () => {
    // node's res.end() uncorks at once; a quick stream ended there would leave on its own, in the
    // middle of the turn, instead of with the turn's other answers.
    let release!: () => void;
    const bothIn = new Promise<void>((done) => (release = done));
    let arrived = 0;
    const writes: { fromImmediate: boolean; batch: number }[] = [];
    let batch = 0;
    let open = false;
    const handler = createNodeHandler(
      app(async () => {
        if (++arrived === 2) release();
        await bothIn;
        return {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          stream: (async function* () {
            yield 'data: one\n\n';
            yield 'data: two\n\n';
          })(),
        };
      }),
    );
    server = createServer((req, res) => {
      const socket = req.socket as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
      for (const name of ['_write', '_writev'] as const) {
        const original = socket[name].bind(socket);
        socket[name] = (...args: unknown[]) => {
          if (!open) {
            open = true;
            batch++;
            queueMicrotask(() => (open = false));
          }
          writes.push({ fromImmediate: (new Error().stack ?? '').includes('processImmediate'), batch });
          return original(...args);
        };
      }
      handler(req, res);
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bodies = await Promise.all(
      ['/a', '/b'].map(async (path) => (await fetch(base + path, { method: 'POST', body: '{}' })).text()),
    );
    expect(bodies).toEqual(['data: one\n\ndata: two\n\n', 'data: one\n\ndata: two\n\n']);
    // One write a stream, headers, events and the last chunk together, both in one check phase.
    expect(writes).toHaveLength(2);
    expect(writes.every((write) => write.fromImmediate)).toBe(true);
    expect(new Set(writes.map((write) => write.batch)).size).toBe(1);
  });
});
