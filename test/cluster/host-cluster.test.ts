/**
 * Two agent hosts on one PostgreSQL database, each with two agents (their stores in schemas of
 * their own): the hosts join one cluster over the base schema's bus, each agent under its id, so a
 * task of one agent running on host A streams and cancels from host B, and the other agent's
 * traffic never mixes in. Plus the `concord serve` flag checks of the cluster options.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { describeOnPostgres, freshSchema, POSTGRES_URL } from '../helpers/postgres.js';
import { cancel, chunks, getTask, sendText, stateOf, subscribe } from '../helpers/a2a-http.js';
import { concord } from '../cli/cli-process.js';

const ECHO = resolve(import.meta.dirname, '../../examples/echo/agent.mjs');
const dir = mkdtempSync(join(tmpdir(), 'concord-host-cluster-'));
for (const id of ['echo', 'other']) {
  writeFileSync(join(dir, `${id}.mjs`), `export { executor } from ${JSON.stringify(ECHO)};\n`);
  writeFileSync(
    join(dir, `${id}.md`),
    `---\nname: ${id}\nexposed: true\ndescription: Echoes.\nversion: 1.0.0\nhandler: ./${id}.mjs\n---\n\nEcho.\n`,
  );
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeOnPostgres('two hosts on one PostgreSQL database', () => {
  it('streams and cancels one agent’s task across hosts; agents stay apart', async () => {
    const schema = freshSchema();
    const hosts: RunningHost[] = [];
    const start = async (): Promise<RunningHost> => {
      const host = await startHost(dir, {
        port: 0,
        store: 'postgres',
        dataDir: join(dir, 'data'),
        postgres: { url: POSTGRES_URL!, schema },
        cluster: { instanceTtlMs: 2_000 },
        push: { enabled: false },
      });
      hosts.push(host);
      return host;
    };
    try {
      const a = await start();
      const b = await start();
      expect(a.host.cluster?.instanceId).toBeDefined();
      expect(a.host.cluster?.instanceId).not.toBe(b.host.cluster?.instanceId);
      const onA = `${a.url}agents/echo/`;
      const onB = `${b.url}agents/echo/`;
      const task = await sendText(onA, 'stream 4');
      const live = await subscribe(onB, task.id);
      expect(stateOf(live.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
      const log = await subscribe(onB, task.id, { lastEventId: '0' });
      expect(chunks(log.events)).toEqual([1, 2, 3, 4].map((i) => `chunk ${i} of 4\n`));
      expect(live.events.slice(1)).toEqual(log.events.slice(Number(live.events[0]!.id)));
      // The other agent's store is another schema: the task is not its.
      expect((await getTask(`${b.url}agents/other/`, task.id)).status).toBe(404);
      const waiting = await sendText(onA, 'wait');
      const started = Date.now();
      const canceled = await cancel(onB, waiting.id);
      expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
      expect(Date.now() - started).toBeLessThan(4_000);
      expect((await getTask(onA, waiting.id)).task.status.state).toBe('TASK_STATE_CANCELED');
    } finally {
      for (const host of hosts) await host.close();
    }
  });
});

describe('concord serve cluster flags', () => {
  it('refuses a shared bus on a store that is not shared, naming the fix', async () => {
    const run = await concord(['serve', 'examples/echo', '--store', 'memory', '--bus', 'redis']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      '--bus redis: instances of a cluster share one task store; use --store postgres',
    );
  });

  it('refuses cluster settings without a cluster, and bad values', async () => {
    const ttl = await concord(['serve', 'examples/echo', '--store', 'memory', '--instance-ttl', '2s']);
    expect(ttl.stderr).toContain('--instance-ttl: only for several instances');
    // The memory store keeps nothing across a restart, so there is nothing to settle.
    const forgetful = await concord(['serve', 'examples/echo', '--store', 'memory', '--orphans', 'resume']);
    expect(forgetful.stderr).toContain(
      '--orphans: only for the SQLite store or several instances (--store postgres)',
    );
    const bus = await concord(['serve', 'examples/echo', '--bus', 'kafka']);
    expect(bus.stderr).toContain('--bus: expected local, postgres or redis, got kafka');
    const orphans = await concord([
      'serve',
      'examples/echo',
      '--store',
      'postgres',
      '--database-url',
      'postgres://nobody@127.0.0.1:1/none',
      '--orphans',
      'maybe',
    ]);
    expect(orphans.stderr).toContain('--orphans: expected fail or resume, got maybe');
  });

  it('needs a Redis URL for the Redis bus', async () => {
    const run = await concord(
      [
        'serve',
        'examples/echo',
        '--store',
        'postgres',
        '--database-url',
        'postgres://x@127.0.0.1:1/x',
        '--bus',
        'redis',
      ],
      { CONCORD_REDIS_URL: '' },
    );
    expect(run.stderr).toContain(
      '--bus redis needs a Redis URL: pass --redis-url <url> or set CONCORD_REDIS_URL',
    );
  });
});
