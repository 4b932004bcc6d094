// Invariant: reusing compiled statements by SQL text changes no result, and checkpointing on a thread of its own loses no committed write: the WAL is folded into the file while the server runs and at close.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, STATEMENT_CACHE_SIZE } from './database.ts';

describe('openDatabase statement reuse', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;
  beforeEach(async () => {
    db = await openDatabase({ file: ':memory:' });
    await sql`create table t (k text primary key, v integer)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
  });

  it('binds each run’s own parameters to the same statement text', async () => {
    for (let i = 0; i < 5; i++)
      await db
        .insertInto('t')
        .values({ k: `k${i}`, v: i })
        .execute();
    for (let i = 0; i < 5; i++) {
      const row = await db.selectFrom('t').selectAll().where('k', '=', `k${i}`).executeTakeFirst();
      expect(row).toEqual({ k: `k${i}`, v: i });
    }
    const missing = await db.selectFrom('t').selectAll().where('k', '=', 'nope').executeTakeFirst();
    expect(missing).toBeUndefined();
  });

  it('reads a column added after the statement was first compiled', async () => {
    await db.insertInto('t').values({ k: 'a', v: 1 }).execute();
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ k: 'a', v: 1 }]);
    await sql`alter table t add column w text default 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ k: 'a', v: 1, w: 'x' }]);
  });

  it('keeps working past the cache bound (old statements are dropped, not broken)', async () => {
    for (let i = 0; i < STATEMENT_CACHE_SIZE + 10; i++) {
      const rows = await sql<{ n: number }>`select ${sql.raw(String(i))} as n`.execute(db);
      expect(rows.rows).toEqual([{ n: i }]);
    }
    expect((await sql<{ n: number }>`select 0 as n`.execute(db)).rows).toEqual([{ n: 0 }]);
  });

  it('streams a query while it is not handed out to anyone else', async () => {
    for (let i = 0; i < 3; i++)
      await db
        .insertInto('t')
        .values({ k: `k${i}`, v: i })
        .execute();
    const seen: number[] = [];
    for await (const row of db.selectFrom('t').select('v').orderBy('v').stream()) seen.push(row.v as number);
    expect(seen).toEqual([0, 1, 2]);
    expect(await db.selectFrom('t').select('v').orderBy('v').execute()).toEqual([
      { v: 0 },
      { v: 1 },
      { v: 2 },
    ]);
  });
});

describe('openDatabase on a file: checkpoints off the serving thread', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lt-db-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds committed writes into the database file while open, and the whole WAL at close', async () => {
    const file = join(dir, 'x.sqlite');
    const db = await openDatabase({ file });
    await sql`create table t (k integer primary key, v text)`.execute(db);
    const before = statSync(file).size;
    for (let i = 0; i < 300; i++)
      await db
        .insertInto('t')
        .values({ k: i, v: 'x'.repeat(4000) })
        .execute();
    // Only a checkpoint writes the database file itself; this connection is set not to until far later.
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 300 * 4000), {
      timeout: 10_000,
      interval: 50,
    });
    await db.destroy();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = await openDatabase({ file });
    const n = await again
      .selectFrom('t')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(300);
    await again.destroy();
  });
});
