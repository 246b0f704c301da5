/**
 * A hosted agent opts in to messageId keys from its definition, or inherits the host config's
 * `idempotency` default (decision 0133): through `startHost` over HTTP, a markdown frontmatter and
 * a config entry each turn it on, an agent may turn the host's default off, and a reload applies a
 * changed setting. Malformed settings are refused naming their field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { DefinitionError, loadHost } from '../../src/host/definitions/index.js';
import { allDrivers, taskOf, userText } from '../helpers/drivers.js';

const ECHO = resolve(import.meta.dirname, '../../examples/echo/agent.mjs');

/** A host directory: the config (JSON5 text) and markdown agents by file name. */
function hostDir(config: string, markdown: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-idem-host-'));
  writeFileSync(join(dir, 'echo.mjs'), `export { executor } from ${JSON.stringify(ECHO)};\n`);
  writeFileSync(join(dir, 'concord.config.json5'), config);
  for (const [name, text] of Object.entries(markdown)) writeFileSync(join(dir, name), text);
  return dir;
}

const agent = (id: string, extra = ''): string =>
  `{ id: '${id}', description: 'echo', exposed: true, handler: './echo.mjs'${extra === '' ? '' : `, ${extra}`} }`;

/** Whether the agent at `path` answers a repeated messageId with the first task. */
async function dedupsMessageIds(host: RunningHost, path: string): Promise<boolean> {
  const driver = allDrivers(`${host.url}agents/${path}/`)[1]!;
  const message = userText('hello');
  const first = taskOf(await driver.send(message));
  const second = taskOf(await driver.send(message));
  return second.id === first.id;
}

describe('hosted agents without a host default', () => {
  let dir: string;
  let host: RunningHost;
  beforeAll(async () => {
    dir = hostDir(
      `{ agents: { dir: '.', list: [${agent('plain')}, ${agent('keeper', 'idempotency: { messageId: true }')}] } }`,
      {
        'md-keeper.md': `---\nname: md-keeper\ndescription: echo\nexposed: true\nhandler: ./echo.mjs\nidempotency:\n  messageId: true\n---\n`,
      },
    );
    host = await startHost(dir, { port: 0, store: 'sqlite', dataDir: join(dir, 'data') });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a repeated messageId is a new message unless the definition opts in', async () => {
    expect(await dedupsMessageIds(host, 'plain')).toBe(false);
    expect(await dedupsMessageIds(host, 'keeper')).toBe(true);
    expect(await dedupsMessageIds(host, 'md-keeper')).toBe(true);
  });

  it('an Idempotency-Key is honoured by every agent', async () => {
    const driver = allDrivers(`${host.url}agents/plain/`, { 'idempotency-key': crypto.randomUUID() })[0]!;
    const first = taskOf(await driver.send(userText('once')));
    expect(taskOf(await driver.send(userText('once'))).id).toBe(first.id);
  });
});

describe('the host config default', () => {
  let dir: string;
  let host: RunningHost;
  beforeAll(async () => {
    dir = hostDir(
      `{ idempotency: { messageId: true }, agents: { list: [${agent('inherits')}, ${agent('declines', 'idempotency: { messageId: false }')}] } }`,
    );
    host = await startHost(dir, { port: 0, store: 'memory', watch: true, watchDebounceMs: 20 });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("applies to agents that do not say, and an agent's own setting wins", async () => {
    expect(await dedupsMessageIds(host, 'inherits')).toBe(true);
    expect(await dedupsMessageIds(host, 'declines')).toBe(false);
  });

  it('a reload that turns it off applies to the next send', async () => {
    const reloaded = new Promise<void>((done) => {
      const timer = setInterval(() => {
        if (host.config.idempotency === undefined) {
          clearInterval(timer);
          done();
        }
      }, 20);
    });
    writeFileSync(
      join(dir, 'concord.config.json5'),
      `{ agents: { list: [${agent('inherits')}, ${agent('declines', 'idempotency: { messageId: false }')}] } }`,
    );
    await reloaded;
    expect(await dedupsMessageIds(host, 'inherits')).toBe(false);
  });
});

describe('malformed settings', () => {
  it('are refused naming the field, in the config and in a frontmatter', async () => {
    const dir = hostDir(`{ idempotency: { messageId: 'yes' }, agents: { dir: '.', list: [] } }`, {
      'a.md': `---\nname: a\nhandler: ./echo.mjs\nidempotency:\n  byMessageId: true\n---\n`,
    });
    try {
      const error = await loadHost(dir, { env: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DefinitionError);
      const problems = (error as DefinitionError).problems.map(
        (p) => `${basename(p.file)} ${p.field}: ${p.message}`,
      );
      expect(problems.sort()).toEqual([
        'a.md /idempotency/byMessageId: unknown field',
        'concord.config.json5 /idempotency/messageId: must be a boolean (true or false) (got "yes")',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
