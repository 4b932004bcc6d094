/**
 * The engines every store contract suite runs against (Kysely's habit: one suite, every dialect):
 * `describe.each(STORE_ENGINES)('$name …', ({ name }) => { const stores = useStoreEngine(name); … })`.
 * `fresh()` gives an empty, migrated store for the test; `connect()` another connection to the same
 * one (on SQLite the same file, like a second process; on PostgreSQL another pool, like another
 * replica). SQLite files live in a temporary directory per test; on PostgreSQL each test file gets a
 * database of its own on the run's cluster (postgres.ts), emptied before every test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import { openPostgres } from '../../src/store/postgres-database.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

export type EngineName = 'SQLite' | 'PostgreSQL';
export const STORE_ENGINES: readonly { readonly name: EngineName }[] = [
  { name: 'SQLite' },
  { name: 'PostgreSQL' },
];

/** Tables kept when a PostgreSQL test database is emptied (the schema's own bookkeeping). */
const KEPT_TABLES = new Set(['schema_migrations', 'a2a_tasks_migrations', 'change_generation']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
type Db = Kysely<any>;

export interface StoreEngine {
  /** An empty, migrated store for this test. */
  fresh(): Promise<Db>;
  /** Another connection to the store `fresh()` gave (another process, another replica). */
  connect(): Promise<Db>;
}

export function useStoreEngine(name: EngineName): StoreEngine {
  const open: Db[] = [];
  let dir: string | null = null;
  let database: TestDatabase | null = null;
  if (name === 'PostgreSQL') {
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });
  }
  afterEach(async () => {
    while (open.length > 0) await open.pop()!.destroy();
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  const connect = async (): Promise<Db> => {
    const db =
      name === 'SQLite'
        ? await openDatabase({ file: join(dir!, 'store.sqlite') })
        : await openPostgres({ url: database!.url, poolSize: 4 });
    open.push(db);
    return db;
  };
  return {
    async fresh() {
      if (name === 'SQLite') {
        dir = mkdtempSync(join(tmpdir(), 'lt-store-'));
        return await connect();
      }
      const db = await connect();
      const { rows } = await sql<{ tablename: string }>`
        select tablename from pg_tables where schemaname = current_schema()`.execute(db);
      const tables = rows.map((r) => r.tablename).filter((t) => !KEPT_TABLES.has(t));
      if (tables.length > 0)
        await sql.raw(`truncate ${tables.map((t) => `"${t}"`).join(', ')} restart identity`).execute(db);
      return db;
    },
    connect,
  };
}
