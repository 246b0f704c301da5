/**
 * The host through the CLI, as a user runs it: `concord serve` refuses a bad definition corpus
 * before starting anything, serves a good one, picks up definition changes in dev mode, and
 * `concord card` / `concord card verify` print, lint and verify the cards it serves.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const BAD = join(ROOT, 'test/host/fixtures/bad');
const ENV = {
  ...process.env,
  TEST_JWT_SECRET: 'a-test-secret-of-at-least-thirty-two-bytes!',
  TEST_API_KEY: 'partner-key-0123456789',
  CONCORD_JWT_SECRET: 'an-example-secret-of-at-least-32-bytes',
  // Model agents need an endpoint at start; nothing in these tests calls it.
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
};

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { env: ENV, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout, stderr });
    });
  });
}

function serve(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`host did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(out);
      // Started once the whole banner is out (the task-store line is its last).
      if (m !== null && out.includes('task stores:')) {
        clearTimeout(timer);
        started({ child, url: m[1]!, output: () => out });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => failed(new Error(`host exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.on('exit', () => done());
    child.kill('SIGTERM');
  });
}

describe('examples/agents', () => {
  it('loads and yields valid cards for both of its agents', async () => {
    const result = await run(['card', join(ROOT, 'examples/agents')]);
    expect(result.stderr).toContain('(ProcessOrder): card is valid A2A 1.0');
    expect(result.stderr).toContain('(greeter): card is valid A2A 1.0');
    expect(result.code).toBe(0);
  });
});

describe('concord serve with bad definitions', () => {
  it.each([
    ['bad-yaml', 'agent.md'],
    ['unknown-field', 'agent.md'],
    ['wrong-type', ''],
    ['duplicate-id', ''],
    ['bad-contract-schema', ''],
    ['superseded-missing', 'agent.md'],
  ])('%s: refuses to start and names file, line and field', async (corpus, file) => {
    const { code, stdout, stderr } = await run([
      'serve',
      join(BAD, corpus),
      '--port',
      '0',
      '--store',
      'memory',
    ]);
    expect(code).toBe(1);
    expect(stdout).not.toContain('hosting');
    // Every problem line reads `file:line: field: message`.
    const lines = stderr.split('\n').filter((line) => line.includes(join(BAD, corpus)));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/\.(md|json5?):\d+: /);
    if (file !== '') expect(stderr).toContain(join(BAD, corpus, file));
  });
});

describe('concord serve with a good host, and concord card', () => {
  let dir: string;
  let host: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'concord-cli-host-'));
    cpSync(join(ROOT, 'test/integration/fixtures/host'), dir, { recursive: true });
    // The fixture's MCP server imports the SDK; a copy in tmp finds it through this link.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    host = await serve([dir, '--port', '0', '--store', 'memory', '--watch']);
  });

  afterAll(async () => {
    if (host !== undefined) await stop(host.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints each agent and the listing when it starts', () => {
    expect(host.output()).toContain(
      `public   greeter: ${host.url}agents/greeter/.well-known/agent-card.json`,
    );
    expect(host.output()).toContain('internal internal-audit');
    expect(host.output()).toContain(`listing: ${host.url}agents`);
  });

  it('verifies a served card, and rejects it altered by one byte', async () => {
    // The host's own key set, on the card's origin: an anchor only when asked for (decision 0166).
    const ok = await run(['card', 'verify', `${host.url}agents/greeter/`, '--trust-card-origin']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(/signature 0 verifies \(kid cards-2026, ES256\)/);
    expect(ok.code).toBe(0);

    const body = await (await fetch(`${host.url}agents/greeter/.well-known/agent-card.json`)).text();
    const saved = join(dir, 'card.json');
    writeFileSync(saved, body);
    const jwks = `${host.url}.well-known/jwks.json`;
    expect((await run(['card', 'verify', saved, '--jwks', jwks])).code).toBe(0);
    // One byte: "Greets" -> "Greats".
    const tampered = body.replace('Greets whoever', 'Greats whoever');
    expect(tampered).not.toBe(body);
    writeFileSync(saved, tampered);
    const altered = await run(['card', 'verify', saved, '--jwks', jwks]);
    expect(altered.code).toBe(1);
    expect(altered.stderr).toContain('does not match the card');
    expect(altered.stderr).toContain('cards-2026');
    // Without keys a card file cannot be checked, and the CLI says how to give them.
    const noKeys = await run(['card', 'verify', saved]);
    expect(noKeys.code).toBe(1);
    expect(noKeys.stderr).toContain('--jwks');
  });

  it('prints and lints a served card, including that its interfaces answer', async () => {
    const result = await run(['card', `${host.url}agents/research-bot/`]);
    expect(result.code).toBe(0);
    const card = JSON.parse(result.stdout) as { name: string; supportedInterfaces: unknown[] };
    expect(card.name).toBe('Research bot');
    expect(card.supportedInterfaces.length).toBeGreaterThan(0);
    expect(result.stderr).toContain('card is valid A2A 1.0');
  });

  it('prints and lints the cards generated from definitions, in either version', async () => {
    const result = await run(['card', dir, '--agent', 'ProcessOrder', '--card-version', '0.3']);
    expect(result.stderr).toContain('card is valid A2A 0.3');
    expect(result.code).toBe(0);
    const card = JSON.parse(result.stdout) as { name: string; url: string; skills: { tags: string[] }[] };
    expect(card.name).toBe('ProcessOrder');
    expect(card.url).toBe('http://localhost:4000/agents/ProcessOrder');
    expect(card.skills[0]!.tags).toEqual(['order', 'processing', 'inventory']);
  });

  it('prints, lints and verifies the directory card at the root of the host', async () => {
    const linted = await run(['card', host.url]);
    expect(linted.stderr).toContain(`${host.url}: card is valid A2A 1.0`);
    expect(linted.code).toBe(0);
    expect((JSON.parse(linted.stdout) as { name: string }).name).toBe('ACME Corporation');
    const verified = await run(['card', 'verify', host.url, '--trust-card-origin']);
    expect(verified.stdout).toMatch(/signature 0 verifies \(kid cards-2026, ES256\)/);
    expect(verified.code).toBe(0);
  });

  it('reports interface URLs that do not answer, for 1.0 and 0.3 cards', async () => {
    // A port nothing listens on: bound, then closed.
    const server = await import('node:http');
    const closed = server.createServer();
    await new Promise<void>((up) => closed.listen(0, '127.0.0.1', up));
    const dead = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise<void>((down) => closed.close(() => down()));
    const cards: Record<string, unknown> = {};
    for (const version of ['1.0', '0.3']) {
      const json = (await (
        await fetch(`${host.url}agents/greeter/.well-known/agent-card.json`, {
          headers: { 'a2a-version': version },
        })
      ).json()) as Record<string, unknown>;
      delete json.signatures;
      cards[version] = JSON.parse(JSON.stringify(json).split(`${host.url}agents/greeter`).join(dead));
    }
    const http = server.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(cards[req.url === '/card-0.3.json' ? '0.3' : '1.0']));
    });
    await new Promise<void>((up) => http.listen(0, '127.0.0.1', up));
    const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    try {
      const v1 = await run(['card', `${origin}/card.json`]);
      expect(v1.code).toBe(1);
      expect(v1.stderr).toContain(`error: /supportedInterfaces/0/url: ${dead} is not reachable (`);
      const v03 = await run(['card', `${origin}/card-0.3.json`, '--card-version', '0.3']);
      expect(v03.code).toBe(1);
      expect(v03.stderr).toContain(`error: /url: ${dead} is not reachable (`);
      // Each URL is tried once; the rest of the card is fine.
      expect(v03.stderr.split('\n').filter((l) => l.includes('error:'))).toHaveLength(1);
    } finally {
      http.close();
    }
  });

  it('lints a broken card with the path of each problem', async () => {
    const broken = join(dir, 'broken-card.json');
    writeFileSync(broken, JSON.stringify({ name: 'x', skills: [] }));
    const server = await import('node:http');
    const http = server.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(readFileSync(broken));
    });
    await new Promise<void>((up) => http.listen(0, '127.0.0.1', up));
    const port = (http.address() as { port: number }).port;
    try {
      const result = await run(['card', `http://127.0.0.1:${port}/card.json`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error: \/supportedInterfaces: /);
      expect(result.stderr).toMatch(/error: \/skills: /);
    } finally {
      http.close();
    }
  });

  it('rebuilds a card when its definition changes (dev mode): new body, new ETag', async () => {
    const url = `${host.url}agents/greeter/.well-known/agent-card.json`;
    const before = await fetch(url, { headers: { 'a2a-version': '1.0' } });
    const etag = before.headers.get('etag')!;
    const file = join(dir, 'greeter.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('Greets whoever writes to it.', 'Greets everyone, warmly.'),
    );
    let after: Response | undefined;
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await fetch(url, { headers: { 'a2a-version': '1.0', 'if-none-match': etag } });
      if (after.status === 200) break;
    }
    expect(after?.status).toBe(200);
    expect(after?.headers.get('etag')).not.toBe(etag);
    expect(((await after!.json()) as { description: string }).description).toBe('Greets everyone, warmly.');
    expect(host.output()).toContain('reloaded: greeter');
  });
});

describe('a host signing with EdDSA', () => {
  it('serves cards that concord card verify accepts against its JWKS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-eddsa-'));
    try {
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(join(dir, 'ed.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      writeFileSync(
        join(dir, 'concord.config.json5'),
        "{ signing: { keys: [{ kid: 'ed-1', alg: 'EdDSA', privateKeyFile: './ed.pem' }] } }\n",
      );
      cpSync(join(ROOT, 'test/integration/fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
      writeFileSync(
        join(dir, 'a.md'),
        '---\nname: a\nexposed: true\ndescription: A.\nhandler: ./echo-handler.mjs\n---\n',
      );
      writeFileSync(
        join(dir, 'b.md'),
        '---\nname: b\nexposed: true\ndescription: B.\nhandler: ./echo-handler.mjs\n---\n',
      );
      const served = await serve([dir, '--port', '0', '--store', 'memory']);
      try {
        const jwks = (await (await fetch(`${served.url}.well-known/jwks.json`)).json()) as { keys: object[] };
        expect(jwks.keys).toEqual([
          expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', kid: 'ed-1', alg: 'EdDSA' }),
        ]);
        for (const target of [`${served.url}agents/a/`, served.url]) {
          const verified = await run(['card', 'verify', target, '--trust-card-origin']);
          expect(verified.stderr).toBe('');
          expect(verified.stdout).toContain(`${target}: verified: signature 0 verifies (kid ed-1, EdDSA)`);
          expect(verified.code).toBe(0);
        }
        // The same card altered by one byte fails.
        const body = await (await fetch(`${served.url}agents/b/.well-known/agent-card.json`)).text();
        const file = join(dir, 'card.json');
        writeFileSync(file, body.replace('"B."', '"C."'));
        const altered = await run(['card', 'verify', file, '--jwks', `${served.url}.well-known/jwks.json`]);
        expect(altered.code).toBe(1);
        expect(altered.stderr).toContain('does not match the card');
      } finally {
        await stop(served.child);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a deprecated contract pointing at a missing one', () => {
  it('is a load error at the supersededBy line', async () => {
    const { code, stderr } = await run(['serve', join(BAD, 'superseded-missing'), '--port', '0']);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${join(BAD, 'superseded-missing', 'agent.md')}:9: /a2a/contracts/research.query/supersededBy: names contract "research.query-v3"`,
    );
  });
});

describe('approvals through the CLI, across a restart', () => {
  it('a pending approval survives the host stopping; approved after the restart, the task completes', async () => {
    const work = mkdtempSync(join(tmpdir(), 'concord-approvals-'));
    try {
      cpSync(join(ROOT, 'test/integration/fixtures/contracts'), work, { recursive: true });
      const dataDir = join(work, 'data');
      const args = [work, '--port', '0', '--internal-port', '0', '--data-dir', dataDir];
      let host = await serve(args);
      const internalUrl = (): string => /internal listener: (http:\/\/\S+\/)/.exec(host.output())![1]!;
      const send = await fetch(`${host.url}agents/researcher/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'pay-1',
              role: 'ROLE_USER',
              parts: [
                { data: { _a2a: true, contract: 'payment.send', payload: { invoice: 'INV-9', amount: 5 } } },
              ],
            },
          },
        }),
      });
      const held = ((await send.json()) as { result: { task: { id: string; status: { state: string } } } })
        .result.task;
      expect(held.status.state).toBe('TASK_STATE_AUTH_REQUIRED');

      // Hard stop: the approval and the held task must already be on disk.
      host.child.kill('SIGKILL');
      await new Promise((r) => host.child.once('exit', r));
      host = await serve(args);
      try {
        const agentUrl = `${internalUrl()}agents/researcher/`;
        const listed = await run(['approvals', 'list', agentUrl, '--status', 'pending']);
        expect(listed.code).toBe(0);
        const line = listed.stdout.split('\n').find((l) => l.includes(held.id));
        expect(line).toMatch(/pending\s+payment\.send/);
        const approvalId = line!.split(/\s+/)[0]!;

        const approved = await run(['approvals', 'approve', agentUrl, approvalId, '--reason', 'checked']);
        expect(approved.stderr).toBe('');
        expect(approved.code).toBe(0);
        expect(JSON.parse(approved.stdout)).toMatchObject({
          approval: { status: 'approved', reason: 'checked' },
        });

        const again = await run(['approvals', 'reject', agentUrl, approvalId]);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('HTTP 409');

        let state = '';
        for (let i = 0; i < 50 && state !== 'TASK_STATE_COMPLETED'; i++) {
          const got = await fetch(`${host.url}agents/researcher/tasks/${held.id}`, {
            headers: { 'a2a-version': '1.0' },
          });
          state = ((await got.json()) as { status: { state: string } }).status.state;
          if (state !== 'TASK_STATE_COMPLETED') await new Promise((r) => setTimeout(r, 20));
        }
        expect(state).toBe('TASK_STATE_COMPLETED');
      } finally {
        await stop(host.child);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('concord contracts', () => {
  const contractsDir = join(ROOT, 'test/integration/fixtures/contracts');

  it('lists the contracts of definitions, with versions, deprecation and approval flags', async () => {
    const { code, stdout } = await run(['contracts', 'list', contractsDir]);
    expect(code).toBe(0);
    expect(stdout).toContain('researcher  research.request  Submit a research query');
    expect(stdout).toContain('researcher  research.query (v1.0.0, deprecated -> research.query-v2)');
    expect(stdout).toContain('researcher  payment.send (requires approval)  Pay an invoice');
  });

  it('lists the deprecated contracts with their message and replacement', async () => {
    const { code, stdout } = await run(['contracts', 'deprecated', contractsDir]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      'researcher  research.query@1.0.0 -> research.query-v2  research.query is retired at the end of the quarter.',
    );
  });

  it("lists a running agent's contracts from its card", async () => {
    const host = await serve([contractsDir, '--port', '0', '--store', 'memory']);
    try {
      const { code, stdout } = await run(['contracts', 'list', `${host.url}agents/researcher/`]);
      expect(code).toBe(0);
      expect(stdout).toContain('research.request');
      expect(stdout).toContain('payment.send (requires approval)');
    } finally {
      await stop(host.child);
    }
  });
});
