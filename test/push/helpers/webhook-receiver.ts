/**
 * A real webhook receiver for the push tests: node:http on a loopback port, recording every
 * request (headers and the exact body bytes). It can answer with any status, and be taken down
 * (connections refused) and brought back on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { createHash } from 'node:crypto';

/** One request as received. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** The status the receiver answered with. */
  answered: number;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook` (or another path). */
  url(path?: string): string;
  readonly port: number;
  readonly received: Received[];
  /** Picks the status of a request when it returns one (before `answers` and `fallback`). */
  answerFor?: ((headers: IncomingHttpHeaders) => number | undefined) | undefined;
  /** The statuses to answer with next, in order; when empty, `fallback`. */
  answers: number[];
  fallback: number;
  /** Stops listening (connections are then refused). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  /** Resolves once `count` requests with a 2xx answer arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port (or on `port`). */
export async function startReceiver(port = 0): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let server: Server | undefined;
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: WebhookReceiver = {
    port,
    received,
    answers: [],
    fallback: 200,
    url: (path = '/hook') => `http://127.0.0.1:${receiver.port}${path}`,
    async down() {
      const s = server;
      server = undefined;
      if (s !== undefined) await new Promise<void>((done) => s.close(() => done()));
    },
    async up() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const answered = receiver.answerFor?.(req.headers) ?? receiver.answers.shift() ?? receiver.fallback;
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          received.push({ path: req.url ?? '', headers: req.headers, body, json, answered });
          res.writeHead(answered, { 'content-type': 'text/plain', connection: 'close' });
          res.end('ok');
          const good = received.filter((r) => r.answered >= 200 && r.answered < 300).length;
          for (const waiter of waiters.splice(0)) {
            if (good >= waiter.count) waiter.resolve();
            else waiters.push(waiter);
          }
        });
      });
      const s = server;
      await new Promise<void>((done) => s.listen(receiver.port, '127.0.0.1', () => done()));
      (receiver as { port: number }).port = (s.address() as AddressInfo).port;
    },
    waitFor(count, timeoutMs = 20_000) {
      const good = () => received.filter((r) => r.answered >= 200 && r.answered < 300);
      if (good().length >= count) return Promise.resolve(good());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `expected ${count} deliveries, got ${good().length}: ${received.map((r) => `${r.answered} ${r.headers['x-a2a-event-id']}`).join(', ')}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(good());
          },
        });
      });
    },
    close: () => receiver.down(),
  };
  await receiver.up();
  return receiver;
}

/** Verifies a delivery's `X-A2A-Signature` against a JWKS, as a receiver would, and checks the body hash. */
export async function verifyDelivery(
  delivery: Received,
  jwks: { keys: unknown[] },
  expected: { issuer: string; audience: string },
): Promise<JWTPayload> {
  const token = String(delivery.headers['x-a2a-signature']);
  const { payload } = await jwtVerify(
    token,
    createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]),
    {
      issuer: expected.issuer,
      audience: expected.audience,
    },
  );
  const hash = createHash('sha256').update(delivery.body, 'utf8').digest('hex');
  if (payload.request_body_sha256 !== hash) throw new Error('the body does not match request_body_sha256');
  return payload;
}
