// The server's extension points, through HTTP: message admission (refuses before anything is
// created), card signing per served version, and replacing the card while serving.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError } from '../../src/protocol/index.js';
import { allDrivers, userText } from '../helpers/drivers.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let server: EchoServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function card(url: string, version?: string, etag?: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (version !== undefined) headers['a2a-version'] = version;
  if (etag !== undefined) headers['if-none-match'] = etag;
  return fetch(`${url}.well-known/agent-card.json`, { headers });
}

describe('admitMessage', () => {
  it('refuses a send on every binding and version, and no task is created', async () => {
    const seen: string[] = [];
    server = await startEcho({
      admitMessage: (request, call) => {
        seen.push(`${call.version}:${request.message.parts[0]?.text ?? ''}`);
        if (request.message.parts[0]?.text === 'forbidden') {
          throw new A2AError('PermissionDeniedError', 'skill "forbidden" needs the admin scope');
        }
      },
    });
    for (const driver of allDrivers(server.url)) {
      const count = async (): Promise<number> =>
        (await server!.store.list({ tenant: '', owner: '', pageSize: 1 })).totalSize;
      const before = await count();
      const refused = await driver.send(userText('forbidden'));
      expect(refused.ok, driver.name).toBe(false);
      if (!refused.ok) {
        expect(refused.error.httpStatus, driver.name).toBe(403);
        expect(refused.error.message, driver.name).toContain('admin scope');
      }
      expect(await count(), driver.name).toBe(before);
      const accepted = await driver.send(userText('fine'));
      expect(accepted.ok, driver.name).toBe(true);
    }
    expect(seen).toContain('1.0:forbidden');
    expect(seen).toContain('0.3:fine');
  });
});

describe('signCard', () => {
  it('signs the JSON each version is served, without a signatures field in what it signs', async () => {
    const signed: { version: string; json: Record<string, unknown> }[] = [];
    server = await startEcho({
      signCard: (json, version) => {
        signed.push({ version, json: structuredClone(json) });
        return Promise.resolve([{ protected: `p-${version}`, signature: `s-${version}` }]);
      },
    });
    const v1 = (await (await card(server.url, '1.0')).json()) as Record<string, unknown>;
    const v03 = (await (await card(server.url)).json()) as Record<string, unknown>;
    expect(v1.signatures).toEqual([{ protected: 'p-1.0', signature: 's-1.0' }]);
    expect(v03.signatures).toEqual([{ protected: 'p-0.3', signature: 's-0.3' }]);
    // The signer saw exactly the served body minus the signatures, once per version.
    const { signatures: _a, ...v1Body } = v1;
    const { signatures: _b, ...v03Body } = v03;
    expect(signed.find((s) => s.version === '1.0')?.json).toEqual(v1Body);
    expect(signed.find((s) => s.version === '0.3')?.json).toEqual(v03Body);
    await card(server.url, '1.0');
    expect(signed).toHaveLength(2);
  });

  it('answers a signing failure with an error and tries again on the next request', async () => {
    let calls = 0;
    server = await startEcho({
      signCard: () => {
        calls++;
        return calls === 1 ? Promise.reject(new Error('key store offline')) : Promise.resolve([]);
      },
    });
    const first = await card(server.url, '1.0');
    expect(first.status).toBe(500);
    const body = (await first.json()) as { error: { message: string } };
    // Internal details stay inside: the error is generic.
    expect(JSON.stringify(body)).not.toContain('key store offline');
    expect((await card(server.url, '1.0')).status).toBe(200);
  });
});

describe('updateCard', () => {
  it('serves the new card with a new ETag; the old ETag no longer matches', async () => {
    server = await startEcho();
    const before = await card(server.url, '1.0');
    const etag = before.headers.get('etag')!;
    expect((await card(server.url, '1.0', etag)).status).toBe(304);
    server.a2a.updateCard({ ...server.a2a.agentCard, description: 'changed on disk' });
    const after = await card(server.url, '1.0', etag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as { description: string }).description).toBe('changed on disk');
  });
});
