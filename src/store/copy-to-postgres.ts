/**
 * Moves an embedded SQLite data directory into PostgreSQL: every table the migrations made, row for
 * row, so the history, versionIds, people, tokens, tasks and their pins, the corpus and the ingest
 * ledger read the same on the new engine. Both sides are brought to the latest migration first (the
 * same list), so their tables and columns agree; a table or column the target lacks is refused
 * before anything is written. All SQLite reads run in one read transaction (one snapshot) and all
 * PostgreSQL writes in one transaction: the target gets everything or nothing.
 *
 * Deliberately not: merging into a database that already holds data (refused, naming the table),
 * or copying while a server writes the SQLite file (the CLI says to stop it first).
 */
import { sql, type Kysely } from 'kysely';
import { DomainError } from '../domain/errors.ts';

/** Tables the migrations keep for themselves: each side has its own. */
const BOOKKEEPING = new Set([
  'schema_migrations',
  'a2a_tasks_migrations',
  'change_generation',
  'sqlite_sequence',
]);
/**
 * Tables PostgreSQL rebuilds from the rows copied: the senders' track record, which
 * migration 013's trigger counts as the corpus rows go in.
 */
const DERIVED = new Set(['sender_records']);
/** Rows read and inserted per batch (kept well under PostgreSQL's 65,535 parameters). */
const BATCH_ROWS = 200;

export interface CopyReport {
  /** Rows copied per table, in copy order. */
  readonly tables: ReadonlyMap<string, number>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- both schemas are defined by the migrations
type Db = Kysely<any>;

async function sqliteTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' order by name`.execute(db);
  return rows
    .map((r) => r.name)
    .filter((n) => !BOOKKEEPING.has(n) && !DERIVED.has(n) && !n.startsWith('sqlite_'));
}

async function columnsOf(db: Db, table: string, engine: 'sqlite' | 'postgres'): Promise<string[]> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return rows.map((r) => r.column_name);
}

/** Copies every row of `from` (SQLite) into `to` (PostgreSQL, empty). */
export async function copySqliteToPostgres(from: Db, to: Db): Promise<CopyReport> {
  const tables = await sqliteTables(from);
  const plan: { table: string; columns: string[] }[] = [];
  for (const table of tables) {
    const columns = await columnsOf(from, table, 'sqlite');
    const target = new Set(await columnsOf(to, table, 'postgres'));
    if (target.size === 0) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        `The PostgreSQL database has no table "${table}", which the SQLite file has; run this version of learnables-triage against both (its migrations make the same tables), then try again.`,
      );
    }
    const missing = columns.filter((c) => !target.has(c));
    if (missing.length > 0) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        `The PostgreSQL table "${table}" lacks the column(s) ${missing.join(', ')} the SQLite file has; upgrade both to the same version first.`,
      );
    }
    const held = await to
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    if (Number(held.n) > 0) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        `The PostgreSQL database already holds data (${String(held.n)} row(s) in "${table}"); migrate into an empty database (createdb a new one), so nothing is merged by accident.`,
      );
    }
    plan.push({ table, columns });
  }
  const copied = new Map<string, number>();
  await from.transaction().execute(async (reading) => {
    await to.transaction().execute(async (writing) => {
      for (const { table, columns } of plan) {
        let after = 0;
        let n = 0;
        for (;;) {
          const { rows } = await sql<Record<string, unknown> & { __rowid: number }>`
            select rowid as __rowid, ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
            where rowid > ${after} order by rowid limit ${BATCH_ROWS}`.execute(reading);
          if (rows.length === 0) break;
          after = rows[rows.length - 1]!.__rowid;
          await writing
            .insertInto(table)
            .values(rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null]))))
            .execute();
          n += rows.length;
        }
        copied.set(table, n);
        await resetSequences(writing, table);
      }
    });
  });
  return { tables: copied };
}

/** A self-numbering column (corpus_messages.seq) continues after the highest copied value. */
async function resetSequences(db: Db, table: string): Promise<void> {
  const { rows } = await sql<{ column_name: string; seq: string | null }>`
    select column_name, pg_get_serial_sequence(${table}, column_name) as seq
    from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(
    db,
  );
  for (const r of rows) {
    if (r.seq === null) continue;
    await sql`select setval(${r.seq}::regclass, coalesce((select max(${sql.ref(r.column_name)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db,
    );
  }
}
