/**
 * Opens the embedded database: one SQLite file (or `:memory:`) through Kysely over better-sqlite3,
 * in WAL mode with a busy timeout, with every migration applied. The one place that knows the
 * SQLite driver; stores receive the Kysely instance.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { migrate } from './migrations/index.ts';

/** How long a writer waits for another process's write lock before giving up, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' (tests). */
  readonly file: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations, not a TS type
export async function openDatabase(options: OpenDatabaseOptions): Promise<Kysely<any>> {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const sqlite = new Database(options.file);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('journal_mode = WAL');
  // WAL + NORMAL survives a killed process (only an OS crash may lose the last commits, never tear one).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return db;
}

/** Most compiled statements kept per database (the hot queries are a few dozen distinct texts). */
export const STATEMENT_CACHE_SIZE = 200;

/**
 * The database as Kysely sees it, with compiled statements reused by SQL text: Kysely prepares
 * every query afresh, and compiling the same few statements on every request is measurable under
 * load. A statement still running (an unfinished iterate) is never handed out twice.
 */
function reusingStatements(sqlite: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql) {
      const held = statements.get(sql);
      if (held !== undefined && !held.busy) {
        statements.delete(sql); // re-insert: Map order is recency order
        statements.set(sql, held);
        return held;
      }
      const statement = sqlite.prepare(sql);
      if (held === undefined) {
        statements.set(sql, statement);
        if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}

/** The one database file under DATA_DIR, shared by the server and the CLI. */
export const DATABASE_FILE_NAME = 'learnables-triage.sqlite';
