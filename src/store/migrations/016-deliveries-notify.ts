/**
 * 016: on PostgreSQL, a delivery owed (a row into `delivery_outbox`, from whichever replica saved
 * the task) sends a NOTIFY on `learnables_deliveries_owed` from the writer's own transaction, so it
 * is delivered only when that transaction commits. Every replica's change feed listens
 * (postgres-change-feed.ts) and wakes its dispatcher, instead of hearing of it on its next poll.
 * The payload is the tenant; PostgreSQL folds identical notices of one transaction into one, so a
 * task owing a push and a webhook sends one. SQLite (processes on one file) keeps the poll.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

/** The NOTIFY channel of owed deliveries (the listener's side names it too). */
export const DELIVERIES_CHANNEL = 'learnables_deliveries_owed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql
    .raw(
      `create function notify_deliveries_owed() returns trigger language plpgsql as $$
       begin
         perform pg_notify('${DELIVERIES_CHANNEL}', new.tenant);
         return null;
       end $$`,
    )
    .execute(db);
  await sql`create trigger delivery_outbox_notify after insert on delivery_outbox
    for each row execute function notify_deliveries_owed()`.execute(db);
}
