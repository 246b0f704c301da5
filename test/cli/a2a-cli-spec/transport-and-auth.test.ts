/**
 * Transport, version and credentials of a2a-cli SPEC v0.2 §10 and §11 through the real `concord`
 * binary: the binding comes from the card in its order (A2ACLI_TX_001), `--transport` ranks it
 * (A2ACLI_TX_002), the interface's tenant goes with every request (A2ACLI_TX_003), several
 * transports including gRPC (A2ACLI_TX_004, A2ACLI_TX_005), `A2A-Version` on every request and
 * never below 1.0 unasked (A2ACLI_VER_001), a card's required extensions declared (A2ACLI_VER_002),
 * and the credential flags and variables (A2ACLI_AUTH_001, A2ACLI_AUTH_002).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD, startFakeAgent, startSpecAgent } from './spec-fixtures.js';

const REPLY = { message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } };

/** A card offering JSON-RPC at /rpc and HTTP+JSON at /rest, in the given order. */
function twoInterfaces(order: ('JSONRPC' | 'HTTP+JSON')[], tenant?: string) {
  return (url: string) => ({
    ...SPEC_CARD,
    supportedInterfaces: order.map((binding) => ({
      url: binding === 'JSONRPC' ? `${url}rpc` : `${url}rest`,
      protocolBinding: binding,
      protocolVersion: '1.0',
      ...(tenant === undefined ? {} : { tenant }),
    })),
  });
}

describe('transport selection', () => {
  it('A2ACLI_TX_001: the binding comes from the card, in the order it declares', async () => {
    for (const order of [
      ['JSONRPC', 'HTTP+JSON'],
      ['HTTP+JSON', 'JSONRPC'],
    ] as const) {
      const fake = await startFakeAgent(() => REPLY, twoInterfaces([...order]));
      try {
        await concord(['send', '-a', fake.url, 'hi']);
        const used = fake.requests.filter((r) => !r.path.startsWith('/.well-known'));
        expect(used[0]?.path.startsWith(order[0] === 'JSONRPC' ? '/rpc' : '/rest')).toBe(true);
      } finally {
        await fake.close();
      }
    }
  });

  it('A2ACLI_TX_002: --transport is repeatable and ordered; bindings the card lacks are skipped', async () => {
    const fake = await startFakeAgent(() => REPLY, twoInterfaces(['JSONRPC', 'HTTP+JSON']));
    try {
      const cases: [string[], string][] = [
        [['--transport', 'rest'], '/rest'],
        [['--transport', 'grpc', '--transport', 'rest', '--transport', 'jsonrpc'], '/rest'],
        [['--transport', 'grpc', '--transport', 'jsonrpc'], '/rpc'],
        [['--transport', 'HTTP+JSON'], '/rest'],
        [['--binding', 'rest'], '/rest'],
      ];
      for (const [flags, path] of cases) {
        fake.requests.length = 0;
        await concord(['send', '-a', fake.url, 'hi', ...flags]);
        const used = fake.requests.filter((r) => !r.path.startsWith('/.well-known'));
        expect(used[0]?.path.startsWith(path), flags.join(' ')).toBe(true);
      }
      const none = await concord(['send', '-a', fake.url, 'hi', '--transport', 'grpc']);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('CONCORD_ERR_NO_COMPATIBLE_INTERFACE');
      expect((await concord(['send', '-a', fake.url, 'hi', '--transport', 'soap'])).code).toBe(2);
    } finally {
      await fake.close();
    }
  });

  it("A2ACLI_TX_003: the selected interface's tenant is set in every request, and omitted when it has none", async () => {
    const withTenant = await startFakeAgent(() => REPLY, twoInterfaces(['JSONRPC'], 'acme'));
    const without = await startFakeAgent(() => REPLY, twoInterfaces(['JSONRPC']));
    try {
      expect((await concord(['send', '-a', withTenant.url, 'hi'])).code).toBe(0);
      await concord(['task', 'get', 't1', '-a', withTenant.url]);
      expect(withTenant.calls.map((c) => c.params.tenant)).toEqual(['acme', 'acme']);
      expect((await concord(['send', '-a', without.url, 'hi'])).code).toBe(0);
      expect(without.calls[0]!.params).not.toHaveProperty('tenant');
    } finally {
      await withTenant.close();
      await without.close();
    }
  });

  describe('on a Concord agent', () => {
    let agent: EchoServer;
    beforeAll(async () => {
      agent = await startSpecAgent({ grpc: true });
    });
    afterAll(async () => {
      await agent.close();
    });

    it('A2ACLI_TX_004: at least two transports, each selectable', async () => {
      for (const transport of ['jsonrpc', 'rest']) {
        const run = await concord(['send', '-a', agent.url, 'hello', '--transport', transport, '-o', 'json']);
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
      }
    });

    it('A2ACLI_TX_005: gRPC', async () => {
      const run = await concord(['send', '-a', agent.url, 'over grpc', '--transport', 'grpc']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('GRPC 1.0');
      expect(run.stdout).toContain('over grpc');
    });
  });
});

describe('protocol version', () => {
  it('A2ACLI_VER_001: A2A-Version on every request; never below 1.0 unless --a2a-version 0.3 asks, which is sent explicitly', async () => {
    const fake = await startFakeAgent(() => REPLY);
    try {
      await concord(['send', '-a', fake.url, 'hi']);
      await concord(['task', 'get', 't1', '-a', fake.url]);
      expect(fake.requests.length).toBeGreaterThanOrEqual(3);
      for (const request of fake.requests) expect(request.headers['a2a-version'], request.path).toBe('1.0');
    } finally {
      await fake.close();
    }
    // An agent that offers only A2A 0.3: refused unasked, with nothing sent to its interface.
    const legacyCard = (url: string) => ({
      ...SPEC_CARD,
      url: `${url}rpc`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
    });
    const legacy = await startFakeAgent(
      () => ({ kind: 'message', messageId: 'm1', role: 'agent', parts: [{ kind: 'text', text: 'old' }] }),
      legacyCard,
    );
    try {
      const refused = await concord(['send', '-a', legacy.url, 'hi']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('CONCORD_ERR_NO_COMPATIBLE_INTERFACE');
      expect(refused.stderr).toContain('0.3');
      expect(legacy.calls).toHaveLength(0);
      const opted = await concord(['send', '-a', legacy.url, 'hi', '--a2a-version', '0.3']);
      expect(opted.code, opted.stderr).toBe(0);
      expect(opted.stdout).toContain('old');
      expect(legacy.calls).toHaveLength(1);
      expect(legacy.calls[0]!.headers['a2a-version']).toBe('0.3');
    } finally {
      await legacy.close();
    }
  });
});

describe('protocol extensions', () => {
  it("A2ACLI_VER_002: a card's required extension is declared in A2A-Extensions with --extension; without it nothing is sent", async () => {
    const required = 'https://ext.example/required/v1';
    const fake = await startFakeAgent(
      () => REPLY,
      (url) => ({
        ...SPEC_CARD,
        capabilities: {
          streaming: true,
          extensions: [{ uri: required, required: true }, { uri: 'https://ext.example/optional/v1' }],
        },
        supportedInterfaces: [{ url: `${url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
    );
    try {
      const refused = await concord(['send', '-a', fake.url, 'hi', '-o', 'json']);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({
        error: {
          code: 'ExtensionSupportRequiredError',
          hint: `if you implement them, pass --extension ${required}`,
        },
      });
      expect(fake.calls).toHaveLength(0);
      const declared = await concord(['send', '-a', fake.url, 'hi', '--extension', required]);
      expect(declared.code, declared.stderr).toBe(0);
      expect(fake.calls[0]!.headers['a2a-extensions']).toBe(required);
    } finally {
      await fake.close();
    }
  });
});

describe('credentials', () => {
  let bearerAgent: EchoServer;
  let keyAgent: EchoServer;
  beforeAll(async () => {
    bearerAgent = await startSpecAgent({
      agentCard: {
        ...SPEC_CARD,
        securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { jwt: { list: [] } } }],
      } as never,
      authenticate: (request) =>
        request.header('authorization') === 'Bearer tok-1' ? { name: 'a' } : undefined,
    });
    keyAgent = await startSpecAgent({
      agentCard: {
        ...SPEC_CARD,
        securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-Partner-Key' } } },
        securityRequirements: [{ schemes: { key: { list: [] } } }],
      } as never,
      authenticate: (request) => (request.header('x-partner-key') === 'key-1' ? { name: 'b' } : undefined),
    });
  });
  afterAll(async () => {
    await bearerAgent.close();
    await keyAgent.close();
  });

  it("A2ACLI_AUTH_001: --bearer and --api-key, attached as the card's scheme says; --svc-param is a separate header", async () => {
    expect((await concord(['send', '-a', bearerAgent.url, 'hi', '--bearer', 'tok-1'])).code).toBe(0);
    expect((await concord(['send', '-a', keyAgent.url, 'hi', '--api-key', 'key-1'])).code).toBe(0);
    // The earlier --token still works.
    expect((await concord(['send', '-a', bearerAgent.url, 'hi', '--token', 'tok-1'])).code).toBe(0);
    const fake = await startFakeAgent(() => REPLY);
    try {
      await concord([
        'send',
        '-a',
        fake.url,
        'hi',
        '--svc-param',
        'X-Trace-Tag:blue',
        '--svc-param',
        'x-other: 2',
      ]);
      const call = fake.calls[0]!;
      expect(call.headers['x-trace-tag']).toBe('blue');
      expect(call.headers['x-other']).toBe('2');
      expect(call.params).not.toHaveProperty('x-trace-tag');
      expect((await concord(['send', '-a', fake.url, 'hi', '--svc-param', 'no-colon'])).code).toBe(2);
    } finally {
      await fake.close();
    }
    const help = (await concord(['send', '--help'])).stdout;
    expect(help).toMatch(/--svc-param <k:v> +an A2A service parameter/);
  });

  it('A2ACLI_AUTH_002: every credential flag has its environment variable; the flag wins; the docs warn of ps and shell history', async () => {
    expect((await concord(['send', '-a', bearerAgent.url, 'hi'], { A2ACLI_BEARER: 'tok-1' })).code).toBe(0);
    expect((await concord(['send', '-a', keyAgent.url, 'hi'], { A2ACLI_API_KEY: 'key-1' })).code).toBe(0);
    // Concord's earlier variables stay as fallbacks.
    expect((await concord(['send', '-a', bearerAgent.url, 'hi'], { CONCORD_TOKEN: 'tok-1' })).code).toBe(0);
    // Flag over environment.
    expect(
      (await concord(['send', '-a', bearerAgent.url, 'hi', '--bearer', 'tok-1'], { A2ACLI_BEARER: 'wrong' }))
        .code,
    ).toBe(0);
    expect(
      (await concord(['send', '-a', bearerAgent.url, 'hi', '--bearer', 'wrong'], { A2ACLI_BEARER: 'tok-1' }))
        .code,
    ).toBe(4);
    // A2ACLI_* over CONCORD_*.
    expect(
      (
        await concord(['send', '-a', bearerAgent.url, 'hi'], {
          A2ACLI_BEARER: 'tok-1',
          CONCORD_TOKEN: 'wrong',
        })
      ).code,
    ).toBe(0);
    const help = (await concord(['send', '--help'])).stdout;
    expect(help).toContain('process table');
    expect(help).toContain('shell');
    expect(help).toContain('$A2ACLI_API_KEY');
  });
});
