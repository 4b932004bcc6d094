// Invariant: replicas starting together on one empty PostgreSQL database migrate it once, one after the other, and come up on the same schema; a bad DATABASE_URL fails with the driver's reason, not a hang.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { engineOf } from './dialect.ts';
import { isPostgresUrl, openPostgres, postgresRoundTrips } from './postgres-database.ts';

describe('openPostgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('migrates once when four processes open an empty database at the same moment', async () => {
    const dbs = await Promise.all([1, 2, 3, 4].map(() => openPostgres({ url: database.url, poolSize: 2 })));
    try {
      const { rows } = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(
        dbs[0]!,
      );
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      expect(engineOf(dbs[0]!)).toBe('postgres');
      const gen = await sql<{ n: number }>`select n from change_generation`.execute(dbs[1]!);
      expect(gen.rows).toHaveLength(1);
      expect(typeof gen.rows[0]!.n).toBe('number'); // int8 comes back as a number, as on SQLite
    } finally {
      await Promise.all(dbs.map((d) => d.destroy()));
    }
  });

  // Issue 41: the bench prints round trips per settled triage from this count (and /metrics shows it).
  it('counts every query a pooled client sends as one round trip, and begin and commit as transaction control', async () => {
    const db = await openPostgres({ url: database.url, poolSize: 2 });
    try {
      const before = postgresRoundTrips();
      await sql`select 1`.execute(db);
      await db.transaction().execute(async (trx) => {
        await sql`select 2`.execute(trx);
        await sql`select 3`.execute(trx);
      });
      const after = postgresRoundTrips();
      expect(after.all - before.all).toBe(5);
      expect(after.transactionControl - before.transactionControl).toBe(2);
    } finally {
      await db.destroy();
    }
  });

  it('fails to open an unreachable server with the reason, instead of waiting', async () => {
    await expect(openPostgres({ url: 'postgres://app@127.0.0.1:1/none' })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('tells a postgres:// URL from anything else', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('./data')).toBe(false);
    expect(isPostgresUrl(undefined)).toBe(false);
  });
});
