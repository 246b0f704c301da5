// Filling a SQLite task store directly (bench/scale/stores.mjs): the template tasks go through the
// store's own commit, then their rows are copied per task with better-sqlite3 in big transactions.
//
// During a fill the file is the filler's alone (no server has it open), so it writes with the
// journal off and no syncs, and a cache big enough for the indexes' working set; the file goes back
// to WAL, as the store opens it, before anyone else reads it.

import { closeSync, fsyncSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openSqliteTaskStore } from '../../../dist/store/sqlite/index.js';
import { forEachFilledRow, templateKeys } from './tasks.mjs';
import { HOLES, hole, templateCommits } from './templates.mjs';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3');

/** The tables a commit writes, with the column that names the task. */
const TABLES = [
  ['tasks', 'id'],
  ['task_events', 'task_id'],
  ['idempotency_keys', 'task_id'],
];

/** Creates the file through the store (so it migrates it) and captures the templates' rows. */
export async function prepareSqlite(path) {
  const store = openSqliteTaskStore({ path });
  const raw = new Sqlite(path);
  const templates = [];
  try {
    for (const key of templateKeys()) {
      let version = 0;
      for (const commit of templateCommits(key.state, key.size, key.keyed)) {
        version = await store.commit({ tenant: '', owner: '', expectedVersion: version, ...commit });
      }
      const rows = [];
      for (const [table, column] of TABLES) {
        for (const row of raw.prepare(`SELECT * FROM ${table} WHERE ${column} = ?`).all(HOLES.taskId)) {
          rows.push({
            table,
            columns: Object.keys(row),
            values: Object.entries(row).map(([name, v]) => hole(table, name, v)),
          });
        }
        raw.prepare(`DELETE FROM ${table} WHERE ${column} = ?`).run(HOLES.taskId);
      }
      templates.push(rows);
    }
  } finally {
    raw.close();
    await store.close();
  }
  return templates;
}

/** Adds tasks [from, to) to the file; `progress(done)` is told now and then. */
export function fillSqlite(path, templates, from, to, now, progress) {
  const db = new Sqlite(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -2000000');
    const inserts = new Map();
    const insert = (row) => {
      let statement = inserts.get(row.table + row.columns.length);
      if (statement === undefined) {
        statement = db.prepare(
          `INSERT INTO ${row.table} (${row.columns.join(', ')}) VALUES (${row.columns.map(() => '?').join(', ')})`,
        );
        inserts.set(row.table + row.columns.length, statement);
      }
      return statement;
    };
    const batch = db.transaction((a, b) => {
      forEachFilledRow(templates, a, b, now, (row, values) => insert(row).run(values));
    });
    const STEP = 50_000;
    for (let a = from; a < to; a += STEP) {
      batch(a, Math.min(to, a + STEP));
      progress(Math.min(to, a + STEP) - from);
    }
  } finally {
    db.pragma('journal_mode = WAL');
    db.close();
  }
}

/**
 * Makes a freshly filled file look like one a server has run on for a while, before it is
 * measured: the fill's writes flushed to disk (written with syncs off, gigabytes of them can still
 * be waiting in the page cache, and their writeback would land in the first measurement), and every
 * full index of the tables a send writes read once. The fill appends in key order, so the pages a
 * random task id or context id lands on were never read; a running server has them cached. The
 * table rows themselves are not read: a file larger than memory reads old tasks from disk.
 */
export function settleSqlite(path) {
  const db = new Sqlite(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const indexes = db
      .prepare(
        `SELECT name, tbl_name FROM sqlite_master
          WHERE type = 'index' AND tbl_name IN ('tasks', 'idempotency_keys', 'task_events')
            AND (sql IS NULL OR sql NOT LIKE '%WHERE%')`,
      )
      .all();
    for (const { name, tbl_name: table } of indexes)
      db.prepare(`SELECT count(*) FROM ${table} INDEXED BY ${name}`).get();
    // WITHOUT ROWID tables are their own primary-key index.
    db.prepare('SELECT count(*) FROM idempotency_keys').get();
  } finally {
    db.close();
  }
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
