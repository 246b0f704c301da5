// Filling a PostgreSQL task store directly (bench/scale/stores.mjs): the template tasks go through
// the store's own commit, then their rows are copied per task, thousands per statement as arrays
// unnested into an INSERT ... SELECT (each column cast to its own type), asynchronous commit.

import pg from 'pg';
import { openPostgresStore } from '../../../dist/store/postgres/index.js';
import { forEachFilledRow, templateKeys } from './tasks.mjs';
import { HOLES, hole, templateCommits } from './templates.mjs';

/** The tables a commit writes, with the column that names the task. */
const TABLES = [
  ['tasks', 'id'],
  ['task_events', 'task_id'],
  ['idempotency_keys', 'task_id'],
];

/** A client whose search path is the store's schema. */
export async function connect(url, schema) {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

/** Creates the schema through the store (so it migrates it) and captures the templates' rows. */
export async function preparePostgres(url, schema) {
  const store = await openPostgresStore({ connectionString: url, schema });
  const client = await connect(url, schema);
  const templates = [];
  try {
    const columns = new Map();
    for (const [table] of TABLES) {
      const { rows } = await client.query(
        `SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
        [schema, table],
      );
      columns.set(table, rows);
    }
    for (const key of templateKeys()) {
      let version = 0;
      for (const commit of templateCommits(key.state, key.size, key.keyed)) {
        version = await store.commit({ tenant: '', owner: '', expectedVersion: version, ...commit });
      }
      const rows = [];
      for (const [table, column] of TABLES) {
        const cols = columns.get(table);
        const select = cols.map((c) => `${c.column_name}::text AS ${c.column_name}`).join(', ');
        const found = await client.query({
          text: `SELECT ${select} FROM ${table} WHERE ${column} = $1`,
          values: [HOLES.taskId],
          rowMode: 'array',
        });
        for (const values of found.rows)
          rows.push({ table, values: values.map((v, c) => hole(table, cols[c].column_name, v)) });
        await client.query(`DELETE FROM ${table} WHERE ${column} = $1`, [HOLES.taskId]);
      }
      templates.push(rows);
    }
    return { templates, columns };
  } finally {
    await client.end();
    await store.close();
  }
}

/**
 * Adds tasks [from, to); `progress(done)` is told after each statement. Two connections take
 * batches in turn, so this process renders the next batch while PostgreSQL writes the last one.
 */
export async function fillPostgres(url, schema, prepared, from, to, now, progress) {
  const { templates, columns } = prepared;
  const clients = [await connect(url, schema), await connect(url, schema)];
  try {
    // A fill that a crash interrupts is thrown away anyway: no need to wait for each WAL flush.
    for (const client of clients) await client.query('SET synchronous_commit = off');
    const texts = new Map();
    for (const [table, cols] of columns) {
      const arrays = cols.map((c, i) => `$${i + 1}::text[]`).join(', ');
      const names = cols.map((c) => c.column_name);
      const casts = cols.map((c) => `u.${c.column_name}::${c.data_type}`).join(', ');
      texts.set(
        table,
        `INSERT INTO ${table} (${names.join(', ')}) SELECT ${casts} FROM unnest(${arrays}) AS u(${names.join(', ')})`,
      );
    }
    const write = async (client, byTable) => {
      await client.query('BEGIN');
      for (const [table, arrays] of byTable)
        if (arrays[0].length > 0) await client.query(texts.get(table), arrays);
      await client.query('COMMIT');
    };
    const STEP = 5_000;
    const inFlight = [Promise.resolve(), Promise.resolve()];
    let turn = 0;
    for (let a = from; a < to; a += STEP) {
      const b = Math.min(to, a + STEP);
      const byTable = new Map([...columns].map(([table, cols]) => [table, cols.map(() => [])]));
      forEachFilledRow(templates, a, b, now, (row, values) => {
        const arrays = byTable.get(row.table);
        for (let c = 0; c < values.length; c++) arrays[c].push(values[c]);
      });
      await inFlight[turn];
      inFlight[turn] = write(clients[turn], byTable).then(() => progress(b - from));
      turn = 1 - turn;
    }
    await Promise.all(inFlight);
  } finally {
    for (const client of clients) await client.end();
  }
}

/**
 * As settleSqlite (fill-sqlite.mjs): the fill's writes checkpointed to disk, and the indexes a
 * send writes read once (pg_prewarm when the server has it, else an index-only count per index).
 */
export async function settlePostgres(url, schema) {
  const client = await connect(url, schema);
  try {
    await client.query('CHECKPOINT');
    const { rows } = await client.query(
      `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
         JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname IN ('tasks', 'idempotency_keys', 'task_events') AND i.indpred IS NULL`,
      [schema],
    );
    let prewarm = true;
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    } catch {
      prewarm = false;
    }
    for (const { name } of rows) {
      if (prewarm) await client.query('SELECT pg_prewarm($1::regclass)', [name]);
    }
    return prewarm ? 'pg_prewarm' : 'none';
  } finally {
    await client.end();
  }
}
