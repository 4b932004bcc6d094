/**
 * 010: on PostgreSQL, what replicas sharing the database tell each other. First, a change
 * generation for remembered reads (read-validity.ts). One row whose
 * counter every statement writing tokens, activations, objects, tombstones or people increments, in
 * the writer's own transaction: a replica that sees an unchanged counter knows its remembered
 * tokens, heads and handles still hold, exactly as SQLite's `data_version` tells it for one file.
 * The counter moves only when the write commits (a sequence would move before), so a read never
 * remembers a value under a generation that does not include it. Second, `erase_generation`: one
 * counter per tenant that every §14 erase moves (postgres-change-feed.ts), so every replica drops
 * the caches that may hold the erased identifier; it holds no identifier itself. SQLite (one
 * process serving a file) needs neither.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

/** The tables whose rows a remembered read depends on. */
export const WATCHED_TABLES = ['tokens', 'activations', 'objects', 'tombstones', 'people'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`create table change_generation (id integer primary key check (id = 1), n bigint not null)`.execute(
    db,
  );
  await sql`insert into change_generation (id, n) values (1, 0)`.execute(db);
  await sql
    .raw(
      `create function bump_change_generation() returns trigger language plpgsql as $$
       begin update change_generation set n = n + 1 where id = 1; return null; end $$`,
    )
    .execute(db);
  await sql`create table erase_generation (tenant text primary key, n bigint not null)`.execute(db);
  for (const table of WATCHED_TABLES) {
    await sql
      .raw(
        `create trigger ${table}_change_generation after insert or update or delete on ${table} ` +
          `for each statement execute function bump_change_generation()`,
      )
      .execute(db);
  }
}
