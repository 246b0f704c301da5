/**
 * A deliberately broken A2A server for the `concord check` tests: a node:http proxy in front of a
 * good agent that breaks one thing on purpose (rewrites a request, an answer, or the SSE frames).
 * Every URL of the upstream in an answer (the card's interfaces) is rewritten to the proxy, so a
 * client that follows the card stays on the broken server.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy received it; hooks may change it before it goes upstream. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A buffered (non-SSE) answer; hooks may change it before it goes back. */
export interface ProxiedAnswer {
  status: number;
  body: string;
}

/** What to break. */
export interface Breakage {
  request?(request: ProxiedRequest): void;
  answer?(request: ProxiedRequest, answer: ProxiedAnswer): void;
  /** Rewrites each chunk of an event stream. */
  sse?(chunk: string): string;
}

/** A running proxy. */
export interface BreakingProxy {
  url: string;
  close(): Promise<void>;
}

function read(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
}

/** Starts a proxy to `upstream` (a base URL ending in `/`) that applies `breakage`. */
export async function startBreakingProxy(upstream: string, breakage: Breakage): Promise<BreakingProxy> {
  const target = new URL(upstream);
  const origin = target.origin;
  let self = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      const request: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: { ...req.headers },
        body: await read(req),
      };
      breakage.request?.(request);
      const headers = { ...request.headers, host: target.host };
      delete headers['content-length'];
      const outgoing = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.path,
          headers,
          agent: false,
        },
        (answer) => {
          const type = String(answer.headers['content-type'] ?? '');
          const passed = { ...answer.headers };
          delete passed['content-length'];
          delete passed['transfer-encoding'];
          if (type.startsWith('text/event-stream')) {
            res.writeHead(answer.statusCode ?? 200, passed);
            answer.setEncoding('utf8');
            answer.on('data', (chunk: string) => res.write(breakage.sse?.(chunk) ?? chunk));
            answer.on('end', () => res.end());
            res.on('close', () => answer.destroy());
            return;
          }
          void read(answer).then((text) => {
            const buffered: ProxiedAnswer = {
              status: answer.statusCode ?? 200,
              body: text.split(origin).join(self),
            };
            breakage.answer?.(request, buffered);
            // A changed body invalidates the upstream's validators.
            delete passed.etag;
            res.writeHead(buffered.status, { ...passed, 'content-length': Buffer.byteLength(buffered.body) });
            res.end(buffered.body);
          });
        },
      );
      outgoing.on('error', () => res.destroy());
      outgoing.end(request.body === '' ? undefined : request.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${self}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
