/**
 * `--store postgres` through the CLI, as a user runs it: a clear error (without the password) when
 * the URL is missing or the database unreachable; `concord serve examples/echo --store postgres`
 * answering a send, with the URL redacted in its banner; `concord db migrate` for a host's agents
 * (one schema each), then the host served with `--no-migrate` and `--retention`, its tasks in
 * PostgreSQL; and a schema left unmigrated refused with the command to run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSchema } from '../../src/host/internal.js';
import {
  openPostgresStore,
  POSTGRES_SCHEMA_VERSION,
  redactDatabaseUrl,
} from '../../src/store/postgres/internal.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL, withTestClient } from '../helpers/postgres.js';
import { pushConfig } from '../store/push-store-suite.js';
import { ANON, createCommit, makeTask, statusEvent } from '../store/suite/fixtures.js';
import { concord, ROOT, startConcord } from './cli-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'concord-cli-pg-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The URL as `serve` prints it: never the password. */
function checkBanner(stdout: string): void {
  expect(stdout).toContain(redactDatabaseUrl(POSTGRES_URL!));
  const password = new URL(POSTGRES_URL!).password;
  if (password !== '') expect(stdout).not.toContain(password);
}

async function sendText(url: string, text: string): Promise<{ id: string; state: string; reply: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  const body = (await response.json()) as {
    result: { task: { id: string; status: { state: string }; artifacts?: { parts: { text?: string }[] }[] } };
  };
  const { task } = body.result;
  return { id: task.id, state: task.status.state, reply: task.artifacts?.[0]?.parts[0]?.text ?? '' };
}

describe('--store postgres refusals', () => {
  it('asks for a URL when neither --database-url nor CONCORD_DATABASE_URL is given', async () => {
    const run = await concord(['serve', join(ROOT, 'examples/echo'), '--store', 'postgres', '--port', '0'], {
      CONCORD_DATABASE_URL: '',
    });
    // A missing option value is a usage error, exit 2 like every other.
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'the postgres store needs a database URL: pass --database-url <url> or set CONCORD_DATABASE_URL',
    );
  });

  it('names an unreachable database without its password', async () => {
    const url = 'postgres://app:s3cret-pw@127.0.0.1:1/concord';
    for (const args of [
      ['serve', join(ROOT, 'examples/echo'), '--store', 'postgres', '--port', '0', '--data-dir', dataDir],
      ['db', 'migrate'],
    ]) {
      const run = await concord(args, { CONCORD_DATABASE_URL: url });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(
        /cannot connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/concord/,
      );
      expect(run.stdout + run.stderr).not.toContain('s3cret-pw');
    }
  });

  it('refuses --database-url with another store, and a retention that is not a duration', async () => {
    const echo = join(ROOT, 'examples/echo');
    const mixed = await concord(['serve', echo, '--database-url', 'postgres://x@h/db']);
    expect(mixed.stderr).toContain('--database-url: only for --store postgres (the store is sqlite)');
    const bad = await concord(['serve', echo, '--retention', 'forever', '--data-dir', dataDir]);
    expect(bad.stderr).toContain('--retention: expected a positive duration');
  });
});

describe.skipIf(POSTGRES_URL === undefined)(`concord on PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {
  it('serves examples/echo on PostgreSQL, its tasks in the schema', async () => {
    const schema = freshSchema();
    const server = startConcord([
      'serve',
      join(ROOT, 'examples/echo'),
      '--store',
      'postgres',
      '--database-url',
      POSTGRES_URL!,
      '--database-schema',
      schema,
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ]);
    try {
      const banner = await server.until((out) => out.includes('agent card:'));
      checkBanner(banner);
      expect(banner).toContain(
        `task store: PostgreSQL ${redactDatabaseUrl(POSTGRES_URL!)} (schema ${schema})`,
      );
      const url = /at (http:\/\/\S+\/)/.exec(banner)![1]!;
      const sent = await sendText(url, 'hello postgres');
      expect(sent.state).toBe('TASK_STATE_COMPLETED');
      const stored = await withTestClient((c) =>
        c.query(`SELECT version FROM ${schema}.tasks WHERE id = $1`, [sent.id]),
      );
      expect(stored.rows[0]?.version).toBeGreaterThanOrEqual(2);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  });

  it('migrates a host with concord db migrate, then serves it with --no-migrate and --retention', async () => {
    const hostDir = mkdtempSync(join(dataDir, 'host-'));
    writeFileSync(
      join(hostDir, 'hello.md'),
      '---\nname: hello-bot\nexposed: true\ndescription: Says hello.\nversion: 1.0.0\nhandler: ./hello.mjs\n---\n\nA code agent.\n',
    );
    writeFileSync(
      join(hostDir, 'hello.mjs'),
      `export const executor = {
  async execute(context, updater) {
    updater.addArtifact([{ text: 'hello from postgres' }]);
    updater.complete();
  },
};
`,
    );
    const base = freshSchema();
    const schema = agentSchema(base, 'hello-bot');
    const env = { CONCORD_DATABASE_URL: POSTGRES_URL! };
    const serveArgs = ['serve', hostDir, '--store', 'postgres', '--database-schema', base, '--no-migrate'];
    const refused = await concord([...serveArgs, '--port', '0', '--data-dir', dataDir], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`postgres schema ${schema} is at version 0`);
    expect(refused.stderr).toContain('concord db migrate');

    const migrated = await concord(['db', 'migrate', hostDir, '--database-schema', base], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`${schema}: migrated from version 0 to ${POSTGRES_SCHEMA_VERSION}`);
    checkBanner(migrated.stdout);
    const again = await concord(['db', 'migrate', hostDir, '--database-schema', base], env);
    expect(again.stdout).toContain(`${schema}: already at version ${POSTGRES_SCHEMA_VERSION}`);

    const host = startConcord([
      ...serveArgs,
      '--retention',
      '30d',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--database-url',
      POSTGRES_URL!,
    ]);
    try {
      const banner = await host.until((out) => out.includes('task stores:'));
      expect(banner).toContain(
        `task stores: PostgreSQL ${redactDatabaseUrl(POSTGRES_URL!)} (schemas ${base}_<agent>)`,
      );
      const url = /at (http:\/\/\S+\/)/.exec(banner)![1]!;
      const sent = await sendText(`${url}agents/hello-bot/`, 'hi');
      expect(sent).toMatchObject({ state: 'TASK_STATE_COMPLETED', reply: 'hello from postgres' });
      // The task is in the agent's schema, readable by any instance that opens it.
      const store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, migrate: false });
      try {
        expect((await store.get(sent.id, { tenant: '', owner: '' }))?.task.status.state).toBe(
          'TASK_STATE_COMPLETED',
        );
      } finally {
        await store.close();
      }
    } finally {
      host.child.kill('SIGTERM');
      expect((await host.exited).code).toBe(0);
    }
  });

  it('lists and requeues dead letters with concord push --store postgres', async () => {
    const schema = freshSchema();
    const store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema });
    let id: number;
    try {
      // A delivery given up, as the dispatcher leaves it: config, commit, claim, settle dead.
      await store.commit(createCommit(makeTask('t-dead'), ANON));
      await store.push.putConfig(pushConfig('t-dead', 'cfg-1', { url: 'https://hooks.example/down' }));
      const done = makeTask('t-dead', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:02Z' });
      await store.commit({ ...ANON, task: done, expectedVersion: 1, events: [statusEvent(done)] });
      const [entry] = await store.push.claimDue(Date.now(), 1, 60_000);
      id = entry!.id;
      await store.push.settle(id, {
        outcome: 'dead',
        deliveredSeq: 0,
        reason: 'gave up after 3 attempts: the receiver answered HTTP 500',
        url: 'https://hooks.example/down',
      });
    } finally {
      await store.close();
    }
    const args = ['--store', 'postgres', '--database-schema', schema];
    const env = { CONCORD_DATABASE_URL: POSTGRES_URL! };
    const listed = await concord(['push', 'dead-letters', ...args], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`#${id}`);
    expect(listed.stdout).toContain('task t-dead, config cfg-1');
    expect(listed.stdout).toContain('the receiver answered HTTP 500');
    const json = await concord(['push', 'dead-letters', ...args, '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject([{ id, taskId: 't-dead', configId: 'cfg-1' }]);

    const requeued = await concord(['push', 'requeue', String(id), ...args], env);
    expect(requeued.code).toBe(0);
    expect(requeued.stdout).toContain(`Dead letter #${id} is back in the outbox`);
    const after = await concord(['push', 'dead-letters', ...args], env);
    expect(after.stdout).toContain('No dead letters');
    const again = await concord(['push', 'requeue', String(id), ...args], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no dead letter #${id}`);
  });
});
