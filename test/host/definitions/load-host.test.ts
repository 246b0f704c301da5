/**
 * The good corpus (test/host/fixtures/good) loads to exactly the expected HostConfig: config
 * agents first, then markdown agents in path order, with every default applied.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../../src/card/index.js';
import type { HostConfig } from '../../../src/host/host-config.js';
import { DefinitionError, loadHost } from '../../../src/host/definitions/index.js';

const GOOD = resolve(import.meta.dirname, '../fixtures/good');
const ENV = {
  PARTNER_KEY: 'partner-secret-1',
  MODEL_KEY: 'sk-test-model',
  ORDER_DB_TOKEN: 'db-token-1',
};
const at = (path: string): string => join(GOOD, path);

const researchBot: AgentDefinition = {
  id: 'research-bot',
  name: 'research-bot',
  description: 'Answers research queries',
  version: '1.0.0',
  exposed: false,
  systemPrompt: 'You research things.',
  model: 'gpt-4o-mini',
  tags: [],
  skills: [],
  a2a: {
    allowFreeform: false,
    contracts: {
      'research.request': {
        description: 'Submit a research query',
        input: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Research query' },
            depth: { type: 'string', enum: ['shallow', 'deep'] },
          },
          required: ['query'],
        },
        output: {
          type: 'object',
          properties: { findings: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
        },
      },
      'research.query': {
        version: '1.0.0',
        deprecated: true,
        deprecatedMessage: 'Use research.request',
        supersededBy: 'research.request',
      },
    },
  },
  card: {},
  source: { file: at('concord.config.json5'), line: 42 },
};

const clock: AgentDefinition = {
  id: 'clock',
  name: 'Clock',
  description: '',
  version: '1.0.0',
  exposed: true,
  systemPrompt: '',
  handler: at('handlers/clock.mjs'),
  tags: [],
  skills: [],
  a2a: { allowFreeform: true, contracts: {} },
  security: [{ partnerKey: ['time:read'] }],
  card: { iconUrl: 'https://acme.com/clock.png', defaultOutputModes: ['text/plain'] },
  source: { file: at('concord.config.json5'), line: 78 },
};

/** The seed's example (Shaman's agent-card.md "Shaman Implementation"), loaded as written. */
const processOrder: AgentDefinition = {
  id: 'ProcessOrder',
  name: 'ProcessOrder',
  description: 'Processes incoming orders from external partners',
  version: '1.0.0',
  exposed: true,
  systemPrompt: 'You are an order processing specialist...',
  model: 'gpt-4-turbo',
  temperature: 0.7,
  tags: ['order', 'processing', 'inventory'],
  mcpServers: [
    {
      server: 'order-db',
      field: '/mcpServers/order-db',
      line: 9,
      tools: [
        { name: 'create_order', field: '/mcpServers/order-db/0', line: 10 },
        { name: 'validate_inventory', field: '/mcpServers/order-db/1', line: 11 },
      ],
    },
  ],
  skills: [],
  a2a: { allowFreeform: true, contracts: {} },
  card: {},
  source: { file: at('process-order.md'), line: 1 },
};

const helper: AgentDefinition = {
  id: 'helper',
  name: 'helper',
  description: 'Internal helper backed by code',
  version: '1.0.0',
  exposed: false,
  systemPrompt: '',
  handler: at('handlers/clock.mjs'),
  tags: [],
  skills: [],
  a2a: { allowFreeform: true, contracts: {} },
  card: {},
  source: { file: at('agents/helper.md'), line: 1 },
};

const triage: AgentDefinition = {
  id: 'Triage',
  name: 'Triage',
  description: 'Sorts incoming requests: which agent should handle them',
  version: '2.1.0',
  exposed: false,
  systemPrompt: 'Sort each request.\n\nReply with the agent id only.',
  model: 'gpt-4o',
  maxTokens: 800,
  tags: [],
  mcpServers: [
    {
      server: 'tickets',
      field: '/mcpServers/tickets',
      line: 11,
      launch: { command: 'npx', args: ['-y', 'ticket-mcp'] },
      tools: [{ name: 'lookup', field: '/mcpServers/tickets/tools/0', line: 14 }],
    },
  ],
  skills: [
    {
      id: 'route',
      name: 'Route a request',
      description: 'Picks the agent for a request',
      tags: ['routing'],
      inputModes: ['text/plain'],
      security: [{ bearer: ['triage:route'] }],
    },
    {
      // From the Shaman `agentcard:` block; the id is a slug of the name.
      id: 'escalate-to-a-human',
      name: 'Escalate to a Human!',
      description: 'Hands the request to the on-call person',
      tags: [],
      examples: ['escalate ticket 42'],
      extended: true,
    },
  ],
  a2a: { allowFreeform: true, contracts: {} },
  card: {},
  source: { file: at('agents/nested/triage.md'), line: 1 },
};

const expected: HostConfig = {
  source: at('concord.config.json5'),
  organization: { name: 'ACME Corporation', url: 'https://www.acme.com' },
  security: {
    schemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        jwks: at('keys/jwks.json'),
        issuer: 'https://id.acme.com',
        audience: 'concord',
      },
      partnerKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: "Partners' keys",
        keys: [
          { key: 'partner-secret-1', principal: 'partner-1', scopes: ['orders:write'] },
          { key: 'dev-only-key', principal: 'developer', scopes: [] },
        ],
      },
    },
    requirements: [{ bearer: [] }, { partnerKey: [] }],
    internalScope: 'agents:internal',
  },
  signing: [
    {
      kid: 'test-2025',
      alg: 'ES256',
      privateKeyPem: readFileSync(at('keys/card-signing.pem'), 'utf8'),
      jku: 'https://acme.com/jwks.json',
    },
  ],
  model: { baseUrl: 'https://llm.acme.com/v1', apiKey: 'sk-test-model' },
  mcpServers: {
    'order-db': {
      transport: 'stdio',
      command: 'node',
      args: ['./order-db.mjs', '--readonly'],
      env: { ORDER_DB_TOKEN: 'db-token-1' },
      cwd: GOOD,
      source: { file: at('concord.config.json5'), field: '/mcpServers/order-db', line: 90 },
    },
    search: {
      transport: 'http',
      url: 'https://mcp.acme.com/mcp',
      headers: { authorization: 'Bearer search-token' },
      source: { file: at('concord.config.json5'), field: '/mcpServers/search', line: 95 },
    },
  },
  agents: [researchBot, clock, processOrder, helper, triage],
};

describe('loadHost on the good corpus', () => {
  it('loads the directory to the expected HostConfig', async () => {
    expect(await loadHost(GOOD, { env: ENV })).toStrictEqual(expected);
  });

  it('loads the same host when given the config file itself', async () => {
    expect(await loadHost(at('concord.config.json5'), { env: ENV })).toStrictEqual(expected);
  });

  it('skips markdown without frontmatter (the README) when scanning', async () => {
    const config = await loadHost(GOOD, { env: ENV });
    expect(config.agents.map((a) => a.source.file)).not.toContain(at('README.md'));
  });

  it('loads one markdown file as a host of one agent, with nothing else configured', async () => {
    const config = await loadHost(at('agents/helper.md'));
    expect(config).toStrictEqual({
      source: at('agents/helper.md'),
      signing: [],
      model: {},
      mcpServers: {},
      agents: [helper],
    });
  });

  it('refuses an agent naming an MCP server that no host config defines, at its line', async () => {
    const error = await loadHost(at('process-order.md')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).problems).toEqual([
      {
        file: at('process-order.md'),
        line: 9,
        field: '/mcpServers/order-db',
        message:
          'MCP server "order-db" is not defined: there is no host config; define it in concord.config.json5 ' +
          'under mcpServers, or give it inline as {command, args, tools}',
      },
    ]);
  });

  it('reads { env } secrets from process.env when no env is given', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, ENV);
    try {
      const config = await loadHost(GOOD);
      expect(config.model.apiKey).toBe('sk-test-model');
    } finally {
      for (const name of Object.keys(ENV)) if (!(name in saved)) delete process.env[name];
    }
  });
});
