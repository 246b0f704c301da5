import { describe, it, expect } from 'vitest';
import { v0_3JsonRpcCodec as rpc, v0_3RestCodec as rest } from '../../src/protocol/v0_3/index.js';
import { encodeGrpcAgentCard } from '../../src/protocol/v0_3/grpc-card.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';
import { expectInvalid } from './expect-invalid.js';
import { wire, card } from './v0_3-fixtures.js';

describe('0.3 agent card', () => {
  it('encodes the 0.3 card from the canonical card, keeping supportedInterfaces', () => {
    expect(rpc.encodeAgentCard(card)).toEqual({
      protocolVersion: '0.3.0',
      name: 'Dealer agent',
      description: 'Finds cars',
      url: 'https://dealer.example.com/a2a',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'https://dealer.example.com/a2a', transport: 'JSONRPC' },
        { url: 'https://dealer.example.com/rest', transport: 'HTTP+JSON' },
      ],
      iconUrl: 'https://dealer.example.com/icon.png',
      provider: { organization: 'Example Motors', url: 'https://example.com' },
      version: '2.1.0',
      documentationUrl: 'https://dealer.example.com/docs',
      capabilities: {
        streaming: true,
        pushNotifications: false,
        extensions: [
          {
            uri: 'https://example.com/ext/aump/v1',
            description: 'mandates',
            required: true,
            params: { a: 1 },
          },
        ],
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'key' },
        bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
        oauth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://auth.example.com/authorize',
              tokenUrl: 'https://auth.example.com/token',
              refreshUrl: 'https://auth.example.com/refresh',
              scopes: { read: 'Read', write: 'Write' },
            },
          },
          oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
        },
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration',
        },
        mtls: { type: 'mutualTLS', description: 'client certificate' },
      },
      security: [{ oauth: ['read'] }, { apiKey: [], mtls: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [
        {
          id: 'search',
          name: 'Search',
          description: 'Searches the stock',
          tags: ['cars'],
          examples: ['red sedan'],
          inputModes: ['text/plain'],
          outputModes: ['application/json'],
          security: [{ oauth: ['read', 'write'] }],
        },
      ],
      supportsAuthenticatedExtendedCard: true,
      signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k1' } }],
      supportedInterfaces: card.supportedInterfaces,
    });
    // HTTP+JSON's extended card is the 0.3 proto AgentCard, as gRPC's is (decision 0143).
    expect(rest.encodeAgentCard(card)).toEqual(encodeGrpcAgentCard(card));
    expect(JSON.stringify(rest.encodeAgentCard(card))).not.toContain('"type":');
  });

  it('round-trips the canonical card through the 0.3 form', () => {
    expect(rpc.decodeAgentCard(wire(rpc.encodeAgentCard(card)), '')).toEqual(card);
    expect(rest.decodeAgentCard(wire(rest.encodeAgentCard(card)), '')).toEqual(card);
  });

  it('falls back to the first interface, and drops what 0.3 cannot say', () => {
    const only10: AgentCard = {
      ...card,
      supportedInterfaces: [
        { url: 'https://x.example.com', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      securitySchemes: {
        device: {
          oauth2SecurityScheme: {
            flows: {
              deviceCode: { deviceAuthorizationUrl: 'https://a/d', tokenUrl: 'https://a/t', scopes: {} },
              authorizationCode: {
                authorizationUrl: 'https://a/a',
                tokenUrl: 'https://a/t',
                scopes: {},
                pkceRequired: true,
              },
            },
          },
        },
      },
      capabilities: {},
    };
    const encoded = rpc.encodeAgentCard(only10) as Record<string, unknown>;
    expect(encoded.url).toBe('https://x.example.com');
    expect(encoded.preferredTransport).toBe('HTTP+JSON');
    expect(encoded.additionalInterfaces).toBeUndefined();
    expect(encoded.supportsAuthenticatedExtendedCard).toBeUndefined();
    expect(encoded.capabilities).toEqual({});
    expect(encoded.securitySchemes).toEqual({
      device: {
        type: 'oauth2',
        flows: {
          authorizationCode: { authorizationUrl: 'https://a/a', tokenUrl: 'https://a/t', scopes: {} },
        },
      },
    });
  });

  it('decodes a plain 0.3 card, building the interfaces from url and additionalInterfaces', () => {
    const wireCard = {
      protocolVersion: '0.3.0',
      name: 'Recipe Agent',
      description: 'Cooks',
      url: 'https://r.example.com/a2a',
      additionalInterfaces: [
        { url: 'https://r.example.com/a2a', transport: 'JSONRPC' },
        { url: 'https://r.example.com/grpc', transport: 'GRPC' },
      ],
      version: '1.0.0',
      capabilities: { streaming: true, stateTransitionHistory: true },
      securitySchemes: {
        key: { type: 'apiKey', in: 'query', name: 'k' },
        multi: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: 'https://a/t', scopes: { s: 'S' } },
            password: { tokenUrl: 'https://a/p', scopes: {} },
            implicit: { authorizationUrl: 'https://a/i', refreshUrl: 'https://a/r', scopes: {} },
          },
        },
      },
      security: [{ key: [] }],
      defaultInputModes: [],
      defaultOutputModes: ['text/plain'],
      skills: [],
      supportsAuthenticatedExtendedCard: false,
    };
    expect(rpc.decodeAgentCard(wireCard, '')).toEqual({
      name: 'Recipe Agent',
      description: 'Cooks',
      // preferredTransport defaults to JSONRPC (A2A 0.3 §5.6.1); the duplicate main pair is listed once.
      supportedInterfaces: [
        { url: 'https://r.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: 'https://r.example.com/grpc', protocolBinding: 'GRPC', protocolVersion: '0.3' },
      ],
      version: '1.0.0',
      capabilities: { streaming: true, extendedAgentCard: false },
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: 'query', name: 'k' } },
        multi: {
          oauth2SecurityScheme: {
            flows: {
              clientCredentials: { tokenUrl: 'https://a/t', scopes: { s: 'S' } },
              password: { tokenUrl: 'https://a/p', scopes: {} },
              implicit: { authorizationUrl: 'https://a/i', refreshUrl: 'https://a/r', scopes: {} },
            },
          },
        },
      },
      securityRequirements: [{ schemes: { key: { list: [] } } }],
      defaultInputModes: [],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
  });

  it('rejects malformed cards with exact paths', () => {
    const base = rpc.encodeAgentCard(card) as Record<string, unknown>;
    expectInvalid(() => rpc.decodeAgentCard({ ...base, url: undefined }, ''), '/url');
    expectInvalid(() => rpc.decodeAgentCard({ ...base, capabilities: undefined }, ''), '/capabilities');
    expectInvalid(
      () =>
        rpc.decodeAgentCard(
          { ...base, securitySchemes: { x: { type: 'apiKey', location: 'header', name: 'n' } } },
          '',
        ),
      '/securitySchemes/x/in',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, securitySchemes: { x: { type: 'magic' } } }, ''),
      '/securitySchemes/x/type',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, securitySchemes: { x: { apiKeySecurityScheme: {} } } }, ''),
      '/securitySchemes/x/type',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, security: [{ oauth: 'read' }] }, ''),
      '/security/0/oauth',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, skills: [{ id: 's', name: 'n', description: 'd' }] }, ''),
      '/skills/0/tags',
    );
    expectInvalid(
      () => rpc.decodeAgentCard({ ...base, additionalInterfaces: [{ url: 'https://x' }] }, ''),
      '/additionalInterfaces/0/transport',
    );
  });
});
