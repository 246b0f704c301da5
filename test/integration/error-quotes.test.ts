/**
 * Error messages quote a client's bad value in a short excerpt with its size: a 0.9 MB
 * `role` used to come back twice in a 1.8 MB error response. Over real HTTP, both versions, both
 * HTTP bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

const HUGE = 'x'.repeat(900_000);

let server: EchoServer;
beforeAll(async () => {
  server = await startEcho();
});
afterAll(async () => {
  await server.close();
});

async function post(
  path: string,
  body: unknown,
  version?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(version === undefined ? {} : { 'a2a-version': version }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const rpc = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });

describe('a huge bad value is quoted, not echoed', () => {
  const cases: [string, () => Promise<{ status: number; text: string }>][] = [
    [
      '1.0 JSON-RPC',
      () =>
        post(
          '',
          rpc('SendMessage', { message: { messageId: 'm', role: HUGE, parts: [{ text: 'hi' }] } }),
          '1.0',
        ),
    ],
    [
      '1.0 HTTP+JSON',
      () =>
        post('./message:send', { message: { messageId: 'm', role: HUGE, parts: [{ text: 'hi' }] } }, '1.0'),
    ],
    [
      '0.3 JSON-RPC',
      () =>
        post(
          '',
          rpc('message/send', {
            message: { kind: 'message', messageId: 'm', role: HUGE, parts: [{ kind: 'text', text: 'hi' }] },
          }),
        ),
    ],
    [
      '0.3 HTTP+JSON',
      () => post('v1/message:send', { message: { messageId: 'm', role: HUGE, content: [{ text: 'hi' }] } }),
    ],
  ];
  for (const [name, send] of cases) {
    it(`${name}: the error names the value's size in a short excerpt`, async () => {
      const { status, text } = await send();
      expect(status === 200 || status === 400).toBe(true);
      expect(text).toMatch(/invalid|role/i);
      expect(text).toContain('(900002 characters)');
      expect(text.length).toBeLessThan(4096);
    });
  }
});
