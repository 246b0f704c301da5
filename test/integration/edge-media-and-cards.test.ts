// Media types, card caching and interface URLs at the HTTP edges, over real sockets: answers in
// the media type the request used (decision 0134), `Last-Modified` and `If-Modified-Since` on
// cards beside the ETag, and interface URLs without a trailing slash, with a doubled slash read
// as one on the root and on /agents/<id> mounts (decision 0138).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

const JSON_TYPE = 'application/json';
const A2A_TYPE = 'application/a2a+json';

const message = (id: string, version: '1.0' | '0.3') =>
  version === '1.0'
    ? { message: { messageId: id, role: 'ROLE_USER', parts: [{ text: 'hi' }] } }
    : { message: { messageId: id, role: 'ROLE_USER', content: [{ text: 'hi' }] } };

function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('HTTP+JSON answers in the media type of the request', () => {
  for (const version of ['1.0', '0.3'] as const) {
    const at = version === '1.0' ? '' : 'v1/';
    for (const type of [JSON_TYPE, A2A_TYPE]) {
      it(`${version}: a ${type} body gets a ${type} answer, success and error alike`, async () => {
        const headers = { 'content-type': type, 'a2a-version': version };
        const sent = await post(
          `${echo.url}${at}message:send`,
          message(`m-${version}-${type}`, version),
          headers,
        );
        expect(sent.status).toBe(200);
        expect(sent.headers.get('content-type')).toBe(type);
        const refused = await post(`${echo.url}${at}message:send`, {}, headers);
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toBe(type);
        // A parameter on the request's type does not change the answer's.
        const charset = await post(
          `${echo.url}${at}message:send`,
          message(`m-cs-${version}-${type}`, version),
          {
            ...headers,
            'content-type': `${type}; charset=utf-8`,
          },
        );
        expect(charset.headers.get('content-type')).toBe(type);
      });
    }

    it(`${version}: a request without a body is answered in the first JSON type its Accept lists`, async () => {
      const get = (accept?: string) =>
        fetch(`${echo.url}${at}tasks/no-such-task`, {
          headers: { 'a2a-version': version, ...(accept === undefined ? {} : { accept }) },
        });
      const cases: [string | undefined, string][] = [
        [undefined, JSON_TYPE],
        ['*/*', JSON_TYPE],
        [A2A_TYPE, A2A_TYPE],
        [`${A2A_TYPE}, ${JSON_TYPE}`, A2A_TYPE],
        [`${JSON_TYPE}, ${A2A_TYPE}`, JSON_TYPE],
        [`${A2A_TYPE};q=0, ${JSON_TYPE}`, JSON_TYPE],
      ];
      for (const [accept, expected] of cases) {
        const response = await get(accept);
        expect(response.status, accept).toBe(404);
        expect(response.headers.get('content-type'), accept).toBe(expected);
      }
    });
  }

  it('JSON-RPC always answers application/json (A2A 1.0 §9.1)', async () => {
    const response = await post(
      echo.url,
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } },
      { 'content-type': A2A_TYPE, 'a2a-version': '1.0' },
    );
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
  });
});

describe('card caching', () => {
  const cardUrl = () => `${echo.url}.well-known/agent-card.json`;
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    fetch(cardUrl(), { method, headers: { 'a2a-version': '1.0', ...headers } });

  it('sends Last-Modified, and 304 for an If-Modified-Since no earlier than it', async () => {
    const first = await get();
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
    const same = await get({ 'if-modified-since': lastModified });
    expect(same.status).toBe(304);
    expect(same.headers.get('last-modified')).toBe(lastModified);
    expect(same.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await same.text()).toBe('');
    expect((await get({ 'if-modified-since': lastModified }, 'HEAD')).status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get({ 'if-modified-since': earlier })).status).toBe(200);
    // A date that is not one, or one in the future, is ignored (RFC 9110 §13.1.3).
    expect((await get({ 'if-modified-since': 'yesterday' })).status).toBe(200);
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    expect((await get({ 'if-modified-since': future })).status).toBe(200);
  });

  it('If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2)', async () => {
    const first = await get();
    const lastModified = first.headers.get('last-modified')!;
    const stale = await get({ 'if-none-match': '"not-the-tag"', 'if-modified-since': lastModified });
    expect(stale.status).toBe(200);
    const fresh = await get({ 'if-none-match': first.headers.get('etag')!, 'if-modified-since': 'x' });
    expect(fresh.status).toBe(304);
  });

  it('a replaced card is never 304 for the old card’s date, even within the same second', async () => {
    const server = await startEcho();
    try {
      const url = `${server.url}.well-known/agent-card.json`;
      const before = await fetch(url);
      const since = before.headers.get('last-modified')!;
      server.a2a.updateCard({ ...server.a2a.agentCard, description: 'changed' });
      const after = await fetch(url, { headers: { 'if-modified-since': since } });
      expect(after.status).toBe(200);
      const modified = Date.parse(after.headers.get('last-modified')!);
      // Never a date in the future (RFC 9110 §8.8.2.1), never before the old card's.
      expect(modified).toBeGreaterThanOrEqual(Date.parse(since));
      expect(modified).toBeLessThanOrEqual(Date.now());
      expect(((await after.json()) as { description: string }).description).toBe('changed');
    } finally {
      await server.close();
    }
  });

  it('nor after two replacements in a row, the middle card never served', async () => {
    const server = await startEcho();
    try {
      const url = `${server.url}.well-known/agent-card.json`;
      const since = (await fetch(url)).headers.get('last-modified')!;
      server.a2a.updateCard({ ...server.a2a.agentCard, description: 'middle' });
      server.a2a.updateCard({ ...server.a2a.agentCard, description: 'last' });
      const after = await fetch(url, { headers: { 'if-modified-since': since } });
      expect(after.status).toBe(200);
      expect(((await after.json()) as { description: string }).description).toBe('last');
    } finally {
      await server.close();
    }
  });
});

describe('interface URLs', () => {
  let host: RunningHost;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'concord-edges-'));
    cpSync(join(import.meta.dirname, 'fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
    writeFileSync(
      join(dir, 'solo.md'),
      '---\nname: solo\nexposed: true\ndescription: The only agent here.\nhandler: ./echo-handler.mjs\n---\n',
    );
    host = await startHost(dir, { port: 0, store: 'memory' });
  });
  afterAll(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cardOf = async (base: string, version: '1.0' | '0.3') =>
    (await (
      await fetch(`${base}.well-known/agent-card.json`, { headers: { 'a2a-version': version } })
    ).json()) as {
      url?: string;
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
      additionalInterfaces?: { url: string }[];
    };

  it('are listed without a trailing slash, on both cards, at the root and below /agents/<id>', async () => {
    for (const base of [host.url, `${host.url}agents/solo/`]) {
      const v1 = await cardOf(base, '1.0');
      for (const entry of v1.supportedInterfaces) expect(entry.url).toBe(base.slice(0, -1));
      const v03 = await cardOf(base, '0.3');
      expect(v03.url).toBe(base.slice(0, -1));
      for (const entry of v03.additionalInterfaces ?? []) expect(entry.url).toBe(base.slice(0, -1));
    }
  });

  it('joined with "/message:send" they reach the agent on every binding and version', async () => {
    for (const base of [host.url, `${host.url}agents/solo/`]) {
      const v1 = await cardOf(base, '1.0');
      for (const entry of v1.supportedInterfaces) {
        const binding = entry.protocolBinding;
        const version = entry.protocolVersion as '1.0' | '0.3';
        const headers = { 'content-type': JSON_TYPE, 'a2a-version': version };
        const id = `m-join-${binding}-${version}-${base.length}`;
        const response =
          binding === 'JSONRPC'
            ? await post(
                entry.url,
                {
                  jsonrpc: '2.0',
                  id: 1,
                  method: version === '1.0' ? 'SendMessage' : 'message/send',
                  params:
                    version === '1.0'
                      ? message(id, '1.0')
                      : {
                          message: {
                            kind: 'message',
                            messageId: id,
                            role: 'user',
                            parts: [{ kind: 'text', text: 'hi' }],
                          },
                        },
                },
                headers,
              )
            : await post(
                `${entry.url}/${version === '1.0' ? '' : 'v1/'}message:send`,
                message(id, version),
                headers,
              );
        expect(response.status, `${binding} ${version} at ${entry.url}`).toBe(200);
        expect(await response.json(), `${binding} ${version}`).not.toHaveProperty('error');
      }
    }
  });

  it('a doubled slash, as clients joining a URL that ends in "/" send it, is read as one', async () => {
    for (const base of [host.url, `${host.url}agents/solo/`]) {
      const headers10 = { 'content-type': JSON_TYPE, 'a2a-version': '1.0' };
      const rest10 = await post(`${base}/message:send`, message(`m-dbl-10-${base.length}`, '1.0'), headers10);
      expect(rest10.status, `${base}/message:send`).toBe(200);
      const headers03 = { 'content-type': JSON_TYPE, 'a2a-version': '0.3' };
      const rest03 = await post(
        `${base}/v1/message:send`,
        message(`m-dbl-03-${base.length}`, '0.3'),
        headers03,
      );
      expect(rest03.status, `${base}/v1/message:send`).toBe(200);
      const task = await fetch(`${base}//tasks/no-such-task`, { headers: { 'a2a-version': '1.0' } });
      expect(task.status).toBe(404);
      expect(
        ((await task.json()) as { error: { details: { reason: string }[] } }).error.details[0]!.reason,
      ).toBe('TASK_NOT_FOUND');
      const card = await fetch(`${base}/.well-known/agent-card.json`);
      expect(card.status).toBe(200);
      const rpc = await post(
        `${base}/`,
        { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 'no-such-task' } },
        headers10,
      );
      expect(((await rpc.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
  });
});
