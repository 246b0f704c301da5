/**
 * A webhook receiver on a real loopback socket for the matrix's "push delivered" cells: it keeps
 * every POST and finds the one about a task in a given state, whichever body shape the server
 * sends (1.0 StreamResponse, `TASK_STATE_*`; 0.3 Task or status update, kebab-case states).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stateName, type State } from './driver.js';

interface Delivery {
  token: string | undefined;
  body: string;
  json: unknown;
}

/** True when `value` holds, anywhere inside it, `taskId` and a `state` reading as `state`. */
function mentions(value: unknown, taskId: string, state: State): boolean {
  const text = JSON.stringify(value);
  if (!text.includes(JSON.stringify(taskId))) return false;
  const states: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, inner] of Object.entries(v)) {
        if (key === 'state') states.push(inner);
        else walk(inner);
      }
    }
  };
  walk(value);
  return states.some((s) => stateName(s) === state);
}

export interface WebhookReceiver {
  url: string;
  waitFor(
    taskId: string,
    state: State,
    timeoutMs?: number,
  ): Promise<{ token: string | undefined; body: string }>;
  close(): Promise<void>;
}

export async function startWebhook(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const token = req.headers['x-a2a-notification-token'];
      deliveries.push({ token: Array.isArray(token) ? token[0] : token, body, json });
      res.writeHead(200).end();
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    waitFor(taskId, state, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const hit = deliveries.find((d) => mentions(d.json, taskId, state));
          if (hit === undefined) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve({ token: hit.token, body: hit.body });
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          const seen = deliveries.filter((d) => d.body.includes(taskId)).map((d) => d.body);
          reject(
            new Error(
              `no push about ${taskId} in state ${state} within ${timeoutMs} ms; got ${JSON.stringify(seen)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
