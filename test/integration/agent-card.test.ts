/**
 * The well-known card for 0.3 and 1.0 clients, the legacy path, and HTTP caching (ETag, 304,
 * Cache-Control, Vary).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v0_3JsonRpcCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

let server: EchoServer;
beforeAll(async () => {
  server = await startEcho();
});
afterAll(async () => {
  await server.close();
});

describe('agent card', () => {
  it('serves the 1.0 card to 1.0 clients, listing every interface it really serves', async () => {
    const response = await fetch(`${server.url}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as Record<string, unknown>;
    const card = v1_0Codec.decodeAgentCard(json, '');
    expect(card.name).toBe('Echo Agent');
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual([
      'JSONRPC 1.0',
      'HTTP+JSON 1.0',
      'JSONRPC 0.3',
      'HTTP+JSON 0.3',
    ]);
    // Listed without the trailing slash, so `url + "/message:send"` is one path (decision 0138).
    expect(card.supportedInterfaces[0]!.url).toBe(server.url.slice(0, -1));
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    expect(json).not.toHaveProperty('url');
    expect(json).not.toHaveProperty('protocolVersion');
  });

  it('serves the 0.3 card to clients that send no version, also at the legacy path', async () => {
    for (const path of ['.well-known/agent-card.json', '.well-known/agent.json']) {
      const json = (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;
      expect(json.protocolVersion).toBe('0.3.0');
      const url = server.url.slice(0, -1);
      expect(json.url).toBe(url);
      expect(json.preferredTransport).toBe('JSONRPC');
      expect(json.additionalInterfaces).toEqual([
        { url, transport: 'JSONRPC' },
        { url, transport: 'HTTP+JSON' },
      ]);
      const card = v0_3JsonRpcCodec.decodeAgentCard(json, '');
      expect(card.skills[0]!.id).toBe('echo');
    }
  });

  it('supports conditional requests: ETag, 304, Cache-Control and Vary', async () => {
    const first = await fetch(`${server.url}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(first.headers.get('vary')).toBe('A2A-Version');
    const again = await fetch(`${server.url}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0', 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await fetch(`${server.url}.well-known/agent-card.json`, {
      headers: { 'if-none-match': etag! },
    });
    expect(other.status).toBe(200); // the 0.3 card is a different representation with its own tag
    expect(other.headers.get('etag')).not.toBe(etag);
  });
});
