/**
 * Dev mode through the CLI, as a user runs it (`concord serve --watch`, a child process): editing
 * the host config, an agent's security and a handler module each changes what is served over
 * HTTP — the cards, what is enforced, what the agent answers — and a change that does not load
 * leaves the host serving what it served before, with every problem reported (decision 0022).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Wire JSON read in assertions; its shape is what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const JWT_SECRET = 'a-watch-test-secret-of-at-least-32-bytes';
const API_KEY = 'watch-key-0123456789';

let work: string;
let hostDir: string;
let child: ChildProcess;
let url: string;
let output = '';

const config = (org: string, requirement: string, kid: string): string => `{
  organization: { name: '${org}', url: 'https://example.test' },
  security: {
    schemes: {
      bearer: { type: 'http', scheme: 'bearer', secret: { env: 'WATCH_JWT_SECRET' } },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', keys: [{ key: { env: 'WATCH_API_KEY' }, principal: 'p' }] },
    },
    requirements: [{ ${requirement}: [] }],
  },
  signing: { keys: [{ kid: '${kid}', alg: 'ES256', privateKeyFile: './${kid}.pem' }] },
}
`;

const agent = (name: string, security: string): string =>
  `---\nname: ${name}\nexposed: true\ndescription: Greets.\nhandler: ../handlers/${name}.mjs\n${security}---\n`;

const handler = (prefix: string): string =>
  `export default (context, updater) => {\n` +
  `  updater.addArtifact([{ text: '${prefix}: ' + context.message.parts[0].text }]);\n` +
  `  updater.complete();\n};\n`;

async function token(): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('alice')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

async function card(agent: string): Promise<Json> {
  const response = await fetch(`${url}agents/${agent}/.well-known/agent-card.json`, {
    headers: { 'a2a-version': '1.0' },
  });
  return response.json();
}

function kidOf(json: Json): string {
  return JSON.parse(Buffer.from(json.signatures[0].protected, 'base64url').toString()).kid as string;
}

async function send(headers: Record<string, string>, text = 'hi'): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${url}agents/greeter/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  return { status: response.status, body: await response.json() };
}

const artifactText = (body: Json): string => body.result.task.artifacts[0].parts[0].text as string;

/** Polls until `check` passes (the watcher debounces, then reloads), or fails with its last error. */
async function eventually(check: () => Promise<void>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Waits for `text` to appear in the output after `from` (reload reports come after the edit). */
function logged(from: number, text: string | RegExp): Promise<void> {
  return eventually(async () => {
    const since = output.slice(from);
    if (typeof text === 'string' ? !since.includes(text) : !text.test(since)) {
      throw new Error(`not logged: ${String(text)}\n--- output since the edit:\n${since}`);
    }
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'concord-watch-'));
  hostDir = join(work, 'host');
  mkdirSync(hostDir);
  mkdirSync(join(work, 'handlers'));
  for (const kid of ['k1', 'k2']) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(hostDir, `${kid}.pem`), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  }
  writeFileSync(join(hostDir, 'concord.config.json5'), config('ACME', 'bearer', 'k1'));
  writeFileSync(join(hostDir, 'greeter.md'), agent('greeter', ''));
  writeFileSync(join(hostDir, 'clerk.md'), agent('clerk', ''));
  // The handlers live outside the served directory: the watcher must follow them there.
  writeFileSync(join(work, 'handlers/greeter.mjs'), handler('v1'));
  writeFileSync(join(work, 'handlers/clerk.mjs'), handler('clerk'));
  child = spawn(process.execPath, [CLI, 'serve', hostDir, '--port', '0', '--store', 'memory', '--watch'], {
    env: { ...process.env, WATCH_JWT_SECRET: JWT_SECRET, WATCH_API_KEY: API_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(async () => {
    const m = /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(output);
    if (m === null || !output.includes('task stores:')) throw new Error(`host did not start: ${output}`);
    url = m[1]!;
  }, 20_000);
});

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    await new Promise<void>((done) => {
      child.on('exit', () => done());
      child.kill('SIGTERM');
    });
  }
  rmSync(work, { recursive: true, force: true });
});

describe('concord serve --watch', () => {
  it('starts with the first config: provider, bearer required, signed with k1', async () => {
    const json = await card('greeter');
    expect(json.provider.organization).toBe('ACME');
    expect(json.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    expect(kidOf(json)).toBe('k1');
    expect((await send({ authorization: `Bearer ${await token()}` })).status).toBe(200);
    expect((await send({ 'x-api-key': API_KEY })).status).toBe(401);
  });

  it('applies a config edit to every card, to enforcement and to signing', async () => {
    const from = output.length;
    writeFileSync(join(hostDir, 'concord.config.json5'), config('Globex', 'apiKey', 'k2'));
    await logged(from, 'reloaded: host config (organization, security, signing)');
    for (const agent of ['greeter', 'clerk']) {
      const json = await card(agent);
      expect(json.provider.organization, agent).toBe('Globex');
      expect(json.securityRequirements, agent).toEqual([{ schemes: { apiKey: {} } }]);
      expect(kidOf(json), agent).toBe('k2');
    }
    // The directory card at the root follows too.
    const root = (await (await fetch(`${url}.well-known/agent-card.json`)).json()) as Json;
    expect(root.provider.organization).toBe('Globex');
    const jwks = (await (await fetch(`${url}.well-known/jwks.json`)).json()) as Json;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(['k2']);
    // Enforcement agrees with the card: the API key is now what is required.
    expect((await send({ 'x-api-key': API_KEY })).status).toBe(200);
    const bearer = await send({ authorization: `Bearer ${await token()}` });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error.message).toContain('"apiKey"');
  });

  it('keeps serving the last good host when an edit does not load, and names every problem', async () => {
    const from = output.length;
    const file = join(hostDir, 'concord.config.json5');
    writeFileSync(
      file,
      config('Initech', 'nope', 'k2').replace('organization: {', 'organisation: 1,\n  organization: {'),
    );
    await logged(from, 'not reloaded, still serving the previous definitions');
    await logged(from, `${file}:2: /organisation: unknown field`);
    await logged(
      from,
      /concord\.config\.json5:\d+: \/security\/requirements\/0\/nope: unknown security scheme "nope"/,
    );
    const json = await card('greeter');
    expect(json.provider.organization).toBe('Globex');
    expect((await send({ 'x-api-key': API_KEY })).status).toBe(200);
    // Put the good config back for the tests that follow.
    const again = output.length;
    writeFileSync(file, config('Globex', 'apiKey', 'k2'));
    await logged(again, 'reloaded:');
  });

  it("changes the card and the enforcement together when an agent's security changes", async () => {
    const clerkCard = `${url}agents/clerk/.well-known/agent-card.json`;
    const clerkEtag = (await fetch(clerkCard)).headers.get('etag');
    const from = output.length;
    writeFileSync(join(hostDir, 'greeter.md'), agent('greeter', 'security:\n  - bearer: []\n'));
    await logged(from, 'reloaded: greeter');
    const json = await card('greeter');
    expect(json.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    expect((await send({ authorization: `Bearer ${await token()}` })).status).toBe(200);
    expect((await send({ 'x-api-key': API_KEY })).status).toBe(401);
    // The other agent keeps the host's requirement, and its card is not even re-signed.
    expect((await card('clerk')).securityRequirements).toEqual([{ schemes: { apiKey: {} } }]);
    expect((await fetch(clerkCard)).headers.get('etag')).toBe(clerkEtag);
  });

  it('runs the new code after a handler module is edited, also outside the served directory', async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    expect(artifactText((await send(auth, 'one')).body)).toBe('v1: one');
    const file = join(work, 'handlers/greeter.mjs');
    let from = output.length;
    writeFileSync(file, handler('v2'));
    await logged(from, 'reloaded: greeter');
    expect(artifactText((await send(auth, 'two')).body)).toBe('v2: two');

    // A handler that no longer loads is reported; the previous code keeps answering.
    from = output.length;
    writeFileSync(file, 'export default (context, updater) => {\n');
    await logged(from, `Handler ${file} failed to load`);
    expect(artifactText((await send(auth, 'three')).body)).toBe('v2: three');

    from = output.length;
    writeFileSync(file, handler('v3'));
    await logged(from, 'reloaded: greeter');
    expect(artifactText((await send(auth, 'four')).body)).toBe('v3: four');
    expect(readFileSync(file, 'utf8')).toContain('v3');
  });
});
