/**
 * 004: ingest bookkeeping. `ingest_mailboxes` keeps each IMAP poller's place (UIDVALIDITY, last UID);
 * `ingest_claims` is the dedupe ledger, one row per (tenant, Message-ID or content hash), so a message
 * arriving by two paths (mailbox and webhook, a retried webhook) is triaged once.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ingest_mailboxes')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('mailbox', 'text', (c) => c.notNull())
    .addColumn('uid_validity', 'text', (c) => c.notNull())
    .addColumn('last_uid', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_mailboxes_pk', ['tenant', 'mailbox'])
    .execute();

  await db.schema
    .createTable('ingest_claims')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    // 'pending' while a submitter holds the claim, 'done' once the task exists
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('lease_until_ms', 'bigint', (c) => c.notNull())
    .addColumn('source_kind', 'text', (c) => c.notNull())
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('task_state', 'text')
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addPrimaryKeyConstraint('ingest_claims_pk', ['tenant', 'dedupe_key'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ingest_claims').execute();
  await db.schema.dropTable('ingest_mailboxes').execute();
}
