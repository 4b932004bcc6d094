/**
 * Where SQLite and PostgreSQL differ, in one place: every store writes the same Kysely code and asks
 * here for the few things the engines spell differently (a substring test, a per-tenant write lock,
 * which failure means "another writer got there first", the migrations' column types).
 *
 * Deliberately not here: opening connections (database.ts, postgres-database.ts) or any query a
 * store owns.
 */
import { PostgresAdapter, sql, type Expression, type QueryExecutorProvider, type SqlBool } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** Which engine a Kysely instance (or transaction: anything with an executor) talks to. */
export function engineOf(db: QueryExecutorProvider): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** `haystack` contains `needle` (both already case-folded by the caller). */
export function contains(db: QueryExecutorProvider, haystack: string, needle: string): Expression<SqlBool> {
  return engineOf(db) === 'postgres'
    ? sql<SqlBool>`strpos(${sql.ref(haystack)}, ${needle}) > 0`
    : sql<SqlBool>`instr(${sql.ref(haystack)}, ${needle}) > 0`;
}

/**
 * Inside a write transaction, waits until no other transaction holds (scope, key): §10.2 lessons
 * for one tenant commit one after another on every replica, two processes migrate one after the
 * other. On PostgreSQL a transaction-scoped advisory lock on the hashes (released by the commit);
 * SQLite's first write already takes the file's one write lock, so there it is nothing.
 */
export async function advisoryLock(trx: QueryExecutorProvider, scope: string, key: string): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`.execute(trx);
}

/**
 * The failure means another writer holds or took what this one needed, so the caller may retry
 * from a fresh read: SQLite's busy, PostgreSQL's serialization failure or deadlock (40001, 40P01).
 */
export function isWriteConflict(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code === '40001' || code === '40P01';
}

/** The migrations' self-numbering key column: SQLite's rowid alias, PostgreSQL's bigserial. */
export function autoIncrementingKey(db: QueryExecutorProvider): 'integer' | 'bigserial' {
  return engineOf(db) === 'postgres' ? 'bigserial' : 'integer';
}
