/**
 * Which database the server and the CLI open: the PostgreSQL server DATABASE_URL names (replicas
 * share it), else the embedded SQLite file under DATA_DIR. Both come back migrated, as one Kysely
 * instance every store is made on; the stores' code is the same for both (dialect.ts holds the
 * differences).
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { DATABASE_FILE_NAME, openDatabase } from './database.ts';
import { engineOf } from './dialect.ts';
import { isPostgresUrl, openPostgres } from './postgres-database.ts';
import { oneCheckPerCall } from './read-validity.ts';

export interface StoreLocation {
  /** DATABASE_URL: a `postgres://` URL, or undefined for SQLite. */
  readonly databaseUrl?: string | undefined;
  /** DATA_DIR, where the SQLite file lives when there is no databaseUrl. */
  readonly dataDir: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
export async function openStore(location: StoreLocation): Promise<Kysely<any>> {
  if (isPostgresUrl(location.databaseUrl)) return await openPostgres({ url: location.databaseUrl });
  return await openDatabase({ file: join(location.dataDir, DATABASE_FILE_NAME) });
}

/** Where the data lives, for a person reading a log line (a PostgreSQL URL without its password). */
export function describeStore(location: StoreLocation): string {
  if (!isPostgresUrl(location.databaseUrl)) return location.dataDir;
  const u = new URL(location.databaseUrl);
  u.password = '';
  return `PostgreSQL ${u.host}${u.pathname}`;
}

/**
 * The database as the server uses it (server.ts `ServerDatabase`): whether replicas share its task
 * rows (PostgreSQL), and the per-request scope in which a remembered read asks once whether another
 * process committed (read-validity.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
export function serverDatabase(db: Kysely<any>) {
  return { db, shared: engineOf(db) === 'postgres', oneCheckPerCall } as const;
}
