/**
 * 012: `mailbox_leases`, one row per (tenant, mailbox): which replica polls that IMAP mailbox and
 * until when (src/store/mailbox-lease-store.ts). The same table on SQLite and PostgreSQL.
 * (011 is another change's number.)
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mailbox_leases')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('mailbox', 'text', (c) => c.notNull())
    // the replica's id, unique per process start (src/compose-mail.ts)
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('lease_until_ms', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mailbox_leases_pk', ['tenant', 'mailbox'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailbox_leases').execute();
}
