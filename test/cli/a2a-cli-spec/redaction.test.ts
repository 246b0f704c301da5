/**
 * Credential redaction, a2a-cli SPEC v0.2 §10.1 (A2ACLI_AUTH_004), through the real `concord`
 * binary: a bearer token, an API key (in a header, in a URL's query), a service parameter's value
 * and a URL's password never reach stderr or the error envelope, whichever way they come back.
 */
import { describe, expect, it } from 'vitest';
import { startJsonServer, type Recorded } from '../../client/helpers/json-server.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD } from './spec-fixtures.js';

/** An agent that refuses every call, quoting the request it got (URL and headers) in its error. */
async function echoingRefuser(security: Record<string, unknown>) {
  const holder = { url: '' };
  const server = await startJsonServer({
    '/.well-known/agent-card.json': () => ({
      body: {
        ...SPEC_CARD,
        ...security,
        supportedInterfaces: [
          { url: `${holder.url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
      },
    }),
    '/rpc': (request: Recorded) => ({
      status: 400,
      headers: { 'content-type': 'text/plain' },
      body: `refused ${request.path} authorization=${request.headers.authorization ?? ''} x-team-secret=${String(request.headers['x-team-secret'] ?? '')}`,
    }),
  });
  holder.url = server.url;
  return server;
}

const SECRETS = ['bearer-s3cret-value', 'key-s3cret-value', 'svc-s3cret-value', 'pw-s3cret-value'];

function expectClean(output: string): void {
  for (const secret of SECRETS) expect(output).not.toContain(secret);
  expect(output).not.toContain(encodeURIComponent('key-s3cret-value'));
}

describe('redaction', () => {
  it('A2ACLI_AUTH_004: a bearer token, a service parameter and an API key in the query never reach stderr or the envelope', async () => {
    const bearerAgent = await echoingRefuser({
      securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { jwt: { list: [] } } }],
    });
    const queryAgent = await echoingRefuser({
      securitySchemes: { key: { apiKeySecurityScheme: { location: 'query', name: 'key' } } },
      securityRequirements: [{ schemes: { key: { list: [] } } }],
    });
    try {
      for (const output of ['text', 'json']) {
        const bearer = await concord([
          'send',
          '-a',
          bearerAgent.url,
          'hi',
          '--bearer',
          'bearer-s3cret-value',
          '--svc-param',
          'x-team-secret:svc-s3cret-value',
          '-o',
          output,
        ]);
        expect(bearer.code).toBe(1);
        // The agent's answer did quote the headers: they were there to leak.
        expect(bearer.stderr).toContain('authorization=[REDACTED] x-team-secret=[REDACTED]');
        expectClean(bearer.stdout + bearer.stderr);

        const fromEnv = await concord(['send', '-a', queryAgent.url, 'hi', '-o', output], {
          A2ACLI_API_KEY: 'key-s3cret-value',
        });
        expect(fromEnv.code).toBe(1);
        expect(fromEnv.stderr).toContain('/rpc?key=[REDACTED]');
        expectClean(fromEnv.stdout + fromEnv.stderr);
      }
      // The card was fetched without the key; every call carried it (so redaction had work to do).
      expect(queryAgent.requests.filter((r) => r.path.startsWith('/rpc?key=key-s3cret-value'))).toHaveLength(
        2,
      );
    } finally {
      await bearerAgent.close();
      await queryAgent.close();
    }
  });

  it('A2ACLI_AUTH_004: a password in a URL is redacted too, and no flag turns redaction off', async () => {
    const closed = await startJsonServer({});
    const port = new URL(closed.url).port;
    await closed.close();
    const run = await concord([
      'task',
      'get',
      't1',
      '-a',
      `http://me:pw-s3cret-value@127.0.0.1:${port}/`,
      '-o',
      'json',
    ]);
    expect(run.code).toBe(3);
    expectClean(run.stdout + run.stderr);
    // The flags that print more print it through the same redaction: nothing turns it off.
    const more = await concord([
      'task',
      'get',
      't1',
      '-a',
      `http://me:pw-s3cret-value@127.0.0.1:${port}/`,
      '--debug',
      '--verbose',
    ]);
    expect(more.code).toBe(3);
    expect(more.stderr).toMatch(/^debug: > GET http:\/\/me:\[REDACTED\]@127\.0\.0\.1/m);
    expectClean(more.stdout + more.stderr);
  });
});
