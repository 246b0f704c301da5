// What node's parser refuses on a host's listener (decision 0146): an agent's paths answered in that
// agent's envelopes (JSON-RPC at its base path, HTTP+JSON below it), the root in the lone public
// agent's, and an agent the listener does not show like a path where nothing is served.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';

type Json = Record<string, unknown>;

const BIG = 'a'.repeat(20_000);
let dir: string;
let host: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-refusals-'));
  cpSync(join(import.meta.dirname, 'fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
  writeFileSync(
    join(dir, 'solo.md'),
    '---\nname: solo\nexposed: true\ndescription: The public agent.\nhandler: ./echo-handler.mjs\n---\n',
  );
  writeFileSync(
    join(dir, 'hidden.md'),
    '---\nname: hidden\nexposed: false\ndescription: An internal agent.\nhandler: ./echo-handler.mjs\n---\n',
  );
  host = await startHost(dir, { port: 0, internalPort: 0, store: 'memory' });
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

function oversized(url: string, method = 'POST'): Promise<Response> {
  return fetch(url, {
    method,
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'x-padding': BIG },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
}

describe('header fields over the limit on a host', () => {
  it("answers an agent's JSON-RPC path with a JSON-RPC error", async () => {
    for (const path of ['agents/solo/', 'agents/solo', '']) {
      const res = await oversized(`${host.url}${path}`);
      expect(res.status, path).toBe(431);
      expect(await res.json(), path).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it("answers an agent's REST path with the HTTP+JSON envelope", async () => {
    const res = await oversized(`${host.url}agents/solo/tasks/abc`, 'GET');
    expect(res.status).toBe(431);
    expect(((await res.json()) as { error: Json }).error).toMatchObject({
      code: 431,
      status: 'RESOURCE_EXHAUSTED',
    });
  });

  it('tells an agent the listener does not show apart from nothing, and shows it on the internal one', async () => {
    const hidden = await oversized(`${host.url}agents/hidden/`);
    const missing = await oversized(`${host.url}agents/nobody/`);
    expect(hidden.status).toBe(431);
    const body = (await hidden.json()) as Json;
    expect(body).toEqual(await missing.json());
    expect(body).toMatchObject({ error: { code: 431, status: 'RESOURCE_EXHAUSTED' } });
    const internal = await oversized(`${host.internalUrl!}agents/hidden/`);
    expect(await internal.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });
});
