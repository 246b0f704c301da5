/**
 * A Concord server fix that `concord check` found (rule 11): an unsupported A2A-Version is
 * refused before the JSON-RPC envelope is parsed, and the answer used to carry `id: null` even
 * when the request's id was readable. JSON-RPC 2.0 §5 echoes the id whenever it can be read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

async function post(body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(echo.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '99.0' },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('VersionNotSupportedError over JSON-RPC', () => {
  it('echoes a readable request id, number or string', async () => {
    const numeric = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } }),
    );
    expect(numeric.status).toBe(200);
    expect(numeric.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32009 } });
    const text = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 'req-1', method: 'GetTask', params: { id: 'x' } }),
    );
    expect(text.json).toMatchObject({ id: 'req-1', error: { code: -32009 } });
  });

  it('answers id null when the body cannot be read', async () => {
    const broken = await post('{"jsonrpc": "2.0", "id": 7, ');
    expect(broken.json).toMatchObject({ id: null, error: { code: -32009 } });
  });
});
