/**
 * The shared ClusterBus suite against PostgreSQL (CONCORD_TEST_POSTGRES_URL), plus what only this
 * bus has: its LISTEN connection comes back after the server cut it, and says so.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPostgresBus } from '../../src/cluster/postgres/index.js';
import { describeOnPostgres, freshSchema, POSTGRES_URL, withTestClient } from '../helpers/postgres.js';
import { busSuite, Inbox } from './bus-suite.js';

describeOnPostgres('PostgreSQL cluster bus', () => {
  busSuite('PostgreSQL', () => {
    const schema = freshSchema();
    return () => createPostgresBus({ connectionString: POSTGRES_URL!, schema });
  });

  describe('LISTEN connection', () => {
    it('reconnects after the server terminates it, reports the gap, and delivers again', async () => {
      const schema = freshSchema();
      const applicationName = `concord-bus-test-${randomBytes(4).toString('hex')}`;
      const listening = createPostgresBus({ connectionString: POSTGRES_URL!, schema, applicationName });
      const sender = createPostgresBus({ connectionString: POSTGRES_URL!, schema });
      const inbox = new Inbox();
      try {
        await listening.open(inbox);
        await sender.publish({ type: 'committed', agent: '', taskId: 'before', version: 1, from: 'S' });
        await inbox.waitFor((m) => m.taskId === 'before');
        const killed = await withTestClient((client) =>
          client.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = $1 AND query ILIKE 'LISTEN%'`,
            [applicationName],
          ),
        );
        expect(killed.rowCount).toBe(1);
        const until = Date.now() + 10_000;
        while (inbox.reconnects === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        expect(inbox.reconnects).toBe(1);
        expect(inbox.errors.length).toBeGreaterThan(0);
        await sender.publish({ type: 'committed', agent: '', taskId: 'after', version: 2, from: 'S' });
        await inbox.waitFor((m) => m.taskId === 'after');
      } finally {
        await listening.close();
        await sender.close();
      }
    });
  });
});
