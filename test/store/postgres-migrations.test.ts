/**
 * PostgreSQL schema migrations (decision 0101): several instances starting at once on a new schema
 * all start, and the migrations ran once; a schema from a newer Concord is refused; a store opened
 * without migrating refuses an old schema with the command to run; connection failures say where
 * without the password.
 */
import { describe, expect, it } from 'vitest';
import {
  DatabaseConnectionError,
  MIGRATIONS_TABLE,
  migratePostgres,
  openPostgresStore,
  POSTGRES_SCHEMA_VERSION,
  redactDatabaseUrl,
  SchemaVersionError,
} from '../../src/store/postgres/internal.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL, withTestClient } from '../helpers/postgres.js';
import { ANON, createCommit, makeTask } from './suite/fixtures.js';

describe.skipIf(POSTGRES_URL === undefined)(`PostgreSQL migrations${POSTGRES_SKIP_NOTE}`, () => {
  it('runs the migrations once when several migrators and stores start together', async () => {
    const schema = freshSchema();
    const url = POSTGRES_URL!;
    const [migrations, stores] = await Promise.all([
      Promise.all(Array.from({ length: 3 }, () => migratePostgres({ connectionString: url, schema }))),
      Promise.all(
        Array.from({ length: 3 }, () => openPostgresStore({ connectionString: url, schema, poolSize: 2 })),
      ),
    ]);
    try {
      // One of the six found the schema empty; the others found it done.
      expect(migrations.filter((m) => m.from === 0).length).toBeLessThanOrEqual(1);
      for (const m of migrations) expect(m).toMatchObject({ schema, to: POSTGRES_SCHEMA_VERSION });
      const rows = await withTestClient(async (client) => {
        const result = await client.query<{ version: number }>(
          `SELECT version FROM ${schema}.${MIGRATIONS_TABLE} ORDER BY version`,
        );
        return result.rows.map((r) => r.version);
      });
      expect(rows).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
      // Every store works on the one schema.
      await stores[0]!.commit(createCommit(makeTask('t1')));
      expect((await stores[2]!.get('t1', ANON))?.version).toBe(1);
      // Migrating again is a no-op.
      expect(await migratePostgres({ connectionString: url, schema })).toEqual({
        schema,
        from: POSTGRES_SCHEMA_VERSION,
        to: POSTGRES_SCHEMA_VERSION,
      });
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('refuses a schema written by a newer Concord, leaving it untouched', async () => {
    const schema = freshSchema();
    await migratePostgres({ connectionString: POSTGRES_URL!, schema });
    await withTestClient((c) =>
      c.query(`INSERT INTO ${schema}.${MIGRATIONS_TABLE} (version) VALUES (${POSTGRES_SCHEMA_VERSION + 1})`),
    );
    const error = await openPostgresStore({ connectionString: POSTGRES_URL!, schema }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchemaVersionError);
    expect((error as Error).message).toMatch(/newer than this Concord supports/);
  });

  it('with migrate: false, refuses a schema that is not up to date and names the command', async () => {
    const schema = freshSchema();
    const error = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, migrate: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchemaVersionError);
    expect((error as Error).message).toMatch(/version 0.*concord db migrate/);
    await migratePostgres({ connectionString: POSTGRES_URL!, schema });
    const store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, migrate: false });
    await store.close();
  });

  it('rolls a failed migration back whole', async () => {
    const schema = freshSchema();
    // A table in the way of migration 1: it fails halfway, and nothing of it stays.
    await withTestClient(async (c) => {
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.query(`CREATE TABLE ${schema}.push_outbox (x integer)`);
    });
    await expect(migratePostgres({ connectionString: POSTGRES_URL!, schema })).rejects.toThrow(/push_outbox/);
    const tables = await withTestClient(async (c) => {
      const r = await c.query<{ tablename: string }>(
        'SELECT tablename FROM pg_tables WHERE schemaname = $1',
        [schema],
      );
      return r.rows.map((row) => row.tablename);
    });
    expect(tables).toEqual(['push_outbox']);
  });
});

describe('PostgreSQL connection errors', () => {
  it('never echoes the password of the URL', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db.example:5432/concord')).toBe(
      'postgres://app:***@db.example:5432/concord',
    );
    expect(redactDatabaseUrl('postgres://db.example/concord?password=s3cret&sslmode=require')).toBe(
      'postgres://db.example/concord?password=***&sslmode=require',
    );
    expect(redactDatabaseUrl('host=db password=s3cret')).not.toContain('s3cret');
  });

  it('reports an unreachable database with the redacted URL', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const error = await openPostgresStore({
      connectionString: 'postgres://app:s3cret@127.0.0.1:1/concord',
      connectTimeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConnectionError);
    expect((error as Error).message).toMatch(
      /cannot connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/concord: .*ECONNREFUSED/,
    );
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('refuses a schema name it could not write into SQL as is', async () => {
    await expect(
      openPostgresStore({ connectionString: 'postgres://x@127.0.0.1:1/y', schema: 'a; DROP' }),
    ).rejects.toThrow(/postgres schema/);
  });
});
