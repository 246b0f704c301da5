/**
 * a2a-cli SPEC v0.2 §9.4, §9.6 and Appendix B/E through the real `concord` binary: exit codes say
 * whether the CLI did its job (A2ACLI_EXIT_001, A2ACLI_EXIT_002), and every failure is the error
 * envelope with the A2A error's name or an A2ACLI_ERR_* code, the same on every transport
 * (A2ACLI_OUT_004).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { startJsonServer } from '../../client/helpers/json-server.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD, startSpecAgent } from './spec-fixtures.js';

let agent: EchoServer;
let secured: EchoServer;
beforeAll(async () => {
  agent = await startSpecAgent({ grpc: true });
  secured = await startSpecAgent({
    agentCard: {
      ...SPEC_CARD,
      securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { jwt: { list: [] } } }],
    } as never,
    authenticate: (request) =>
      request.header('authorization') === 'Bearer right' ? { name: 'me' } : undefined,
  });
});
afterAll(async () => {
  await agent.close();
  await secured.close();
});

/** The one JSON document of a run's stdout. */
function envelope(stdout: string): { code: string; message: string; hint: string | null; a2aCode: unknown } {
  const parsed = JSON.parse(stdout) as {
    error: { code: string; message: string; hint: string | null; a2aCode: unknown };
  };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).sort()).toEqual(['a2aCode', 'code', 'hint', 'message']);
  return parsed.error;
}

describe('exit codes', () => {
  it('A2ACLI_EXIT_001: 0, 1 and 2, and 3, 4 only with their reserved meanings, each agreeing with the error', async () => {
    const ok = await concord(['send', '-a', agent.url, 'hello', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);

    const usage = await concord(['send', '-a', agent.url, 'hello', '--no-such-flag', '-o', 'json']);
    expect(usage.code).toBe(2);
    expect(envelope(usage.stdout).code).toBe('A2ACLI_ERR_USAGE');

    const failed = await concord(['task', 'get', 'no-such-task', '-a', agent.url, '-o', 'json']);
    expect(failed.code).toBe(1);
    expect(envelope(failed.stdout).code).toBe('TaskNotFoundError');

    // 3: nothing answers at the address, or no card there.
    const closed = await startJsonServer({});
    const gone = closed.url;
    await closed.close();
    const unreachable = await concord(['task', 'get', 't1', '-a', gone, '-o', 'json']);
    expect(unreachable.code).toBe(3);
    expect(envelope(unreachable.stdout).code).toBe('A2ACLI_ERR_UNREACHABLE');
    const empty = await startJsonServer({});
    try {
      const noCard = await concord(['card', 'get', '-a', empty.url, '-o', 'json']);
      expect(noCard.code).toBe(3);
      expect(envelope(noCard.stdout)).toMatchObject({ code: 'A2ACLI_ERR_CARD_NOT_FOUND', a2aCode: 404 });
    } finally {
      await empty.close();
    }
    const noFile = await concord(['card', 'get', '-a', './no-such-card.json', '-o', 'json']);
    expect(noFile.code).toBe(3);
    expect(envelope(noFile.stdout).code).toBe('A2ACLI_ERR_CARD_NOT_FOUND');

    // 4: credentials required and not given (nothing sent), or given and refused.
    const before = (await secured.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize;
    const missing = await concord(['send', '-a', secured.url, 'hello', '-o', 'json']);
    expect(missing.code).toBe(4);
    expect(envelope(missing.stdout).code).toBe('A2ACLI_ERR_CREDENTIALS_MISSING');
    expect((await secured.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize).toBe(before);
    const refused = await concord(['send', '-a', secured.url, 'hello', '--bearer', 'wrong', '-o', 'json']);
    expect(refused.code).toBe(4);
    expect(envelope(refused.stdout).code).toBe('UnauthenticatedError');

    // 5: --timeout expired before the task ended (the task goes on at the agent).
    const timedOut = await concord(['send', '-a', agent.url, 'wait', '--timeout', '800ms', '-o', 'json']);
    expect(timedOut.code).toBe(5);
    expect(envelope(timedOut.stdout).code).toBe('A2ACLI_ERR_TIMEOUT');
  });

  it.each([
    ['fail', 'TASK_STATE_FAILED', 'ended'],
    ['reject', 'TASK_STATE_REJECTED', 'ended'],
    ['ask', 'TASK_STATE_INPUT_REQUIRED', 'is paused at'],
    ['auth', 'TASK_STATE_AUTH_REQUIRED', 'is paused at'],
  ])(
    'A2ACLI_EXIT_002: a turn that ends %s exits 0; the state is in the output, a warning names it',
    async (word, state, how) => {
      for (const output of ['text', 'json']) {
        const run = await concord(['send', '-a', agent.url, word, '-o', output]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain(state);
        expect(run.stderr).toMatch(new RegExp(`^warning: task \\S+ ${how} ${state}`, 'm'));
      }
      // A completed task has nothing to warn about.
      const done = await concord(['send', '-a', agent.url, 'hello']);
      expect(done.code).toBe(0);
      expect(done.stderr).toBe('');
    },
  );

  it('A2ACLI_EXIT_002: a canceled task reported by task get and task subscribe exits 0 with the warning', async () => {
    const started = JSON.parse(
      (await concord(['send', '-a', agent.url, 'wait', '--async', '-o', 'json'])).stdout,
    ) as {
      task: { id: string };
    };
    const id = started.task.id;
    expect((await concord(['task', 'cancel', id, '-a', agent.url])).code).toBe(0);
    for (const command of ['get', 'subscribe']) {
      const run = await concord(['task', command, id, '-a', agent.url, '-o', 'json']);
      if (command === 'subscribe') {
        // A2A refuses to subscribe to a task that ended: the agent's error, exit 1.
        expect(run.code).toBe(1);
        expect(envelope(run.stdout).code).toBe('UnsupportedOperationError');
        continue;
      }
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`warning: task ${id} ended TASK_STATE_CANCELED`);
    }
  });
});

describe('the error envelope', () => {
  it.each(['jsonrpc', 'rest', 'grpc'])(
    'A2ACLI_OUT_004: the same A2A error name over %s, with its transport-level code',
    async (transport) => {
      const run = await concord([
        'task',
        'get',
        'nope',
        '-a',
        agent.url,
        '--transport',
        transport,
        '-o',
        'json',
      ]);
      expect(run.code).toBe(1);
      const error = envelope(run.stdout);
      expect(error.code).toBe('TaskNotFoundError');
      expect(error.message).toContain('nope');
      expect(error.a2aCode).toBe({ jsonrpc: -32001, rest: 404, grpc: 5 }[transport]);
      // The human line is on stderr; stdout holds the envelope alone.
      expect(run.stderr).toMatch(/^concord get: TaskNotFoundError: /);
    },
  );

  it('A2ACLI_OUT_004: CLI-local failures carry A2ACLI_ERR_* codes and an actionable hint', async () => {
    const missing = await concord(['send', '-a', secured.url, 'hi', '-o', 'json']);
    const error = envelope(missing.stdout);
    expect(error.code).toBe('A2ACLI_ERR_CREDENTIALS_MISSING');
    expect(error.hint).toContain('--bearer <token>');
    expect(error.a2aCode).toBeNull();
    expect(missing.stderr).toContain('hint: pass --bearer <token>');
    const usage = await concord(['task', 'get', '-a', agent.url, '-o', 'json']);
    expect(envelope(usage.stdout)).toMatchObject({ code: 'A2ACLI_ERR_USAGE', a2aCode: null });
    // Concord's own conditions use their own prefix, never A2ACLI_ERR_.
    const blocked = await concord(['send', '-a', 'http://10.1.2.3:9/', 'hi', '-o', 'json']);
    expect(blocked.code).toBe(1);
    expect(envelope(blocked.stdout)).toMatchObject({ code: 'CONCORD_ERR_SSRF_BLOCKED' });
  });
});

describe('credentials missing, decided by what this card accepts', () => {
  /** A login store holding one login, for an agent and an authorization server this test never calls. */
  function storeWithOtherLogin(): string {
    const dir = mkdtempSync(join(tmpdir(), 'concord-logins-'));
    const path = join(dir, 'tokens.json');
    const login = {
      agent: 'https://elsewhere.example/',
      name: 'Elsewhere',
      clientId: 'other-client',
      grant: 'device_code',
      interfaces: ['https://elsewhere.example/'],
      authorizationServer: ['https://idp.elsewhere.example/token'],
      loggedInAt: new Date().toISOString(),
      tokens: {
        accessToken: 'elsewhere-access-token',
        expiresAt: Date.now() + 3_600_000,
        issuedAt: Date.now(),
        scopes: [],
        refreshUrl: 'https://idp.elsewhere.example/token',
      },
    };
    writeFileSync(path, JSON.stringify({ version: 1, logins: { [login.agent]: login } }), { mode: 0o600 });
    return path;
  }

  it('a stored login for another agent is no credential for this one: A2ACLI_ERR_CREDENTIALS_MISSING before anything is sent', async () => {
    const store = storeWithOtherLogin();
    let asked = 0;
    const oauthAgent = await startSpecAgent({
      agentCard: {
        ...SPEC_CARD,
        securitySchemes: {
          idp: {
            oauth2SecurityScheme: {
              flows: { clientCredentials: { tokenUrl: 'https://idp.this.example/token', scopes: {} } },
            },
          },
        },
        securityRequirements: [{ schemes: { idp: { list: [] } } }],
      } as never,
      authenticate: () => {
        asked++;
        return undefined;
      },
    });
    try {
      for (const target of [secured, oauthAgent]) {
        const run = await concord(['send', '-a', target.url, 'hello', '-o', 'json'], {
          CONCORD_TOKEN_STORE: store,
        });
        expect(run.code, run.stderr).toBe(4);
        const error = envelope(run.stdout);
        expect(error.code).toBe('A2ACLI_ERR_CREDENTIALS_MISSING');
        expect(error.message).toContain('none of those given fits them (stored login (concord auth login))');
      }
      expect(asked).toBe(0);
      // An OAuth 2.0 scheme's hint names the login command for this agent.
      const run = await concord(['send', '-a', oauthAgent.url, 'hello', '-o', 'json'], {
        CONCORD_TOKEN_STORE: store,
      });
      expect(envelope(run.stdout).hint).toContain(`concord auth login ${oauthAgent.url} --client-id <id>`);
    } finally {
      await oauthAgent.close();
      rmSync(dirname(store), { recursive: true, force: true });
    }
  });
});
