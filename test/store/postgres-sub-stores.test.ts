/**
 * The shared PushStore, ApprovalStore and EvidenceStore suites against the PostgreSQL task store's
 * sub-stores (when CONCORD_TEST_POSTGRES_URL is set), plus what a database shared by several
 * instances owes: two pools claiming from one outbox never hold the same lease, a commit that
 * loses its version check queues nothing, and decisions and evidence numbers stay single across
 * pools.
 */
import { describe, expect, it } from 'vitest';
import {
  ApprovalConflictError,
  EvidenceSequenceError,
  VersionConflictError,
  type TaskScope,
} from '../../src/store/index.js';
import { openPostgresStore, type PostgresTaskStore } from '../../src/store/postgres/index.js';
import {
  describeOnPostgres,
  freshSchema,
  openTestPostgresStore,
  POSTGRES_SKIP_NOTE,
  POSTGRES_URL,
} from '../helpers/postgres.js';
import { describeApprovalStoreSuite, newApproval } from './approval-store-suite.js';
import { describeEvidenceStoreSuite, newEvidence } from './evidence-store-suite.js';
import { describePushStoreSuite, pushConfig } from './push-store-suite.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

describeOnPostgres('PushStore suite: postgres', () =>
  describePushStoreSuite('postgres', async () => {
    const store = await openTestPostgresStore();
    return { store, cleanup: () => store.close() };
  }),
);

describeOnPostgres('ApprovalStore suite: postgres', () =>
  describeApprovalStoreSuite('postgres TaskStore.approvals', async () => {
    const store = await openTestPostgresStore();
    return { approvals: store.approvals, cleanup: () => store.close() };
  }),
);

describeOnPostgres('EvidenceStore suite: postgres', () =>
  describeEvidenceStoreSuite('postgres TaskStore.evidence', async () => {
    const store = await openTestPostgresStore();
    return { evidence: store.evidence, cleanup: () => store.close() };
  }),
);

/** Two stores on one fresh schema, as two instances would open it. */
async function twoInstances(): Promise<[PostgresTaskStore, PostgresTaskStore]> {
  const schema = freshSchema();
  const a = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 4 });
  const b = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 4 });
  return [a, b];
}

describe.skipIf(POSTGRES_URL === undefined)(
  `PostgreSQL sub-stores across instances${POSTGRES_SKIP_NOTE}`,
  () => {
    it('hands each outbox entry to one of two concurrent claimers, and every entry to someone', async () => {
      const [a, b] = await twoInstances();
      try {
        const tasks = 40;
        for (let i = 0; i < tasks; i++) {
          const id = `t${i}`;
          await a.commit({ ...createCommit(makeTask(id)), pushConfigs: [pushConfig(id, 'hook')] });
        }
        const now = Date.now();
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).push.claimDue(now, 7, 60_000)),
        );
        const ids = claims.flat().map((e) => e.id);
        expect(new Set(ids).size, 'an entry was claimed twice').toBe(ids.length);
        // Whatever the first round left, a second round picks up; in all, each entry exactly once.
        const rest = await b.push.claimDue(now, 100, 60_000);
        const all = [...ids, ...rest.map((e) => e.id)];
        expect(new Set(all).size).toBe(all.length);
        expect(all).toHaveLength(tasks);
        for (const entry of [...claims.flat(), ...rest]) expect(entry.attempts).toBe(1);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('queues nothing for a commit that loses its version check, configs given inline included', async () => {
      const store = await openTestPostgresStore();
      try {
        await store.commit(createCommit(makeTask('t1')));
        await store.push.putConfig(pushConfig('t1', 'a'));
        const working = makeTask('t1', { state: 'TASK_STATE_WORKING' });
        await expect(
          store.commit({
            ...ANON,
            task: working,
            expectedVersion: 5,
            events: [statusEvent(working)],
            pushConfigs: [pushConfig('t1', 'inline')],
          }),
        ).rejects.toBeInstanceOf(VersionConflictError);
        expect(await store.push.nextDueAt()).toBeUndefined();
        // The inline config was rolled back with the commit.
        expect((await store.push.listConfigs('t1')).map((c) => c.id)).toEqual(['a']);
      } finally {
        await store.close();
      }
    });

    it('lets exactly one decision win and one append take a number across two instances', async () => {
      const [a, b] = await twoInstances();
      const scope: TaskScope = { tenant: 'acme', owner: 'alice' };
      try {
        await a.commit(createCommit(makeTask('task-of-x'), scope));
        await a.approvals.create(newApproval('x'));
        const decisions = await Promise.allSettled([
          a.approvals.decide('x', { status: 'approved', decidedBy: 'owner' }),
          b.approvals.decide('x', { status: 'rejected', decidedBy: 'deputy' }),
        ]);
        expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
        const lost = decisions.find((d) => d.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toBeInstanceOf(ApprovalConflictError);
        expect((await b.approvals.history('x')).map((e) => e.action)).toHaveLength(2);

        const appends = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).evidence.append(newEvidence('m1', 1, { by: i })),
          ),
        );
        expect(appends.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of appends)
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(EvidenceSequenceError);
        expect(await a.evidence.read('m1')).toHaveLength(1);
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
);
