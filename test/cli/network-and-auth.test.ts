/**
 * The calling commands' network policy and credentials (decision 0038), through the built CLI:
 * a loopback URL the user typed is reachable without a flag, every other private target is
 * refused before any connection (so these tests send nothing to 10/8 or 169.254/16), also when a
 * fetched card points there; tokens and API keys reach the agent and never its output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startJsonServer } from '../client/helpers/json-server.js';
import { concord } from './cli-process.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

describe('the SSRF guard in the CLI', () => {
  it.each([
    ['http://10.1.2.3:9/', '10.1.2.3', 'private 10.0.0.0/8'],
    ['http://169.254.169.254/', '169.254.169.254', 'link-local'],
    ['http://[fd00::1]:9/', 'fd00::1', 'unique-local'],
  ])('refuses %s before connecting: exit 1, names the address and the flag', async (url, address, why) => {
    const run = await concord(['send', url, 'hi', '--timeout', '2']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('CONCORD_ERR_SSRF_BLOCKED');
    expect(run.stderr).toContain(address);
    expect(run.stderr).toContain(why);
    expect(run.stderr).toContain('pass --allow-private');
    expect(run.stderr).not.toContain('allowPrivateNetworks');
  });

  it('refuses an interface a loopback card points at a private address', async () => {
    const server = await startJsonServer({
      '/.well-known/agent-card.json': {
        body: {
          name: 'Pointer',
          description: 'Its interface is on a private network',
          version: '1',
          supportedInterfaces: [
            { url: 'http://10.9.9.9:1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 's', name: 'S', description: 'A skill', tags: ['t'] }],
        },
      },
    });
    try {
      const run = await concord(['send', server.url, 'hi', '--timeout', '2']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('SSRF_BLOCKED: Refusing http://10.9.9.9:1/');
      // The card was fetched from the typed loopback URL; only the card fetch reached it.
      expect(server.requests.map((r) => r.path)).toEqual(['/.well-known/agent-card.json']);
    } finally {
      await server.close();
    }
  });

  it('reports an agent that does not answer as unreachable: exit 3', async () => {
    const server = await startJsonServer({});
    const url = server.url;
    await server.close();
    const run = await concord(['get', url, 'some-task', '--timeout', '2']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^concord get: A2ACLI_ERR_UNREACHABLE: /);
  });
});

describe('credentials from the command line and the environment', () => {
  let echo: EchoServer;
  let keyed: EchoServer;
  beforeAll(async () => {
    echo = await startEcho({
      agentCard: {
        ...(echoAgent.agentCard as object),
        securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { jwt: { list: [] } } }],
      } as never,
      authenticate: (request) =>
        request.header('authorization') === 'Bearer s3cret-token' ? { name: 'caller' } : undefined,
    });
    keyed = await startEcho({
      agentCard: {
        ...(echoAgent.agentCard as object),
        securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-Partner-Key' } } },
        securityRequirements: [{ schemes: { key: { list: [] } } }],
      } as never,
      authenticate: (request) =>
        request.header('x-partner-key') === 'k-123' ? { name: 'partner' } : undefined,
    });
  });
  afterAll(async () => {
    await echo.close();
    await keyed.close();
  });

  it('presents --token or $CONCORD_TOKEN as a bearer token; none or a wrong one: exit 4', async () => {
    expect((await concord(['send', echo.url, 'hi', '--token', 's3cret-token'])).code).toBe(0);
    expect((await concord(['send', echo.url, 'hi'], { CONCORD_TOKEN: 's3cret-token' })).code).toBe(0);
    // The card requires a bearer token: none given stops before the send.
    const anonymous = await concord(['send', echo.url, 'hi']);
    expect(anonymous.code).toBe(4);
    expect(anonymous.stderr).toContain('A2ACLI_ERR_CREDENTIALS_MISSING');
    expect(anonymous.stderr).toContain('--bearer <token>');
    const wrong = await concord(['send', echo.url, 'hi', '--token', 'wrong-secret-value', '--json']);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('UnauthenticatedError');
    expect(wrong.stderr).toContain('HTTP 401');
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain('wrong-secret-value');
  });

  it('places --api-key where the card’s apiKey scheme says', async () => {
    const run = await concord(['send', keyed.url, 'hi', '--api-key', 'k-123']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('echo: hi');
    expect((await concord(['send', keyed.url, 'hi'], { CONCORD_API_KEY: 'k-123' })).code).toBe(0);
    expect((await concord(['send', keyed.url, 'hi', '--api-key', 'nope'])).code).toBe(4);
  });
});

describe('usage', () => {
  it('lists the calling commands and the exit codes in --help', async () => {
    const run = await concord(['--help']);
    expect(run.code).toBe(0);
    for (const command of [
      'send <url> [text]',
      'get <url> <taskId>',
      'list <url>',
      'cancel <url>',
      'subscribe',
    ]) {
      expect(run.stdout).toContain(command);
    }
    expect(run.stdout).toContain('Exit codes');
    const send = await concord(['send', '--help']);
    expect(send.code).toBe(0);
    expect(send.stdout).toContain('--allow-private');
    expect(send.stdout).toContain('--contract <name>');
  });
});
