/**
 * The ordered list of migrations and their runner. Each migration applies in its own transaction
 * and is recorded in `schema_migrations`; an applied one never runs again. Adding one: write
 * `NNN-name.ts` exporting `up(db)` and append it below (names sort in apply order).
 */
import { sql, type Kysely } from 'kysely';
import * as m001 from './001-definitions.ts';
import * as m002 from './002-corpus.ts';
import * as m003 from './003-agent.ts';
import * as m004 from './004-ingest.ts';
import * as m005 from './005-mark-analyses.ts';
import * as m006 from './006-writer.ts';
import * as m007 from './007-raw-mail-retention.ts';
import * as m008 from './008-webhook-tokens.ts';
import * as m009 from './009-erase-generations.ts';
import * as m010 from './010-replica-changes.ts';
import * as m011 from './011-activation-notify.ts';
import * as m012 from './012-mailbox-leases.ts';
import * as m013 from './013-sender-records.ts';
import * as m014 from './014-delivery.ts';
import * as m015 from './015-task-mail.ts';
import * as m016 from './016-deliveries-notify.ts';
import { advisoryLock } from '../dialect.ts';

export interface Migration {
  readonly name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
  up(db: Kysely<any>): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  { name: '001-definitions', up: m001.up },
  { name: '002-corpus', up: m002.up },
  { name: '003-agent', up: m003.up },
  { name: '004-ingest', up: m004.up },
  { name: '005-mark-analyses', up: m005.up },
  { name: '006-writer', up: m006.up },
  { name: '007-raw-mail-retention', up: m007.up },
  { name: '008-webhook-tokens', up: m008.up },
  { name: '009-erase-generations', up: m009.up },
  { name: '010-replica-changes', up: m010.up },
  { name: '011-activation-notify', up: m011.up },
  { name: '012-mailbox-leases', up: m012.up },
  { name: '013-sender-records', up: m013.up },
  { name: '014-delivery', up: m014.up },
  { name: '015-task-mail', up: m015.up },
  { name: '016-deliveries-notify', up: m016.up },
];

/** The advisory lock every migrating transaction takes on PostgreSQL. */
const MIGRATION_LOCK = 'learnables-triage migrations';

/** Apply every pending migration, in order; returns the names applied. */
export async function migrate(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Migration
  db: Kysely<any>,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<string[]> {
  // Two processes starting on one database migrate one after the other (PostgreSQL: an advisory
  // lock per transaction; SQLite: the write lock its first write takes).
  await db.transaction().execute(async (trx) => {
    await advisoryLock(trx, MIGRATION_LOCK, MIGRATION_LOCK);
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
  });
  const applied: string[] = [];
  for (const m of migrations) {
    // Another process opening the same file may be migrating too: retry after it, then skip what it applied.
    for (let attempt = 1; ; attempt++) {
      try {
        const done = await db.transaction().execute(async (trx) => {
          // A write first, so the transaction holds the write lock before it reads (SQLite).
          await advisoryLock(trx, MIGRATION_LOCK, MIGRATION_LOCK);
          await sql`update schema_migrations set name = name where name = ${m.name}`.execute(trx);
          const row = await trx
            .selectFrom('schema_migrations')
            .select('name')
            .where('name', '=', m.name)
            .executeTakeFirst();
          if (row !== undefined) return false;
          await m.up(trx);
          await trx
            .insertInto('schema_migrations')
            .values({ name: m.name, applied_at: new Date().toISOString() })
            .execute();
          return true;
        });
        if (done) applied.push(m.name);
        break;
      } catch (e) {
        if (attempt >= 5) throw e;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  }
  return applied;
}

/** `db` with every pending migration applied; destroyed (and the failure rethrown) when one fails. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Migration
export async function migratedOrClosed(db: Kysely<any>): Promise<Kysely<any>> {
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return db;
}
