// The agent host through HTTP (decision 0015): a directory of agents — exposed and not, with contracts,
// a model agent on a local OpenAI-compatible server, the seed's ProcessOrder file as written —
// served with generated, secured and signed cards.
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Wire JSON read in assertions; its shape is what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
import { lintAgentCard, verifyAgentCard } from '../../src/card/index.js';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { startOpenAiStub } from '../helpers/openai-stub.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/host');
const JWT_SECRET = 'a-test-secret-of-at-least-thirty-two-bytes!';
const API_KEY = 'partner-key-0123456789';

let dir: string;
let host: RunningHost;
let stub: Awaited<ReturnType<typeof startOpenAiStub>>;

async function token(scopes: string[] = [], subject = 'alice'): Promise<string> {
  return new SignJWT({ scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuer('https://issuer.acme.test')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

function send(url: string, text: string, headers: Record<string, string> = {}, metadata?: object) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: `m-${Math.random()}`,
          role: 'ROLE_USER',
          parts: [{ text }],
          ...(metadata === undefined ? {} : { metadata }),
        },
      },
    }),
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-host-'));
  cpSync(FIXTURE, dir, { recursive: true });
  // The fixture's MCP server imports the SDK; a copy in tmp finds it through this link.
  symlinkSync(join(import.meta.dirname, '../../node_modules'), join(dir, 'node_modules'));
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(dir, 'signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  stub = await startOpenAiStub({ tokens: ['Order ', 'accepted.'] });
  host = await startHost(dir, {
    port: 0,
    internalPort: 0,
    store: 'memory',
    env: {
      TEST_JWT_SECRET: JWT_SECRET,
      TEST_API_KEY: API_KEY,
      OPENAI_BASE_URL: stub.url,
      OPENAI_API_KEY: 'sk-test',
    },
  });
});

afterAll(async () => {
  await host?.close();
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('agent host', () => {
  it('lists only exposed agents publicly, every agent internally', async () => {
    const listed = (await (await fetch(`${host.url}agents`)).json()) as { agents: { id: string }[] };
    expect(listed.agents.map((a) => a.id).sort()).toEqual(['ProcessOrder', 'greeter', 'research-bot']);
    const internal = (await (await fetch(`${host.internalUrl}agents`)).json()) as {
      agents: { id: string }[];
    };
    expect(internal.agents.map((a) => a.id)).toContain('internal-audit');
  });

  it('hides the unexposed agent on the public listener unless the caller has the internal scope', async () => {
    const hidden = await fetch(`${host.url}agents/internal-audit/.well-known/agent-card.json`);
    expect(hidden.status).toBe(404);
    const withoutScope = await fetch(`${host.url}agents/internal-audit/.well-known/agent-card.json`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(withoutScope.status).toBe(404);
    const insider = await fetch(`${host.url}agents/internal-audit/.well-known/agent-card.json`, {
      headers: { authorization: `Bearer ${await token(['agents:internal'])}` },
    });
    expect(insider.status).toBe(200);
    const internal = await send(`${host.internalUrl}agents/internal-audit/`, 'audit this', {
      'x-api-key': API_KEY,
    });
    expect(internal.status).toBe(200);
    const body = (await internal.json()) as { result: { task: { status: { state: string } } } };
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it("serves the seed's ProcessOrder card for 1.0 and 0.3 clients, with the org's bearer scheme", async () => {
    const base = `${host.url}agents/ProcessOrder/.well-known/agent-card.json`;
    const v1 = (await (await fetch(base, { headers: { 'a2a-version': '1.0' } })).json()) as Json;
    expect(v1.name).toBe('ProcessOrder');
    expect(v1.description).toBe('Processes incoming orders from external partners');
    expect(v1.skills[0].tags).toEqual(['order', 'processing', 'inventory']);
    expect(v1.securitySchemes.bearer).toEqual({
      httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(v1.provider).toEqual({ organization: 'ACME Corporation', url: 'https://www.acme.test' });
    expect(v1.supportedInterfaces[0].url).toBe(`${host.url}agents/ProcessOrder`);
    expect(JSON.stringify(v1)).not.toContain(JWT_SECRET);
    expect(JSON.stringify(v1)).not.toContain(API_KEY);
    const v03 = (await (await fetch(base)).json()) as Json;
    expect(v03.protocolVersion).toMatch(/^0\.3/);
    expect(v03.url).toBe(`${host.url}agents/ProcessOrder`);
    expect(v03.preferredTransport).toBe('JSONRPC');
    expect(v03.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(v03.skills[0].tags).toEqual(['order', 'processing', 'inventory']);
  });

  it('derives skills from contracts', async () => {
    const card = (await (
      await fetch(`${host.url}agents/research-bot/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as { skills: { id: string; description: string; inputModes?: string[] }[] };
    const skill = card.skills.find((s) => s.id === 'research.request');
    expect(skill?.description).toContain('Submit a research query');
    expect(skill?.inputModes).toEqual(['application/json']);
  });

  it('answers 304 for a matching If-None-Match on every card route', async () => {
    for (const path of ['agents/greeter/.well-known/agent-card.json', '.well-known/agent-card.json']) {
      const first = await fetch(`${host.url}${path}`);
      const etag = first.headers.get('etag');
      expect(etag, path).toBeTruthy();
      expect(first.headers.get('cache-control'), path).toMatch(/max-age=\d+/);
      const again = await fetch(`${host.url}${path}`, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
    }
  });

  it('enforces bearer and API-key auth with the right statuses', async () => {
    const url = `${host.url}agents/greeter/`;
    const none = await send(url, 'hi');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const badKey = await send(url, 'hi', { 'x-api-key': 'wrong' });
    expect(badKey.status).toBe(401);
    expect(await badKey.text()).not.toContain('wrong');
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuer('https://issuer.acme.test')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect((await send(url, 'hi', { authorization: `Bearer ${expired}` })).status).toBe(401);
    expect((await send(url, 'hi', { authorization: `Bearer ${await token()}` })).status).toBe(200);
    expect((await send(url, 'hi', { 'x-api-key': API_KEY })).status).toBe(200);
    // Per-skill requirement: the vip skill needs the vip scope.
    const vip = { skillId: 'vip-greet' };
    expect((await send(url, 'hi', { authorization: `Bearer ${await token()}` }, vip)).status).toBe(403);
    expect((await send(url, 'hi', { authorization: `Bearer ${await token(['vip'])}` }, vip)).status).toBe(
      200,
    );
  });

  it('serves the extended card only to authenticated callers', async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${host.url}agents/greeter/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetExtendedAgentCard', params: {} }),
      });
    expect((await call({})).status).toBe(401);
    const ok = (await (await call({ authorization: `Bearer ${await token()}` })).json()) as {
      result: { skills: { id: string }[]; capabilities: { extendedAgentCard?: boolean } };
    };
    expect(ok.result.skills.map((s) => s.id)).toContain('staff-directory');
    const publicCard = (await (
      await fetch(`${host.url}agents/greeter/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as { skills: { id: string }[]; capabilities: { extendedAgentCard?: boolean } };
    expect(publicCard.skills.map((s) => s.id)).not.toContain('staff-directory');
    expect(publicCard.capabilities.extendedAgentCard).toBe(true);
    // An agent without extended skills has none to give.
    const research = (await (
      await fetch(`${host.url}agents/research-bot/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '0.3',
          authorization: `Bearer ${await token()}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'agent/getAuthenticatedExtendedCard' }),
      })
    ).json()) as { error: { code: number } };
    expect(research.error.code).toBe(-32007);
  });

  it('runs the model agent on the OpenAI-compatible endpoint with the definition settings', async () => {
    const response = await send(`${host.url}agents/ProcessOrder/`, 'order 42 please', {
      authorization: `Bearer ${await token()}`,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      result: { task: { status: { state: string }; artifacts: { parts: { text: string }[] }[] } };
    };
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result.task.artifacts[0]!.parts.map((p) => p.text).join('')).toBe('Order accepted.');
    const sent = stub.requests.at(-1)!.body as Json;
    expect(sent.model).toBe('gpt-4-turbo');
    expect(sent.temperature).toBe(0.7);
    expect(sent.messages[0]).toEqual({
      role: 'system',
      content: 'You are an order processing specialist...',
    });
    expect(JSON.stringify(sent.messages)).toContain('order 42 please');
    // The host's other agents are offered as a tool (agent-to-agent send, decision 0021).
    expect(sent.tools[0].function.name).toBe('send_to_agent');
    expect(sent.tools[0].function.parameters.properties.agent.enum).toEqual(
      expect.arrayContaining(['greeter', 'internal-audit', 'research-bot']),
    );
  });

  it('serves a directory card at the root: the exposed agents, the org security, signed', async () => {
    const jwks = { jwks: new URL(`${host.url}.well-known/jwks.json`) };
    const v1 = (await (
      await fetch(`${host.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as Json;
    expect(v1.name).toBe('ACME Corporation');
    expect(v1.provider).toEqual({ organization: 'ACME Corporation', url: 'https://www.acme.test' });
    expect(v1.skills.map((s: Json) => s.id).sort()).toEqual(['ProcessOrder', 'greeter', 'research-bot']);
    expect(v1.supportedInterfaces.map((i: Json) => i.url).sort()).toEqual(
      ['ProcessOrder', 'greeter', 'research-bot'].map((id) => `${host.url}agents/${id}/`),
    );
    // The same schemes and host-wide requirements as every agent card that does not set its own.
    expect(Object.keys(v1.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(v1.securityRequirements).toEqual([{ schemes: { bearer: {} } }, { schemes: { apiKey: {} } }]);
    expect(v1.capabilities).toEqual({ streaming: true, pushNotifications: false, extendedAgentCard: false });
    expect(lintAgentCard(v1, '1.0').filter((p) => p.severity === 'error')).toEqual([]);
    expect((await verifyAgentCard(v1, jwks)).kid).toBe('cards-2026');
    // 0.3 clients get the 0.3 form, signed as they receive it.
    const v03 = (await (await fetch(`${host.url}.well-known/agent-card.json`)).json()) as Json;
    expect(v03.protocolVersion).toMatch(/^0\.3/);
    expect(v03.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(lintAgentCard(v03, '0.3').filter((p) => p.severity === 'error')).toEqual([]);
    expect((await verifyAgentCard(v03, jwks)).kid).toBe('cards-2026');
    // The internal listener's directory lists every agent.
    const internal = (await (
      await fetch(`${host.internalUrl}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as Json;
    expect(internal.skills.map((s: Json) => s.id)).toContain('internal-audit');
  });

  it('serves the extended card to an authenticated 0.3 client, in the 0.3 shape', async () => {
    const call = async (headers: Record<string, string>): Promise<{ status: number } & Json> => {
      const response = await fetch(`${host.url}agents/greeter/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '0.3', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'agent/getAuthenticatedExtendedCard' }),
      });
      return { status: response.status, ...((await response.json()) as Json) };
    };
    const denied = await call({});
    expect(denied.status).toBe(401);
    expect(denied.error.code).toBe(-32010);
    const ok = await call({ authorization: `Bearer ${await token()}` });
    expect(ok.status).toBe(200);
    expect(ok.error).toBeUndefined();
    expect(ok.result.protocolVersion).toMatch(/^0\.3/);
    expect(ok.result.url).toBe(`${host.url}agents/greeter`);
    expect(ok.result.skills.map((s: Json) => s.id)).toEqual(['greet', 'vip-greet', 'staff-directory']);
    expect(lintAgentCard(ok.result, '0.3').filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('serves the signing keys as a JWKS next to the signed cards', async () => {
    const jwks = (await (await fetch(`${host.url}.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).toEqual(['cards-2026']);
    expect(JSON.stringify(jwks)).not.toMatch(/"d"/);
    const card = (await (await fetch(`${host.url}agents/greeter/.well-known/agent-card.json`)).json()) as {
      signatures: { protected: string }[];
    };
    const header = JSON.parse(Buffer.from(card.signatures[0]!.protected, 'base64url').toString()) as Record<
      string,
      string
    >;
    expect(header).toMatchObject({ alg: 'ES256', kid: 'cards-2026' });
  });
});

describe('a host with one agent', () => {
  let single: RunningHost;
  let soloDir: string;

  beforeAll(async () => {
    soloDir = mkdtempSync(join(tmpdir(), 'concord-solo-'));
    cpSync(join(FIXTURE, 'echo-handler.mjs'), join(soloDir, 'echo-handler.mjs'));
    writeFileSync(
      join(soloDir, 'solo.md'),
      '---\nname: solo\nexposed: true\ndescription: The only agent here.\nhandler: ./echo-handler.mjs\n---\n',
    );
    single = await startHost(soloDir, { port: 0, store: 'memory' });
  });

  afterAll(async () => {
    await single?.close();
    rmSync(soloDir, { recursive: true, force: true });
  });

  it('serves the agent at the root too, with a card whose interfaces point at the root', async () => {
    const root = (await (
      await fetch(`${single.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as Json;
    expect(root.name).toBe('solo');
    expect(root.supportedInterfaces[0].url).toBe(single.url.slice(0, -1));
    const mounted = (await (
      await fetch(`${single.url}agents/solo/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as Json;
    expect(mounted.supportedInterfaces[0].url).toBe(`${single.url}agents/solo`);
  });

  it('shares tasks between the root and /agents/<id>/', async () => {
    const sent = (await (await send(single.url, 'at the root')).json()) as Json;
    const taskId = sent.result.task.id as string;
    const got = (await (
      await fetch(`${single.url}agents/solo/tasks/${taskId}`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as Json;
    expect(got.id).toBe(taskId);
    expect(got.artifacts[0].parts[0].text).toBe('handled: at the root');
  });

  it('refuses to start a model agent without an endpoint, naming what to set', async () => {
    const modelDir = mkdtempSync(join(tmpdir(), 'concord-model-'));
    try {
      writeFileSync(join(modelDir, 'm.md'), '---\nname: m\ndescription: d\nmodel: some-model\n---\nHi\n');
      await expect(startHost(modelDir, { port: 0, store: 'memory', env: {} })).rejects.toThrow(
        /OPENAI_BASE_URL/,
      );
    } finally {
      rmSync(modelDir, { recursive: true, force: true });
    }
  });
});

describe('API keys in the query and in a cookie, through the host', () => {
  let keyed: RunningHost;
  let keyedDir: string;
  const QUERY_KEY = 'query-key-0123456789';
  const COOKIE_KEY = 'cookie-key-0123456789';

  beforeAll(async () => {
    keyedDir = mkdtempSync(join(tmpdir(), 'concord-keys-'));
    cpSync(join(FIXTURE, 'echo-handler.mjs'), join(keyedDir, 'echo-handler.mjs'));
    writeFileSync(
      join(keyedDir, 'concord.config.json5'),
      `{
  security: {
    schemes: {
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key', keys: [{ key: { env: 'QUERY_KEY' }, principal: 'q' }] },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'session', keys: [{ key: { env: 'COOKIE_KEY' }, principal: 'c' }] },
    },
    requirements: [{ queryKey: [] }, { cookieKey: [] }],
  },
}
`,
    );
    writeFileSync(
      join(keyedDir, 'keyed.md'),
      '---\nname: keyed\nexposed: true\ndescription: Needs a key.\nhandler: ./echo-handler.mjs\n---\n',
    );
    keyed = await startHost(keyedDir, {
      port: 0,
      store: 'memory',
      env: { QUERY_KEY: QUERY_KEY, COOKIE_KEY: COOKIE_KEY },
    });
  });

  afterAll(async () => {
    await keyed?.close();
    rmSync(keyedDir, { recursive: true, force: true });
  });

  it('declares both schemes on the card, which itself needs no key', async () => {
    const card = (await (
      await fetch(`${keyed.url}agents/keyed/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as Json;
    expect(card.securitySchemes).toEqual({
      queryKey: { apiKeySecurityScheme: { location: 'query', name: 'api_key' } },
      cookieKey: { apiKeySecurityScheme: { location: 'cookie', name: 'session' } },
    });
  });

  it('refuses a call without a key, naming where each key goes', async () => {
    const none = await send(`${keyed.url}agents/keyed/`, 'hi');
    expect(none.status).toBe(401);
    const challenge = none.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('ApiKey realm="a2a", in="query", name="api_key"');
    expect(challenge).toContain('ApiKey realm="a2a", in="cookie", name="session"');
  });

  it('accepts the key in the query string, on JSON-RPC and on HTTP+JSON, and refuses a wrong one', async () => {
    expect((await send(`${keyed.url}agents/keyed/?api_key=${QUERY_KEY}`, 'hi')).status).toBe(200);
    const rest = await fetch(`${keyed.url}agents/keyed/tasks?api_key=${QUERY_KEY}`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(rest.status).toBe(200);
    const wrong = await send(`${keyed.url}agents/keyed/?api_key=not-the-key`, 'hi');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('not-the-key');
  });

  it("gives agents below /agents/<id>/ the caller's address (per-client limits rely on it)", async () => {
    const response = await send(`${keyed.url}agents/keyed/`, 'whoami', { cookie: `session=${COOKIE_KEY}` });
    const body = (await response.json()) as Json;
    expect(body.result.task.artifacts[0].parts[0].text).toBe('caller: 127.0.0.1');
  });

  it('accepts the key in a cookie among others, and refuses a wrong one', async () => {
    const ok = await send(`${keyed.url}agents/keyed/`, 'hi', { cookie: `theme=dark; session=${COOKIE_KEY}` });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as Json;
    expect(body.result.task.artifacts[0].parts[0].text).toBe('handled: hi');
    const wrong = await send(`${keyed.url}agents/keyed/`, 'hi', { cookie: 'session=stale-cookie' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('stale-cookie');
  });
});
