/**
 * The echo agent on a real node:http server with a scripted front: a test's routes answer first
 * (redirects, 503s, resets), everything else goes to Concord's own A2A handler. Every request's
 * head is recorded, and accepted and closed connections are counted on the server side (the
 * keep-alive, redirect and Retry-After tests of decision 0137).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createA2AServer, type A2AServer, type A2AServerOptions } from '../../../src/server/index.js';
import { createNodeHandler } from '../../../src/server/adapters/node.js';
import { createMemoryTaskStore } from '../../../src/store/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../../examples/echo/agent.mjs';

/** A recorded request head. */
export interface FrontRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The connection it came on (1-based, in accept order). */
  connection: number;
  /** When it arrived (performance.now()). */
  at: number;
}

/** A scripted answer; the body is read and dropped before it is sent. */
export interface FrontReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Reset the connection instead of answering. */
  reset?: boolean;
  /** Never answer. */
  hang?: boolean;
  /** Let the agent handle the request, then reset the connection instead of sending its answer. */
  dropAnswer?: boolean;
}

/** A route: answers the request, or returns undefined to pass it to the agent. */
export type FrontRoute = (request: FrontRequest) => FrontReply | undefined;

/** A running front and agent. */
export interface Front {
  /** `http://127.0.0.1:<port>/`, the agent's base URL. */
  url: string;
  port: number;
  a2a: A2AServer;
  requests: FrontRequest[];
  /** Routes by path (without the query). */
  routes: Map<string, FrontRoute>;
  accepted: number;
  closed: number;
  close(): Promise<void>;
}

/** Starts the echo agent behind a front on 127.0.0.1. */
export async function startFront(options: Partial<A2AServerOptions> = {}): Promise<Front> {
  const routes = new Map<string, FrontRoute>();
  const requests: FrontRequest[] = [];
  // The agent's handler exists once the port (its base URL) is known.
  const agent: { handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void } = {};
  const connectionOf = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    const request: FrontRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      connection: connectionOf.get(req.socket) ?? 0,
      at: performance.now(),
    };
    requests.push(request);
    const reply = routes.get(request.path.split('?')[0] ?? '')?.(request);
    if (reply === undefined) return agent.handle?.(req, res);
    if (reply.reset === true) return req.socket.resetAndDestroy();
    if (reply.hang === true) return req.resume();
    if (reply.dropAnswer === true) {
      // The agent runs the call; its answer never leaves (a connection lost after the work).
      res.writeHead = (() => res) as unknown as typeof res.writeHead;
      res.end = (() => {
        req.socket.resetAndDestroy();
        return res;
      }) as unknown as typeof res.end;
      return agent.handle?.(req, res);
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body ?? '');
    });
  });
  const front: Front = {
    url: '',
    port: 0,
    a2a: undefined as unknown as A2AServer,
    requests,
    routes,
    accepted: 0,
    closed: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    connectionOf.set(socket, ++front.accepted);
    socket.once('close', () => front.closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.port = (server.address() as AddressInfo).port;
  front.url = `http://127.0.0.1:${front.port}/`;
  front.a2a = createA2AServer({
    agentCard: echo.agentCard,
    executor: echo.executor,
    store: createMemoryTaskStore(),
    baseUrl: front.url,
    ...options,
  });
  agent.handle = createNodeHandler(front.a2a);
  return front;
}
