/**
 * 011: on PostgreSQL, every new activation (a lesson, a rollback, an import, the CLI's copy into
 * PostgreSQL: whoever writes the row) sends a NOTIFY on `learnables_activated` from the writer's own
 * transaction, so it is delivered only when that transaction commits. The payload names the tenant,
 * the definitionVersion and the versionId (no lesson value, §9), a few dozen bytes, far below
 * PostgreSQL's 8,000-byte limit. Replicas listen (postgres-change-feed.ts): they drop the tenant's
 * remembered head and compile the new version's matcher before the next task asks for it. SQLite
 * (processes on one file) has no notifications: its `data_version` check stays the mechanism.
 *
 * Also one erase counter on both engines: migration 010's PostgreSQL-only `erase_generation` goes,
 * and `erase_generations` (009, what the CLI and every server already count erases in) moves the
 * change generation, so a server's per-read erase watch (erase-generation.ts) sees another
 * process's erase on PostgreSQL exactly as it does on SQLite; the NOTIFY on `learnables_erased`
 * is the push over the same counter.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

/** The NOTIFY channel of new activations (the listener's side names it too). */
export const ACTIVATION_CHANNEL = 'learnables_activated';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql
    .raw(
      `create function notify_activation() returns trigger language plpgsql as $$
       begin
         perform pg_notify('${ACTIVATION_CHANNEL}', json_build_object(
           'tenant', new.tenant, 'definitionVersion', new.definition_version, 'versionId', new.version_id)::text);
         return null;
       end $$`,
    )
    .execute(db);
  await sql`create trigger activations_notify after insert on activations
    for each row execute function notify_activation()`.execute(db);
  await sql`create trigger erase_generations_change_generation after insert or update or delete
    on erase_generations for each statement execute function bump_change_generation()`.execute(db);
  await sql`drop table erase_generation`.execute(db);
}
