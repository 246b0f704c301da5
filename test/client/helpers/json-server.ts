/** A tiny node:http server answering fixed routes, recording every request (card and token tests). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded request. */
export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A route's answer. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (timeouts). */
  hang?: boolean;
}

/** A running server. */
export interface JsonServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Starts a server; `routes` maps a path to a reply or a function of the request. */
export async function startJsonServer(
  routes: Record<string, Reply | ((request: Recorded) => Reply)>,
): Promise<JsonServer> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const route = routes[(req.url ?? '').split('?')[0] ?? ''];
      const reply =
        typeof route === 'function'
          ? route(recorded)
          : (route ?? { status: 404, body: { error: 'not found' } });
      if (reply.hang === true) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(
        reply.body === undefined
          ? ''
          : typeof reply.body === 'string'
            ? reply.body
            : JSON.stringify(reply.body),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
