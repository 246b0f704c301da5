/**
 * The operations routes in process (decision 0158): readyz turns 503 once a stop begins, a failing
 * or hanging check makes it 503 with the reason told to loopback and authorized callers only,
 * `/metrics` only when asked for, and every other path reaches the agents untouched.
 */
import { describe, expect, it } from 'vitest';
import { OpsFront } from '../../src/host/internal.js';
import type { HttpApp, HttpBodyResponse, HttpRequest } from '../../src/server/index.js';

const inner: HttpApp = {
  maxBodyBytes: 1024,
  handle: async (request) => ({ status: 200, headers: {}, body: `agent ${request.path}` }),
  setBaseUrl: () => undefined,
  close: async () => undefined,
};

function request(
  path: string,
  remoteAddress = '127.0.0.1',
  headers: Record<string, string> = {},
): HttpRequest {
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(),
    header: (name) => headers[name],
    text: async () => '',
    signal: new AbortController().signal,
    remoteAddress,
  };
}

async function call(front: OpsFront, req: HttpRequest): Promise<{ status: number; body: unknown }> {
  const response = (await front.handle(req)) as HttpBodyResponse;
  return {
    status: response.status,
    body: response.headers['content-type']?.startsWith('application/json')
      ? JSON.parse(response.body)
      : response.body,
  };
}

describe('OpsFront', () => {
  it('passes other paths on, and serves /metrics only when given a scrape', async () => {
    const front = new OpsFront(inner);
    expect(await call(front, request('/agents/x/'))).toEqual({ status: 200, body: 'agent /agents/x/' });
    expect(await call(front, request('/metrics'))).toEqual({ status: 200, body: 'agent /metrics' });
    const withMetrics = new OpsFront(inner, { metrics: async () => '# HELP x\n' });
    expect(await call(withMetrics, request('/metrics'))).toEqual({ status: 200, body: '# HELP x\n' });
  });

  it('is unready once draining, and names failing and hanging checks to loopback callers only', async () => {
    let storeUp = true;
    const front = new OpsFront(inner, {
      checkTimeoutMs: 50,
      checks: () => [
        {
          name: 'store',
          check: () => (storeUp ? undefined : Promise.reject(new Error('connection refused'))),
        },
        ...(storeUp ? [] : [{ name: 'bus', check: () => new Promise<void>(() => undefined) }]),
      ],
      authorized: async (req) => req.header('authorization') === 'Bearer ok',
    });
    expect(await call(front, request('/readyz'))).toEqual({
      status: 200,
      body: { status: 'ok', checks: { store: 'ok' } },
    });
    storeUp = false;
    expect(await call(front, request('/readyz'))).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { store: 'connection refused', bus: 'no answer within 50 ms' } },
    });
    expect(await call(front, request('/readyz', '198.51.100.7'))).toEqual({
      status: 503,
      body: { status: 'unavailable' },
    });
    const authorized = await call(front, request('/readyz', '198.51.100.7', { authorization: 'Bearer ok' }));
    expect(authorized.body).toMatchObject({ checks: { store: 'connection refused' } });
    storeUp = true;
    front.drain();
    expect(await call(front, request('/readyz'))).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { shutdown: 'shutting down', store: 'ok' } },
    });
    expect(await call(front, request('/healthz'))).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
