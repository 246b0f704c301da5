import { describe, expect, it } from 'vitest';
import { base64url } from 'jose';
import { buildAgentCard, lintAgentCard, type CardProblem } from '../../src/card/index.js';
import { v0_3JsonRpcCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { BEARER, researchDefinition } from './definitions.js';

type Json = Record<string, unknown>;

const card = buildAgentCard(researchDefinition(), {
  baseUrl: 'https://research.example/a2a/',
  organization: { name: 'Example', url: 'https://example.com' },
  securitySchemes: BEARER,
  securityRequirements: [{ schemes: { bearer: { list: ['research'] } } }],
  capabilities: { streaming: true, extendedAgentCard: true },
});
const good10 = (): Json => structuredClone(v1_0Codec.encodeAgentCard(card) as Json);
const good03 = (): Json => structuredClone(v0_3JsonRpcCodec.encodeAgentCard(card) as Json);

/** Problems as "severity path" strings, for compact expectations. */
const brief = (problems: CardProblem[]): string[] => problems.map((p) => `${p.severity} ${p.path}`);

/** The message of the one problem at `path`. */
function messageAt(problems: CardProblem[], path: string): string {
  const found = problems.filter((p) => p.path === path);
  expect(found, `problems at ${path}: ${JSON.stringify(problems)}`).toHaveLength(1);
  return found[0]!.message;
}

describe('lintAgentCard 1.0', () => {
  it('finds nothing wrong with a built card', () => {
    expect(lintAgentCard(good10(), '1.0')).toEqual([]);
  });

  it('requires the 1.0 members and non-empty REQUIRED lists', () => {
    const json = good10();
    delete json.supportedInterfaces;
    delete json.version;
    json.capabilities = 'yes';
    json.skills = [];
    json.defaultOutputModes = [];
    const problems = lintAgentCard(json, '1.0');
    expect(brief(problems)).toEqual([
      'error /version',
      'error /supportedInterfaces',
      'error /capabilities',
      'error /defaultOutputModes',
      'error /skills',
    ]);
    expect(messageAt(problems, '/skills')).toBe('skills must list at least one entry');
    expect(messageAt(problems, '/capabilities')).toBe('capabilities must be an object, got a string');
  });

  it('checks each skill and flags duplicate ids', () => {
    const json = good10();
    const skills = json.skills as Json[];
    skills[1]!.id = skills[0]!.id;
    delete skills[2]!.description;
    skills[2]!.tags = [];
    skills[0]!.inputModes = ['json'];
    const problems = lintAgentCard(json, '1.0');
    expect(messageAt(problems, '/skills/1/id')).toBe('"summarise" is already the id of /skills/0');
    expect(messageAt(problems, '/skills/2/description')).toBe('description is required');
    expect(messageAt(problems, '/skills/2/tags')).toBe('tags must list at least one entry');
    expect(messageAt(problems, '/skills/0/inputModes/0')).toBe('"json" is not a media type (type/subtype)');
  });

  it('checks interface URLs, bindings, versions and duplicates', () => {
    const json = good10();
    json.supportedInterfaces = [
      { url: 'http://research.example/a2a/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: '/a2a/', protocolBinding: 'jsonrpc', protocolVersion: '1.0.0' },
      { url: 'https://research.example/a2a/', protocolBinding: 'SOAP', protocolVersion: '1.0' },
      { url: 'grpc.research.example:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      {
        url: 'https://research.example/x/',
        protocolBinding: 'https://example.com/bindings/mqtt',
        protocolVersion: '1.0',
      },
      { url: 'http://localhost:8080/', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'http://research.example/a2a/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ];
    const problems = lintAgentCard(json, '1.0');
    expect(messageAt(problems, '/supportedInterfaces/0/url')).toContain('uses plain http');
    expect(messageAt(problems, '/supportedInterfaces/1/protocolBinding')).toBe(
      '"jsonrpc" must be spelled "JSONRPC"',
    );
    expect(messageAt(problems, '/supportedInterfaces/1/url')).toBe('"/a2a/" is not an absolute URL');
    expect(messageAt(problems, '/supportedInterfaces/1/protocolVersion')).toBe(
      '"1.0.0" is not of the form Major.Minor (drop the patch number)',
    );
    expect(messageAt(problems, '/supportedInterfaces/2/protocolBinding')).toContain(
      '"SOAP" is not a known binding',
    );
    expect(messageAt(problems, '/supportedInterfaces/6')).toBe('duplicates interface 0');
    expect(brief(problems).filter((p) => /\/(3|4|5)/.test(p))).toEqual([]);
    expect(problems.find((p) => p.path === '/supportedInterfaces/0/url')!.severity).toBe('warning');
  });

  it('flags requirements naming undeclared schemes, on the card and on skills', () => {
    const json = good10();
    json.securityRequirements = [{ schemes: { bearer: { list: [] }, oauth: { list: ['read'] } } }];
    ((json.skills as Json[])[0]!.securityRequirements as Json[]).push({
      schemes: { apiKey: { list: ['x'] } },
    });
    const problems = lintAgentCard(json, '1.0').filter((p) => p.severity === 'error');
    expect(problems).toEqual([
      {
        path: '/securityRequirements/0/schemes/oauth',
        message: 'names scheme "oauth", which securitySchemes does not declare',
        severity: 'error',
      },
      {
        path: '/skills/0/securityRequirements/1/schemes/apiKey',
        message: 'names scheme "apiKey", which securitySchemes does not declare',
        severity: 'error',
      },
    ]);
  });

  it('checks 1.0 scheme shapes', () => {
    const json = good10();
    json.securitySchemes = {
      bearer: { type: 'http', scheme: 'bearer' },
      key: { apiKeySecurityScheme: { in: 'header', name: 'X-Key' } },
    };
    const problems = lintAgentCard(json, '1.0');
    expect(messageAt(problems, '/securitySchemes/bearer')).toContain(
      'must hold exactly one of apiKeySecurityScheme',
    );
    expect(messageAt(problems, '/securitySchemes/key/apiKeySecurityScheme/in')).toBe(
      '1.0 names this member "location" (A2A 1.0 §4.5.2)',
    );
  });

  it('checks provider and link URLs', () => {
    const json = good10();
    json.provider = { organization: 'Example', url: 'example.com' };
    json.iconUrl = 'ftp://example.com/icon.png';
    json.documentationUrl = 42;
    const problems = lintAgentCard(json, '1.0');
    expect(messageAt(problems, '/provider/url')).toBe('"example.com" is not an absolute URL');
    expect(messageAt(problems, '/iconUrl')).toBe(
      '"ftp://example.com/icon.png" uses ftp: where http(s) is required',
    );
    expect(messageAt(problems, '/documentationUrl')).toBe('documentationUrl must be a string, got a number');
  });

  it('flags forbidden and incomplete signature headers', () => {
    const json = good10();
    const header = (h: object): string => base64url.encode(JSON.stringify(h));
    json.signatures = [
      { protected: header({ alg: 'none', kid: 'k' }), signature: '' },
      { protected: header({ alg: 'ES256' }), signature: 'AA' },
    ];
    const problems = lintAgentCard(json, '1.0');
    expect(problems.filter((p) => p.path === '/signatures/0/protected').map((p) => p.message)).toEqual([
      'alg "none" is an unsigned JWS and proves nothing',
      'the protected header SHOULD have typ "JOSE" (A2A 1.0 §8.4)',
    ]);
    expect(messageAt(problems, '/signatures/0/signature')).toBe('signature must not be empty');
    expect(problems.map((p) => p.message)).toContain('the protected header lacks "kid" (A2A 1.0 §8.4)');
  });

  it('warns about default values ProtoJSON would drop from the signed payload', () => {
    const json = good10();
    (json.skills as Json[])[0]!.examples = [];
    json.securityRequirements = [{ schemes: { bearer: { list: [] } } }];
    const problems = lintAgentCard(json, '1.0');
    expect(brief(problems)).toEqual([
      'warning /skills/0/examples',
      'warning /securityRequirements/0/schemes/bearer/list',
    ]);
    expect(problems[0]!.message).toContain('ProtoJSON omits (A2A 1.0 §8.4.1)');
  });

  it('reports a card that is not an object at the root', () => {
    expect(lintAgentCard([], '1.0')).toEqual([
      { path: '', message: 'an AgentCard must be a JSON object, got an array', severity: 'error' },
    ]);
  });
});

describe('lintAgentCard 0.3', () => {
  it('finds nothing wrong with a built card', () => {
    expect(lintAgentCard(good03(), '0.3')).toEqual([]);
  });

  it('requires protocolVersion, url and preferredTransport', () => {
    const json = good03();
    delete json.protocolVersion;
    delete json.url;
    delete json.preferredTransport;
    const problems = lintAgentCard(json, '0.3');
    expect(brief(problems)).toEqual(['error /protocolVersion', 'error /url', 'error /preferredTransport']);
  });

  it('warns when additionalInterfaces leaves out the main interface, and about duplicates', () => {
    const json = good03();
    json.url = 'https://research.example/main/';
    json.additionalInterfaces = [
      { url: 'https://research.example/a2a/', transport: 'HTTP+JSON' },
      { url: 'https://research.example/a2a/', transport: 'HTTP+JSON' },
    ];
    const problems = lintAgentCard(json, '0.3');
    expect(messageAt(problems, '/additionalInterfaces')).toBe(
      'does not list the main interface (JSONRPC at https://research.example/main/); ' +
        '0.3 clients choosing from this list will miss it',
    );
    expect(messageAt(problems, '/additionalInterfaces/1')).toBe('duplicates interface 0');
    expect(problems.every((p) => p.severity === 'warning')).toBe(true);
  });

  it('checks 0.3 skills, schemes and requirements', () => {
    const json = good03();
    const skills = json.skills as Json[];
    delete skills[0]!.tags;
    skills[1]!.tags = [];
    json.security = [{ bearer: [] }, { oauth: ['read'] }];
    json.securitySchemes = { bearer: { type: 'http' } };
    json.protocolVersion = '1.0';
    const problems = lintAgentCard(json, '0.3');
    expect(messageAt(problems, '/skills/0/tags')).toBe('tags is required');
    expect(problems.find((p) => p.path === '/skills/1/tags')!.severity).toBe('warning');
    expect(messageAt(problems, '/security/1/oauth')).toBe(
      'names scheme "oauth", which securitySchemes does not declare',
    );
    expect(messageAt(problems, '/securitySchemes/bearer/scheme')).toBe('scheme is required');
    expect(messageAt(problems, '/protocolVersion')).toBe('"1.0" is not a 0.3 version (expected "0.3.0")');
  });

  it('lints the 1.0 interface list a hybrid 0.3 card carries', () => {
    const json = good03();
    (json.supportedInterfaces as Json[])[0]!.url = 'not a url';
    expect(brief(lintAgentCard(json, '0.3'))).toEqual(['error /supportedInterfaces/0/url']);
  });
});
