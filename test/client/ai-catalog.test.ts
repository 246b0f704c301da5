/**
 * Reading other hosts' AI Catalogs (decision 0167), over real HTTP: liberal where the format
 * allows (an odd entry costs only itself and is reported with its JSON Pointer; entries of other
 * types are kept apart; a relative card URL is resolved; a card may be inline), strict where it
 * must be (a catalog of an unknown major version is refused), and careful with credentials (sent
 * to the catalog and to cards on its origin, never to a card elsewhere).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, CardCache, discoverAgents, resolveAgentCard } from '../../src/client/index.js';
import { startJsonServer, type JsonServer } from './helpers/json-server.js';

const servers: JsonServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
const network = { allowedHosts: ['127.0.0.1'] };

const card = (name: string, url = 'http://127.0.0.1:9/') => ({
  name,
  description: `The ${name} card`,
  version: '3.0.0',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'A skill', tags: ['t'] }],
});

async function start(routes: Parameters<typeof startJsonServer>[0]): Promise<JsonServer> {
  const server = await startJsonServer(routes);
  servers.push(server);
  return server;
}

describe('discoverAgents', () => {
  it('keeps every readable A2A entry, reports each odd one by pointer, and sets other types apart', async () => {
    const other = await start({ '/card.json': { body: card('Elsewhere') } });
    const server = await start({
      '/.well-known/ai-catalog.json': {
        headers: { 'content-type': 'application/ai-catalog+json' },
        body: {
          specVersion: '1.3',
          host: { displayName: 'Some Org', identifier: 'did:web:example.com', logoUrl: 'data:,' },
          futureMember: { kept: 'ignored' },
          entries: [
            {
              identifier: 'urn:air:example.com:a2a:billing',
              type: 'application/a2a-agent-card+json',
              url: '/agents/billing/card.json',
              tags: ['money', 7],
            },
            {
              identifier: 'urn:air:example.com:mcp:weather',
              type: 'application/mcp-server-card+json',
              url: '/mcp',
            },
            {
              identifier: 'urn:air:example.com:a2a:both',
              type: 'application/a2a-agent-card+json',
              url: '/x',
              data: {},
            },
            { type: 'application/a2a-agent-card+json', url: '/no-identifier' },
            'not an entry',
            {
              identifier: 'inline-agent',
              type: 'Application/A2A-Agent-Card+JSON',
              data: card('Inline'),
              displayName: 'Shown As',
            },
            {
              identifier: 'urn:air:example.com:a2a:remote',
              type: 'application/a2a-agent-card+json',
              url: `${other.url}card.json`,
            },
          ],
        },
      },
    });
    const catalog = await discoverAgents(server.url, network);
    expect(catalog.url).toBe(`${server.url}.well-known/ai-catalog.json`);
    expect(catalog.host).toEqual({ displayName: 'Some Org', identifier: 'did:web:example.com' });
    expect(catalog.agents.map((a) => [a.id, a.name, a.cardUrl ?? 'inline', a.tags])).toEqual([
      ['billing', 'billing', `${server.url}agents/billing/card.json`, ['money']],
      ['inline-agent', 'Shown As', 'inline', []],
      ['remote', 'remote', `${other.url}card.json`, []],
    ]);
    expect(catalog.agents[1]!.description).toBe('The Inline card');
    expect(catalog.others.map((e) => e.identifier)).toEqual(['urn:air:example.com:mcp:weather']);
    expect(catalog.skipped).toEqual([
      { pointer: '/entries/2', reason: 'must have exactly one of url and data' },
      { pointer: '/entries/3', reason: 'has no identifier (/identifier)' },
      { pointer: '/entries/4', reason: 'is not an object' },
    ]);
    // A catalog given by its own URL (a tenant's, anywhere) is read there.
    const tenant = await start({
      '/tenants/acme/catalog.json': { body: { specVersion: '1.0', entries: [] } },
    });
    expect((await discoverAgents(`${tenant.url}tenants/acme/catalog.json`, network)).agents).toEqual([]);
  });

  it('refuses a catalog of another major version, or one without entries, naming what is wrong', async () => {
    const server = await start({
      '/.well-known/ai-catalog.json': { body: { specVersion: '2.0', entries: [] } },
      '/bare/catalog.json': { body: { specVersion: '1.0' } },
    });
    await expect(discoverAgents(server.url, network)).rejects.toThrow(
      /specVersion "2\.0"; this client reads 1\.x \(\/specVersion\)/,
    );
    await expect(discoverAgents(`${server.url}bare/catalog.json`, network)).rejects.toThrow(
      /has no entries array \(\/entries\)/,
    );
    const none = await start({});
    await expect(discoverAgents(none.url, network)).rejects.toThrow(
      /No AI Catalog at .*ai-catalog\.json \(HTTP 404\)/,
    );
  });
});

describe('resolveAgentCard with an agent name', () => {
  it('resolves a listed card by id, name or identifier, and an inline one', async () => {
    const server = await start({
      '/.well-known/ai-catalog.json': {
        body: {
          specVersion: '1.0',
          entries: [
            { identifier: 'urn:air:h:a2a:billing', type: 'application/a2a-agent-card+json', url: '/b.json' },
            {
              identifier: 'urn:air:h:a2a:inline',
              type: 'application/a2a-agent-card+json',
              data: card('Inline'),
            },
          ],
        },
      },
      '/b.json': { body: card('Billing Agent') },
    });
    for (const wanted of ['billing', 'BILLING', 'urn:air:h:a2a:billing']) {
      const resolved = await resolveAgentCard(server.url, {
        ...network,
        agent: wanted,
        cache: new CardCache(),
      });
      expect(resolved.card.name).toBe('Billing Agent');
      expect(resolved.url).toBe(`${server.url}b.json`);
    }
    const inline = await resolveAgentCard(server.url, { ...network, agent: 'inline' });
    expect(inline.card.name).toBe('Inline');
    await expect(resolveAgentCard(server.url, { ...network, agent: 'payroll' })).rejects.toThrow(
      'No agent "payroll" in the AI Catalog at',
    );
  });

  it('presents credentials to the catalog and to cards on its origin, never to a card elsewhere', async () => {
    const elsewhere = await start({ '/card.json': { body: card('Elsewhere') } });
    const server = await start({
      '/.well-known/ai-catalog.json': {
        body: {
          specVersion: '1.0',
          entries: [
            {
              identifier: 'urn:air:h:a2a:local',
              type: 'application/a2a-agent-card+json',
              url: '/local.json',
            },
            {
              identifier: 'urn:air:h:a2a:far',
              type: 'application/a2a-agent-card+json',
              url: `${elsewhere.url}card.json`,
            },
          ],
        },
      },
      '/local.json': { body: card('Local') },
    });
    const options = { ...network, credentials: [bearer('catalog-token-1')], cache: false as const };
    await resolveAgentCard(server.url, { ...options, agent: 'local' });
    await resolveAgentCard(server.url, { ...options, agent: 'far' });
    const auth = (s: JsonServer) => s.requests.map((r) => [r.path, r.headers.authorization]);
    expect(auth(server)).toEqual([
      ['/.well-known/ai-catalog.json', 'Bearer catalog-token-1'],
      ['/local.json', 'Bearer catalog-token-1'],
      ['/.well-known/ai-catalog.json', 'Bearer catalog-token-1'],
    ]);
    expect(auth(elsewhere)).toEqual([['/card.json', undefined]]);
  });
});
