/**
 * Redirects over real sockets (decision 0137): card fetches and A2A calls follow 301/302/303/307/
 * 308 up to 5 hops; 307 (and 301/302) keep POST and its body, 303 on a POST is refused; every
 * hop's target goes through the SSRF guard again; credentials stay on a same-origin hop and are
 * dropped on a hop to another origin.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2ALocalError,
  apiKey,
  bearer,
  type A2AClientCommonOptions,
} from '../../src/client/index.js';
import type { SendMessageResponse } from '../../src/protocol/index.js';
import { startFront, type Front } from './helpers/a2a-front.js';

let front: Front;
afterEach(async () => front?.close());

const move = (status: number, location: string) => () => ({ status, headers: { location } });

/** Maps the made-up names of the tests to the front's loopback address. */
const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];

function clientAt(path: string, options: Partial<A2AClientCommonOptions> = {}): A2AClient {
  return new A2AClient({
    card: front.a2a.agentCard,
    transport: { url: new URL(path, front.url).href, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    allowPrivateNetworks: true,
    resolve,
    retry: { retries: 0 },
    ...options,
  });
}

function send(client: A2AClient, text: string): Promise<SendMessageResponse> {
  return client.sendMessage({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
  });
}

function echoed(answer: SendMessageResponse): string | undefined {
  if (!('task' in answer)) return undefined;
  return answer.task.artifacts?.[0]?.parts[0]?.text;
}

describe('redirects', () => {
  it('follows a 307 on a call, keeping POST and the body', async () => {
    front = await startFront();
    front.routes.set('/moved', move(307, '/'));
    const answer = await send(clientAt('/moved'), 'hello through a 307');
    expect(echoed(answer)).toBe('echo: hello through a 307');
    expect(front.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /moved', 'POST /']);
  });

  it.each([301, 302, 308])('keeps POST and the body on a %i (RFC 9110 §15.4)', async (status) => {
    front = await startFront();
    front.routes.set('/moved', move(status, '/'));
    expect(echoed(await send(clientAt('/moved'), `via ${status}`))).toBe(`echo: via ${status}`);
    expect(front.requests.at(-1)?.method).toBe('POST');
  });

  it('refuses a 303 on a call (it would become a GET without the call) and follows it on a card fetch', async () => {
    front = await startFront();
    front.routes.set('/see-other', move(303, '/'));
    const error = await send(clientAt('/see-other'), 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2ALocalError);
    expect(error).toMatchObject({ kind: 'BAD_RESPONSE', httpStatus: 303 });
    expect((error as Error).message).toMatch(/303 See Other/);
    expect(front.requests).toHaveLength(1);

    front.routes.set('/old/.well-known/agent-card.json', move(303, '/.well-known/agent-card.json'));
    const client = await A2AClient.connect(new URL('/old/', front.url), {
      allowPrivateNetworks: true,
      cardCache: false,
    });
    expect(client.card.name).toBe(front.a2a.agentCard.name);
    expect(client.resolvedCard?.source).toBe('network');
  });

  it('follows a moved card (301) and then calls the interface the card names', async () => {
    front = await startFront();
    front.routes.set('/agent/.well-known/agent-card.json', move(301, '/.well-known/agent-card.json'));
    const client = await A2AClient.connect(new URL('/agent/', front.url), {
      allowPrivateNetworks: true,
      cardCache: false,
    });
    expect(echoed(await send(client, 'after a moved card'))).toBe('echo: after a moved card');
    client.close();
  });

  it('follows at most 5 hops', async () => {
    front = await startFront();
    for (let n = 1; n <= 6; n++) front.routes.set(`/hop${n}`, move(307, n === 1 ? '/' : `/hop${n - 1}`));
    // 5 redirects: /hop5 -> ... -> /hop1 -> / answers.
    expect(echoed(await send(clientAt('/hop5'), 'five hops'))).toBe('echo: five hops');
    front.requests.length = 0;
    // 6 redirects: the sixth is not followed.
    const error = await send(clientAt('/hop6'), 'six hops').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'BAD_RESPONSE', httpStatus: 307 });
    expect((error as Error).message).toMatch(/redirected more than 5 times/);
    expect(front.requests.map((r) => r.path)).toEqual(['/hop6', '/hop5', '/hop4', '/hop3', '/hop2', '/hop1']);
  });

  it('checks every hop against the SSRF guard', async () => {
    front = await startFront();
    // The first target is allowed by name; the hop goes to a name that resolves to loopback.
    front.routes.set('/moved', move(307, `http://internal.test:${front.port}/`));
    const client = clientAt(`http://agent.test:${front.port}/moved`, {
      allowPrivateNetworks: false,
      allowedHosts: ['agent.test'],
    });
    const error = await send(client, 'x').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'SSRF_BLOCKED' });
    expect((error as Error).message).toMatch(/internal\.test resolves to 127\.0\.0\.1/);
    // Refused before connecting: the agent never saw the hop.
    expect(front.requests.map((r) => r.path)).toEqual(['/moved']);

    front.routes.set('/to-file', move(308, 'file:///etc/passwd'));
    const scheme = await send(clientAt('/to-file'), 'x').catch((e: unknown) => e);
    expect(scheme).toMatchObject({ kind: 'SSRF_BLOCKED' });
  });

  it('keeps the credentials on a same-origin hop and drops them on a cross-origin hop', async () => {
    front = await startFront();
    const auth = [
      bearer('s3cret'),
      apiKey({ in: 'header', name: 'X-Api-Key', value: 'k3y' }),
      apiKey({ in: 'cookie', name: 'session', value: 'c00kie' }),
    ];
    front.routes.set('/same', move(307, '/'));
    await send(clientAt('/same', { auth }), 'same origin');
    const same = front.requests.at(-1);
    expect(same?.path).toBe('/');
    expect(same?.headers.authorization).toBe('Bearer s3cret');
    expect(same?.headers['x-api-key']).toBe('k3y');
    expect(same?.headers.cookie).toBe('session=c00kie');

    // Same server, other origin: another host name.
    front.routes.set('/cross', move(307, `http://other.test:${front.port}/`));
    const answer = await send(clientAt('/cross', { auth }), 'cross origin');
    expect(echoed(answer)).toBe('echo: cross origin');
    const first = front.requests.at(-2);
    const cross = front.requests.at(-1);
    expect(first?.headers.authorization).toBe('Bearer s3cret');
    expect(cross?.headers.host).toBe(`other.test:${front.port}`);
    expect(cross?.headers.authorization).toBeUndefined();
    expect(cross?.headers['x-api-key']).toBeUndefined();
    expect(cross?.headers.cookie).toBeUndefined();
    // The rest of the request is the same: the A2A headers and the send's Idempotency-Key.
    expect(cross?.headers['a2a-version']).toBe('1.0');
    expect(cross?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('closes a redirect whose body never ends, instead of reading it forever', async () => {
    front = await startFront();
    let closed = false;
    const endless: Server = createServer((_req, res) => {
      res.writeHead(307, { location: new URL('/', front.url).href });
      const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
      res.on('close', () => {
        clearInterval(timer);
        closed = true;
      });
    });
    endless.listen(0, '127.0.0.1');
    await once(endless, 'listening');
    try {
      const { port } = endless.address() as { port: number };
      const client = new A2AClient({
        card: front.a2a.agentCard,
        transport: { url: `http://127.0.0.1:${port}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        allowPrivateNetworks: true,
        retry: { retries: 0 },
      });
      expect(echoed(await send(client, 'past an endless redirect'))).toBe('echo: past an endless redirect');
      await expect.poll(() => closed, { timeout: 2000 }).toBe(true);
      client.close();
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });
});
