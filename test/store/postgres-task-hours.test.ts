/**
 * PostgreSQL's per-hour task counters (schema 7, decision 0163), which ListTasks' totalSize with
 * statusTimestampAfter sums: a schema-6 store is counted once on upgrade; two pools moving tasks of
 * the same shards back and forth at once neither deadlock nor lose a count; and a counter row that
 * reaches zero is gone (shards follow the task id, so no row goes negative).
 */
import { describe, expect, it } from 'vitest';
import type { TaskState } from '../../src/protocol/model.js';
import type { TaskScope } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { MIGRATIONS_TABLE } from '../../src/store/postgres/internal.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL, withTestClient } from '../helpers/postgres.js';
import { createCommit, makeTask, statusEvent } from './suite/fixtures.js';

const scope: TaskScope = { tenant: 't', owner: 'alice' };
const at = (hour: number, minute = 0) =>
  `2025-07-01T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;

describe.skipIf(POSTGRES_URL === undefined)(`PostgreSQL task counters by hour${POSTGRES_SKIP_NOTE}`, () => {
  it('counts a schema-6 store on upgrade and stays exact as two pools move tasks back and forth', async () => {
    const schema = freshSchema();
    const url = POSTGRES_URL!;
    const old = await openPostgresStore({ connectionString: url, schema, poolSize: 2 });
    const ids = Array.from({ length: 24 }, (_, i) => `h-${i}`);
    for (const [i, id] of ids.entries())
      await old.commit(createCommit(makeTask(id, { timestamp: at(i % 4) }), scope));
    await old.close();
    await withTestClient((client) =>
      client.query(
        `DROP TABLE ${schema}.task_hours CASCADE; DELETE FROM ${schema}.${MIGRATIONS_TABLE} WHERE version >= 7`,
      ),
    );

    const a = await openPostgresStore({ connectionString: url, schema, poolSize: 4 });
    const b = await openPostgresStore({ connectionString: url, schema, poolSize: 4 });
    const since = async (after: string, status?: TaskState) => {
      const page = await a.list({
        ...scope,
        pageSize: 100,
        statusTimestampAfter: after,
        ...(status ? { status } : {}),
      });
      return [page.totalSize, page.tasks.length];
    };
    try {
      expect(await since(at(0, 30))).toEqual([18, 18]);
      // Every task flips between working and input-required, in hours 5 and 6, from both pools at
      // once: opposite moves on one shard lock its rows in the same order.
      const flip = async (id: string, k: number) => {
        let version = 1;
        for (let round = 0; round < 6; round++) {
          const state: TaskState = round % 2 === 0 ? 'TASK_STATE_WORKING' : 'TASK_STATE_INPUT_REQUIRED';
          const task = makeTask(id, { state, timestamp: at(5 + ((round + k) % 2), round) });
          await (k % 2 === 0 ? a : b).commit({
            ...scope,
            task,
            expectedVersion: version,
            events: [statusEvent(task)],
          });
          version++;
        }
      };
      await Promise.all(ids.map((id, k) => flip(id, k)));
      for (const after of [at(0), at(5), at(5, 3), at(6), at(6, 4)]) {
        for (const status of [undefined, 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED'] as const) {
          const [total, listed] = await since(after, status);
          expect({ after, status, total }).toEqual({ after, status, total: listed });
        }
      }
      const rows = await withTestClient(async (client) => {
        const { rows: r } = await client.query<{ hour: string; n: string }>(
          `SELECT hour, n FROM ${schema}.task_hours ORDER BY hour`,
        );
        return r;
      });
      // Hours 0-3 emptied as every task moved on; no row is zero or negative.
      expect(rows.every((r) => r.hour >= '2025-07-01T05' && Number(r.n) > 0)).toBe(true);
      expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(24);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
