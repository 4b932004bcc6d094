/**
 * Opens the embedded database: one SQLite file (or `:memory:`) through Kysely over better-sqlite3,
 * in WAL mode with a busy timeout, with every migration applied. The one place that knows the
 * SQLite driver; stores receive the Kysely instance.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { migratedOrClosed } from './migrations/index.ts';
import { ensureWritableDir, openFailure } from './writable-dir.ts';

/** How long a writer waits for another process's write lock before giving up, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' (tests). */
  readonly file: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations, not a TS type
export async function openDatabase(options: OpenDatabaseOptions): Promise<Kysely<any>> {
  if (options.file !== ':memory:') ensureWritableDir(options.file);
  const sqlite = openWritable(options.file);
  // WAL + NORMAL survives a killed process (only an OS crash may lose the last commits, never tear one).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // §14: what a write frees (an erased row's old bytes, incinerated mail) is zeroed, not left in
  // free pages; an erase then truncates the WAL (sqlite-erasure.ts). Cost: docs/architecture.md.
  sqlite.pragma('secure_delete = ON');
  // Checkpoints (copying the WAL into the database file, with an fsync) run on a thread of their
  // own, so no request waits for one; this connection only checkpoints if that thread falls far
  // behind. Durability is the WAL's and is unchanged.
  const checkpointer = options.file === ':memory:' ? null : startCheckpointer(options.file);
  if (checkpointer !== null) sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const db = new Kysely<any>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite, () => checkpointer?.stop()) }),
  });
  return await migratedOrClosed(db);
}

/** The SQLite connection in WAL mode, or the project's words when the file cannot be written. */
function openWritable(file: string): Database.Database {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file);
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (e) {
    sqlite?.close();
    throw openFailure(file, e) ?? e;
  }
}

/** Most compiled statements kept per database (the hot queries are a few dozen distinct texts). */
export const STATEMENT_CACHE_SIZE = 200;

/**
 * The database as Kysely sees it, with compiled statements reused by SQL text: Kysely prepares
 * every query afresh, and compiling the same few statements on every request is measurable under
 * load. A statement still running (an unfinished iterate) is never handed out twice.
 */
/** What a ROLLBACK of a transaction SQLite has already rolled back runs: nothing. */
const ALREADY_ROLLED_BACK = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
} as unknown as Database.Statement;

function reusingStatements(sqlite: Database.Database, beforeClose: () => void): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      beforeClose();
      statements.clear();
      sqlite.close();
    },
    prepare(sql) {
      // SQLite has already rolled back a transaction a full disk (SQLITE_FULL) or an I/O error ended;
      // Kysely's own ROLLBACK would then throw "no transaction is active" in place of that error,
      // which the caller must see (domain/storage-fault.ts words it). Issue 16.
      if (sql === 'rollback' && !sqlite.inTransaction) return ALREADY_ROLLED_BACK;
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

/** How often the checkpoint thread copies the WAL into the database file, in ms. */
export const CHECKPOINT_INTERVAL_MS = 250;
/** WAL pages after which the serving connection checkpoints itself (only if the thread is behind). */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** The checkpoint thread's code (plain JS: it runs from the built output too). */
const CHECKPOINTER_JS = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const flag = new Int32Array(workerData.flag);
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next tick or the fallback */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } finally { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); process.exit(0); }
});
`;

/**
 * A worker thread with its own connection that runs PASSIVE checkpoints (never waiting for a lock)
 * every CHECKPOINT_INTERVAL_MS. `stop` closes that connection before the serving one closes (so the
 * last close still folds the WAL into the file), waiting at most a second.
 */
function startCheckpointer(file: string): { stop(): void } {
  const flag = new SharedArrayBuffer(4);
  const worker = new Worker(CHECKPOINTER_JS, {
    eval: true,
    workerData: {
      file,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      flag,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.unref();
  let stopped = false;
  worker.once('error', () => (stopped = true)); // the fallback autocheckpoint takes over
  worker.once('exit', () => (stopped = true));
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
      Atomics.wait(new Int32Array(flag), 0, 0, 1000);
    },
  };
}

/** The one database file under DATA_DIR, shared by the server and the CLI. */
export const DATABASE_FILE_NAME = 'learnables-triage.sqlite';
