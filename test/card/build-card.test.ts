import { describe, expect, it } from 'vitest';
import { buildAgentCard, lintAgentCard, type BuildCardOptions } from '../../src/card/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { v0_3JsonRpcCodec } from '../../src/protocol/v0_3/index.js';
import { BEARER, processOrderDefinition, researchDefinition } from './definitions.js';

const BASE = 'https://api.acme.com/agents/ProcessOrder/';
const LISTED = BASE.slice(0, -1);

const orgOptions = (): BuildCardOptions => ({
  baseUrl: BASE,
  organization: { name: 'ACME Corporation', url: 'https://www.acme.com' },
  securitySchemes: BEARER,
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  capabilities: { streaming: true },
});

const errorsOf = (json: unknown, version: '0.3' | '1.0') =>
  lintAgentCard(json, version).filter((p) => p.severity === 'error');

describe('buildAgentCard: the seed ProcessOrder agent', () => {
  const card = buildAgentCard(processOrderDefinition(), orgOptions());

  it('maps identity and yields one skill carrying the frontmatter tags', () => {
    expect(card.name).toBe('ProcessOrder');
    expect(card.description).toBe('Processes incoming orders from external partners');
    expect(card.version).toBe('1.0.0');
    expect(card.skills).toEqual([
      {
        id: 'ProcessOrder',
        name: 'ProcessOrder',
        description: 'Processes incoming orders from external partners',
        tags: ['order', 'processing', 'inventory'],
      },
    ]);
  });

  it('adds the organisation bearer scheme, requirement and provider', () => {
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(card.provider).toEqual({ organization: 'ACME Corporation', url: 'https://www.acme.com' });
  });

  it('claims only what the server serves and keeps model settings out of the card', () => {
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: false });
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.defaultOutputModes).toEqual(['text/plain']);
    const text = JSON.stringify(card);
    for (const secret of ['gpt-4-turbo', 'temperature', 'order-db', 'order processing specialist']) {
      expect(text).not.toContain(secret);
    }
  });

  it('lists both bindings in both versions at the base URL, 1.0 first', () => {
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`)).toEqual(
      // Without the base URL's trailing slash (decision 0138).
      [
        `JSONRPC 1.0 ${LISTED}`,
        `HTTP+JSON 1.0 ${LISTED}`,
        `JSONRPC 0.3 ${LISTED}`,
        `HTTP+JSON 0.3 ${LISTED}`,
      ],
    );
  });

  it('encodes to the seed 0.3 shape and to a 1.0 card, both lint-clean of errors', () => {
    const v03 = v0_3JsonRpcCodec.encodeAgentCard(card) as Record<string, unknown>;
    expect(v03).toMatchObject({
      protocolVersion: '0.3.0',
      url: LISTED,
      preferredTransport: 'JSONRPC',
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      security: [{ bearer: [] }],
    });
    expect(errorsOf(v03, '0.3')).toEqual([]);
    expect(errorsOf(v1_0Codec.encodeAgentCard(card), '1.0')).toEqual([]);
  });

  it('round-trips through the 1.0 codec unchanged', () => {
    expect(v1_0Codec.decodeAgentCard(v1_0Codec.encodeAgentCard(card), '')).toEqual(card);
  });
});

describe('buildAgentCard: skills from definitions and contracts', () => {
  const options: BuildCardOptions = { ...orgOptions(), baseUrl: 'https://research.example/a2a/' };
  const card = buildAgentCard(researchDefinition(), options);

  it('lists written skills, then one skill per contract', () => {
    expect(card.skills.map((s) => s.id)).toEqual(['summarise', 'research.request', 'research.query-v1']);
    expect(card.skills[0]).toEqual({
      id: 'summarise',
      name: 'Summarise',
      description: 'Summarises a document',
      tags: ['summary'],
      examples: ['Summarise this PDF'],
      securityRequirements: [{ schemes: { bearer: { list: ['docs:read'] } } }],
    });
    expect(card.skills[1]).toEqual({
      id: 'research.request',
      name: 'research.request',
      description: 'Submit a research query.',
      tags: ['research', 'contract'],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    });
  });

  it('describes an undescribed, deprecated contract and names its successor', () => {
    const deprecated = card.skills[2]!;
    expect(deprecated.description).toContain('Accepts the typed message contract "research.query-v1"');
    expect(deprecated.description).toContain('Use research.request for improved source control');
    expect(deprecated.description).toContain('Use "research.request" instead.');
  });

  it('accepts JSON by default when the agent has contracts', () => {
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
  });

  it('leaves extended skills out of the public card and puts them in the extended one', () => {
    expect(card.skills.some((s) => s.id === 'internal-audit')).toBe(false);
    const extended = buildAgentCard(researchDefinition(), {
      ...options,
      extended: true,
      capabilities: { streaming: false, extendedAgentCard: true },
    });
    expect(extended.skills.map((s) => s.id)).toContain('internal-audit');
    expect(extended.capabilities).toEqual({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: true,
    });
    expect(card.capabilities.extendedAgentCard).toBeUndefined();
  });

  it('rejects a skill id that a contract also uses', () => {
    const definition = researchDefinition();
    definition.skills[0]!.id = 'research.request';
    expect(() => buildAgentCard(definition, options)).toThrow(
      /agent "research-bot" \(\/etc\/concord\/concord\.config\.json5:12\): skills 0 and 1 share the id "research\.request"/,
    );
  });

  it('rejects a skill requirement naming an undeclared scheme', () => {
    const definition = researchDefinition();
    definition.skills[0]!.security = [{ oauth: ['read'] }];
    expect(() => buildAgentCard(definition, options)).toThrow(
      /skill "summarise": security requirement 0 names scheme "oauth", which is not in securitySchemes \(declared: bearer\)/,
    );
  });
});

describe('buildAgentCard: security, overrides and validation', () => {
  it("lets the definition's own security replace the organisation's, and [] mean none", () => {
    const definition = processOrderDefinition();
    definition.security = [{ bearer: ['orders:write'] }];
    expect(buildAgentCard(definition, orgOptions()).securityRequirements).toEqual([
      { schemes: { bearer: { list: ['orders:write'] } } },
    ]);
    definition.security = [];
    const open = buildAgentCard(definition, orgOptions());
    expect(open.securityRequirements).toBeUndefined();
    expect(open.securitySchemes).toEqual(BEARER);
  });

  it('omits security members when there are none', () => {
    const card = buildAgentCard(processOrderDefinition(), {
      baseUrl: BASE,
      capabilities: { streaming: false },
    });
    expect('securitySchemes' in card).toBe(false);
    expect('securityRequirements' in card).toBe(false);
    expect('provider' in card).toBe(false);
  });

  it('takes provider, icon, documentation and modes from the card block', () => {
    const definition = processOrderDefinition();
    definition.card = {
      provider: { organization: 'Order Team', url: 'https://orders.acme.com' },
      iconUrl: 'https://api.acme.com/icon.png',
      documentationUrl: 'https://docs.acme.com/agents/process-order',
      defaultInputModes: ['application/json', 'text/plain'],
      defaultOutputModes: ['application/json'],
    };
    const card = buildAgentCard(definition, orgOptions());
    expect(card.provider).toEqual({ organization: 'Order Team', url: 'https://orders.acme.com' });
    expect(card.iconUrl).toBe('https://api.acme.com/icon.png');
    expect(card.documentationUrl).toBe('https://docs.acme.com/agents/process-order');
    expect(card.defaultInputModes).toEqual(['application/json', 'text/plain']);
    expect(card.defaultOutputModes).toEqual(['application/json']);
  });

  it('uses given interfaces and declared extensions', () => {
    const card = buildAgentCard(processOrderDefinition(), {
      ...orgOptions(),
      interfaces: [{ url: 'https://grpc.acme.com/a2a', protocolBinding: 'GRPC', protocolVersion: '1.0' }],
      capabilities: {
        streaming: true,
        extensions: [{ uri: 'https://example.com/ext/aump/v1', required: true }],
      },
    });
    expect(card.supportedInterfaces).toHaveLength(1);
    expect(card.capabilities.extensions).toEqual([
      { uri: 'https://example.com/ext/aump/v1', required: true },
    ]);
  });

  it("gives a tagless agent's default skill its id as tag (1.0 needs one)", () => {
    const definition = processOrderDefinition();
    definition.tags = [];
    expect(buildAgentCard(definition, orgOptions()).skills[0]!.tags).toEqual(['ProcessOrder']);
  });

  it('rejects a bad base URL, an organisation requirement on an undeclared scheme, a blank description', () => {
    const definition = processOrderDefinition();
    expect(() =>
      buildAgentCard(definition, { ...orgOptions(), baseUrl: 'https://api.acme.com/a2a' }),
    ).toThrow(/baseUrl "https:\/\/api\.acme\.com\/a2a" must end with '\/'/);
    expect(() => buildAgentCard(definition, { ...orgOptions(), baseUrl: 'agents/x/' })).toThrow(
      /baseUrl "agents\/x\/" is not an absolute URL/,
    );
    expect(() => buildAgentCard(definition, { ...orgOptions(), securitySchemes: {} })).toThrow(
      /names scheme "bearer", which is not in securitySchemes \(none are declared\)/,
    );
    definition.description = ' ';
    expect(() => buildAgentCard(definition, orgOptions())).toThrow(
      /agent "ProcessOrder" \(\/agents\/process-order\.md:1\): the agent has no description/,
    );
  });

  it('does not share arrays with the definition or the options', () => {
    const definition = processOrderDefinition();
    const options = orgOptions();
    const card = buildAgentCard(definition, options);
    card.skills[0]!.tags.push('mutated');
    card.securityRequirements![0]!.schemes.bearer!.list.push('x');
    expect(definition.tags).toEqual(['order', 'processing', 'inventory']);
    expect(options.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });
});
