/**
 * The defaults of a2a-cli SPEC v0.2 §4.5 that other files do not already show, through the real
 * `concord` binary (A2ACLI_DEFAULT_001): the detail level (concise, `--verbose` in full) and
 * transport security (TLS verification on, `--insecure` off with a warning, `--ca-cert` trusting a
 * private root with verification kept, a refused certificate told the same on HTTPS and gRPC), and
 * §10.1's warning when a credential goes out without verification (A2ACLI_AUTH_003), and a client
 * certificate for an agent that asks for mutual TLS (A2ACLI_AUTH_009). The agent sits behind a TLS
 * front whose certificate chains to a root made by `openssl` at test time that nothing trusts
 * (helpers/test-pki.ts), over HTTP and gRPC.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { AGENT_SCOPE, startOAuthAgent, type OAuthAgent } from '../../helpers/oauth-agent.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';
import { makeTestPki, type TestPki } from '../../helpers/test-pki.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD, startSpecAgent } from './spec-fixtures.js';

/** A TLS front on loopback for a plaintext port: HTTP/1.1, or h2 for gRPC (ALPN). */
interface TlsFront {
  port: number;
  close(): Promise<void>;
}

async function tlsFront(
  pki: TestPki,
  backPort: number,
  mutual = false,
  /** Send the root too: a chain ending in a self-signed certificate the client does not trust. */
  withRoot = false,
): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(
    {
      key: pki.serverLeaf.keyPem,
      cert: pki.serverLeaf.pem + pki.intermediate.pem + (withRoot ? pki.root.pem : ''),
      ALPNProtocols: ['h2', 'http/1.1'],
      // Mutual TLS: only a client certificate chaining to the test root gets through.
      ...(mutual ? { requestCert: true, rejectUnauthorized: true, ca: pki.root.pem } : {}),
    },
    (socket) => {
      const back = connect(backPort, '127.0.0.1');
      sockets.add(socket).add(back);
      socket.pipe(back).pipe(socket);
      socket.on('error', () => back.destroy());
      back.on('error', () => socket.destroy());
    },
  );
  // A client that refuses the certificate ends the handshake; that is the expected outcome.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const BEARER_CARD = {
  ...SPEC_CARD,
  securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { jwt: { list: [] } } }],
};

describe('transport security (TLS)', () => {
  let pki: TestPki;
  let agent: EchoServer;
  let front: TlsFront;
  let grpcFront: TlsFront;
  /** A gRPC front sending its whole chain, the self-signed root included. */
  let rootedGrpcFront: TlsFront;
  let dir: string;
  let cardFile: string;
  /** The same agent's card naming only rootedGrpcFront. */
  let rootedCardFile: string;
  /** PEM files: the test root, another root, both in one bundle, and one with no certificate. */
  let roots: { test: string; other: string; bundle: string; none: string };
  /** Requests the agent authenticated: none arrive while the certificate is refused. */
  let seen = 0;

  beforeAll(async () => {
    pki = makeTestPki();
    agent = await startSpecAgent({
      agentCard: BEARER_CARD as never,
      grpc: true,
      authenticate: (request) => {
        seen++;
        return request.header('authorization') === 'Bearer tls-secret-token' ? { name: 'a' } : undefined;
      },
    });
    front = await tlsFront(pki, Number(new URL(agent.url).port));
    grpcFront = await tlsFront(pki, agent.grpc!.port);
    rootedGrpcFront = await tlsFront(pki, agent.grpc!.port, false, true);
    // The card now names the TLS front, as a card behind a TLS-terminating proxy does.
    agent.a2a.setBaseUrl(`https://127.0.0.1:${front.port}/`);
    // Card files whose one interface is gRPC over TLS to a front.
    dir = mkdtempSync(join(tmpdir(), 'concord-tls-'));
    const grpcCard = (port: number, name: string): string => {
      const file = join(dir, name);
      writeFileSync(
        file,
        JSON.stringify({
          ...BEARER_CARD,
          supportedInterfaces: [
            { url: `grpcs://127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
          ],
        }),
      );
      return file;
    };
    cardFile = grpcCard(grpcFront.port, 'card.json');
    rootedCardFile = grpcCard(rootedGrpcFront.port, 'rooted-card.json');
    roots = {
      test: join(dir, 'root.pem'),
      other: join(dir, 'other-root.pem'),
      bundle: join(dir, 'bundle.pem'),
      none: join(dir, 'none.pem'),
    };
    writeFileSync(roots.test, pki.root.pem);
    writeFileSync(roots.other, pki.otherRoot.pem);
    writeFileSync(roots.bundle, pki.otherRoot.pem + pki.root.pem);
    writeFileSync(roots.none, pki.root.keyPem);
  }, 60_000);
  afterAll(async () => {
    await front.close();
    await grpcFront.close();
    await rootedGrpcFront.close();
    await agent.close();
    pki.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('A2ACLI_DEFAULT_001: TLS verification is on by default; an unverified certificate is unreachable (exit 3)', async () => {
    const url = `https://127.0.0.1:${front.port}/`;
    for (const command of [
      ['send', '-a', url, 'hi', '--bearer', 'tls-secret-token'],
      ['card', 'get', '-a', url],
      ['send', '-a', cardFile, 'hi', '--bearer', 'tls-secret-token'],
    ]) {
      const run = await concord([...command, '-o', 'json']);
      expect(run.code, command.join(' ')).toBe(3);
      const { error } = JSON.parse(run.stdout) as { error: { code: string; hint: string | null } };
      expect(error.code).toBe('A2ACLI_ERR_UNREACHABLE');
      expect(run.stderr).not.toContain('tls-secret-token');
      expect(run.stderr).not.toContain('--insecure:');
    }
    // The hint of an HTTPS certificate refusal names the overrides.
    const refused = await concord(['send', '-a', url, 'hi', '-o', 'json']);
    expect(JSON.parse(refused.stdout).error.hint).toContain('--insecure');
    expect(JSON.parse(refused.stdout).error.hint).toContain('--ca-cert <file>');
    // Nothing reached the agent: the handshake failed before any request, credential included.
    expect(seen).toBe(0);
  });

  it('A2ACLI_DEFAULT_001: --insecure turns verification off for the command, over HTTP and gRPC, always with a warning', async () => {
    const url = `https://127.0.0.1:${front.port}/`;
    const card = await concord(['card', 'get', '-a', url, '--insecure']);
    expect(card.code, card.stderr).toBe(0);
    expect(card.stdout).toContain(`Interface: JSONRPC 1.0 https://127.0.0.1:${front.port}\n`);
    expect(card.stderr).toMatch(/^warning: --insecure: TLS certificates are not verified/m);
    for (const ref of [url, cardFile]) {
      const run = await concord(['send', '-a', ref, 'hi', '--bearer', 'tls-secret-token', '--insecure']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('State: TASK_STATE_COMPLETED');
      expect(run.stderr).toMatch(/^warning: --insecure: TLS certificates are not verified/m);
    }
    const help = (await concord(['send', '--help'])).stdout;
    expect(help).toMatch(/--insecure +do not verify the agent's TLS certificate/);
    expect(help).toContain('default: verify');
  });

  it('A2ACLI_DEFAULT_001: --ca-cert trusts a private root for the command, over HTTPS and gRPC, and verification stays on', async () => {
    const url = `https://127.0.0.1:${front.port}/`;
    const token = ['--bearer', 'tls-secret-token'];
    const calls = [
      ['card', 'get', '-a', url],
      ['send', '-a', url, 'hi', ...token],
      ['send', '-a', cardFile, 'hi', ...token, '--transport', 'grpc'],
      // A chain that carries its own root verifies when that root is the one given.
      ['send', '-a', rootedCardFile, 'hi', ...token, '--transport', 'grpc'],
    ];
    for (const command of calls) {
      const run = await concord([...command, '--ca-cert', roots.test]);
      expect(run.code, `${command.join(' ')}: ${run.stderr}`).toBe(0);
      if (command[0] === 'send') expect(run.stdout).toContain('State: TASK_STATE_COMPLETED');
      // Verified: neither --insecure's warning nor the unverified-credential one.
      expect(run.stderr).not.toContain('--insecure');
      expect(run.stderr).not.toContain('WARNING');
    }
    // A bundle of several certificates; the setting A2ACLI_CA_CERT, through the configuration layer.
    const bundled = await concord(['send', '-a', url, 'hi', ...token, '--ca-cert', roots.bundle]);
    expect(bundled.code, bundled.stderr).toBe(0);
    const configured = await concord(['send', '-a', cardFile, 'hi', ...token], {
      A2ACLI_CA_CERT: roots.test,
    });
    expect(configured.code, configured.stderr).toBe(0);

    // Another root: the agent's chain does not lead to it, so the certificate is still refused.
    const before = seen;
    for (const ref of [url, cardFile]) {
      const run = await concord(['send', '-a', ref, 'hi', ...token, '--ca-cert', roots.other, '-o', 'json']);
      expect(run.code, run.stderr).toBe(3);
      const { error } = JSON.parse(run.stdout) as { error: { code: string; hint: string | null } };
      expect(error.code).toBe('A2ACLI_ERR_UNREACHABLE');
      expect(error.hint).toContain('--ca-cert');
      expect(error.hint).toContain('--insecure');
    }
    // And without --ca-cert, the gRPC interface refuses it as HTTPS does (the first test).
    const without = await concord(['send', '-a', cardFile, 'hi', ...token, '-o', 'json']);
    expect(without.code).toBe(3);
    expect(seen).toBe(before);

    // A file that holds no certificate, or none at all, is a usage error before anything is sent.
    for (const file of [roots.none, join(dir, 'missing.pem')]) {
      const run = await concord(['send', '-a', url, 'hi', '--ca-cert', file, '-o', 'json']);
      expect(run.code, run.stderr).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_USAGE' } });
    }
    expect((await concord(['send', '--help'])).stdout).toMatch(/--ca-cert <file> +also trust these root/);
  });

  it('A2ACLI_DEFAULT_001: a certificate refused on gRPC over TLS is unreachable (exit 3) with the hint of HTTPS', async () => {
    const call = (ref: string): string[] => [
      ...['send', '-a', ref, 'hi', '--transport', 'grpc'],
      ...['--bearer', 'tls-secret-token'],
    ];
    const before = seen;
    // The test chain to a root nothing trusts, and the same chain carrying its self-signed root.
    for (const [ref, refusal] of [
      [cardFile, 'unable to get local issuer certificate'],
      [rootedCardFile, 'self-signed certificate in certificate chain'],
    ] as const) {
      const run = await concord([...call(ref), '-o', 'json']);
      expect(run.code, run.stderr).toBe(3);
      const { error } = JSON.parse(run.stdout) as {
        error: { code: string; message: string; hint: string | null };
      };
      expect(error.code).toBe('A2ACLI_ERR_UNREACHABLE');
      expect(error.message).toContain(refusal);
      expect(error.hint).toContain('--insecure');
      expect(error.hint).toContain('--ca-cert <file>');
      // In text, the hint is the stderr line after the error.
      const text = await concord(call(ref));
      expect(text.code).toBe(3);
      expect(text.stderr).toMatch(/^concord send: A2ACLI_ERR_UNREACHABLE: /m);
      expect(text.stderr).toMatch(
        /^hint: the agent's TLS certificate was not accepted; .*--ca-cert.*--insecure/m,
      );
      expect(`${run.stdout}${run.stderr}${text.stderr}`).not.toContain('tls-secret-token');
    }
    // The handshake failed before any call: the token never went out.
    expect(seen).toBe(before);
  });

  it('A2ACLI_AUTH_003: a credential sent without certificate verification is announced on stderr, never the credential itself', async () => {
    const url = `https://127.0.0.1:${front.port}/`;
    for (const ref of [url, cardFile]) {
      const run = await concord(['send', '-a', ref, 'hi', '--bearer', 'tls-secret-token', '--insecure']);
      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr
        .split('\n')
        .filter((line) => line.startsWith('WARNING: sending a credential'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('127.0.0.1');
      expect(warnings[0]).toContain('not verified (--insecure)');
      expect(run.stderr).not.toContain('tls-secret-token');
    }
    // No credential, no credential warning; the --insecure warning stays.
    const anonymous = await concord(['card', 'get', '-a', url, '--insecure']);
    expect(anonymous.stderr).not.toContain('WARNING: sending a credential');
  });
});

describe('a private CA for the authorization server', () => {
  const secret = 'private-ca-client-secret';
  let pki: TestPki;
  let oauth: OAuthServer;
  let tokenFront: TlsFront;
  let agent: OAuthAgent;
  let dir: string;
  let root: string;

  beforeAll(async () => {
    pki = makeTestPki();
    oauth = await startOAuthServer({ clients: { service: { secret } } });
    // The token endpoint is reached over TLS, its certificate chaining to the test root.
    tokenFront = await tlsFront(pki, Number(new URL(oauth.url).port));
    agent = await startOAuthAgent(oauth, {
      oauth2SecurityScheme: {
        flows: {
          clientCredentials: {
            tokenUrl: `https://127.0.0.1:${tokenFront.port}/token`,
            scopes: { [AGENT_SCOPE]: 'call the agent' },
          },
        },
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'concord-ca-oauth-'));
    root = join(dir, 'root.pem');
    writeFileSync(root, pki.root.pem);
  }, 60_000);
  afterAll(async () => {
    await agent.close();
    await tokenFront.close();
    await oauth.close();
    pki.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('A2ACLI_DEFAULT_001: --ca-cert is trusted at an OAuth token endpoint too; without it the endpoint is refused (exit 3)', async () => {
    const call = ['send', '-a', agent.url, 'hi', '--client-id', 'service', '--client-secret', secret];
    const refused = await concord([...call, '-o', 'json']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE' } });
    expect(oauth.grants).toEqual([]);
    const trusted = await concord([...call, '--ca-cert', root]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(oauth.grants.map((g) => [g.grantType, g.outcome])).toEqual([['client_credentials', 'ok']]);
    expect(oauth.introspect(agent.presented.at(-1)).active).toBe(true);
    expect(`${refused.stdout}${refused.stderr}${trusted.stdout}${trusted.stderr}`).not.toContain(secret);
  });
});

describe('detail level', () => {
  let agent: EchoServer;
  beforeAll(async () => {
    agent = await startSpecAgent();
  });
  afterAll(async () => {
    await agent.close();
  });

  it('A2ACLI_DEFAULT_001: concise by default; --verbose shows each part with its kind and media type, and what was sent', async () => {
    const parts = ['--text', 'hello', '--data', '{"order":42}'];
    const concise = await concord(['send', '-a', agent.url, ...parts]);
    expect(concise.code, concise.stderr).toBe(0);
    expect(concise.stdout).toContain('Artifact: echo (');
    expect(concise.stdout).not.toContain('[part ');
    expect(concise.stdout).not.toMatch(/^Sent: /m);

    const verbose = await concord(['send', '-a', agent.url, ...parts, '--verbose']);
    expect(verbose.code, verbose.stderr).toBe(0);
    // The message sent, part by part.
    expect(verbose.stdout).toMatch(
      /^Sent: [0-9a-f-]{36}, 2 part\(s\)\n\[part 1: text\]\nhello\n\[part 2: data, application\/json\]\n\{\n {2}"order": 42\n\}\n\n/m,
    );
    // The artifact received, part by part, and the task's history the agent returned.
    expect(verbose.stdout).toMatch(
      /^Artifact: echo \([^)]+\)\n\[part 1: text\]\nhello\n\[part 2: data, application\/json\]\n/m,
    );
    expect(verbose.stdout).toMatch(/^History: \d+ message\(s\)\nuser \([0-9a-f-]{36}\):\n\[part 1: text\]/m);
    // --verbose changes the text only: -o json is the same document.
    const json = await concord(['send', '-a', agent.url, ...parts, '--verbose', '-o', 'json']);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(['task']);
    const help = (await concord(['task', 'get', '--help'])).stdout;
    expect(help).toMatch(/--verbose +text output in full/);
    expect(help).toContain('default: concise');
  });
});

describe('mutual TLS', () => {
  let pki: TestPki;
  let agent: EchoServer;
  let front: TlsFront;
  let grpcFront: TlsFront;
  let dir: string;
  let files: { cert: string; key: string; card: string };

  beforeAll(async () => {
    pki = makeTestPki();
    agent = await startSpecAgent({ grpc: true });
    front = await tlsFront(pki, Number(new URL(agent.url).port), true);
    grpcFront = await tlsFront(pki, agent.grpc!.port, true);
    agent.a2a.setBaseUrl(`https://127.0.0.1:${front.port}/`);
    dir = mkdtempSync(join(tmpdir(), 'concord-mtls-'));
    files = { cert: join(dir, 'client.pem'), key: join(dir, 'client.key'), card: join(dir, 'card.json') };
    writeFileSync(files.cert, pki.leaf.pem + pki.intermediate.pem);
    writeFileSync(files.key, pki.leaf.keyPem, { mode: 0o600 });
    writeFileSync(
      files.card,
      JSON.stringify({
        ...SPEC_CARD,
        supportedInterfaces: [
          { url: `grpcs://127.0.0.1:${grpcFront.port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        ],
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await front.close();
    await grpcFront.close();
    await agent.close();
    pki.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('A2ACLI_AUTH_009: --cert and --key present a client certificate to an agent that asks for one, over HTTP and gRPC', async () => {
    const url = `https://127.0.0.1:${front.port}/`;
    // The server's certificate is the untrusted test chain, hence --insecure on both sides of the test.
    const without = await concord(['send', '-a', url, 'hi', '--insecure', '-o', 'json']);
    expect(without.code).toBe(3);
    expect(JSON.parse(without.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE' } });
    for (const ref of [url, files.card]) {
      const run = await concord([
        'send',
        '-a',
        ref,
        'hi',
        '--insecure',
        '--cert',
        files.cert,
        '--key',
        files.key,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('State: TASK_STATE_COMPLETED');
      expect(run.stderr).not.toContain('PRIVATE KEY');
    }
    const card = await concord([
      'card',
      'get',
      '-a',
      url,
      '--insecure',
      '--cert',
      files.cert,
      '--key',
      files.key,
    ]);
    expect(card.code, card.stderr).toBe(0);
    // With the server's root trusted (--ca-cert) rather than unchecked, the certificate still goes.
    writeFileSync(join(dir, 'root.pem'), pki.root.pem);
    for (const ref of [url, files.card]) {
      const trusted = ['--ca-cert', join(dir, 'root.pem'), '--cert', files.cert, '--key', files.key];
      const run = await concord(['send', '-a', ref, 'hi', ...trusted]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('--insecure');
      expect((await concord(['send', '-a', ref, 'hi', '--ca-cert', join(dir, 'root.pem')])).code).toBe(3);
    }
    expect((await concord(['send', '-a', url, 'hi', '--cert', files.cert])).code).toBe(2);
    expect(
      (await concord(['send', '-a', url, 'hi', '--cert', files.cert, '--key', join(dir, 'none')])).code,
    ).toBe(2);
    expect((await concord(['send', '--help'])).stdout).toMatch(/--cert <file> --key <file>/);
  });
});
