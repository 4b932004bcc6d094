/**
 * 002: the corpus (§13.1). One row per (tenant, message key): the parsed evidence as JSON, the last
 * reading summary, and two search helpers: the sender address and a case-folded haystack of the
 * message's parts, so suggestions and dry runs can prefilter before confirming with re2.
 */
import type { Kysely } from 'kysely';
import { autoIncrementingKey } from '../dialect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('corpus_messages')
    .addColumn('seq', autoIncrementingKey(db), (c) =>
      autoIncrementingKey(db) === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('from_address', 'text')
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('reading', 'text')
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('haystack', 'text', (c) => c.notNull())
    .addUniqueConstraint('corpus_messages_tenant_key', ['tenant', 'key'])
    .execute();
  await db.schema
    .createIndex('corpus_messages_message_id')
    .on('corpus_messages')
    .columns(['tenant', 'message_id'])
    .execute();
  await db.schema
    .createIndex('corpus_messages_task_id')
    .on('corpus_messages')
    .columns(['tenant', 'task_id'])
    .execute();
  await db.schema
    .createIndex('corpus_messages_from')
    .on('corpus_messages')
    .columns(['tenant', 'from_address'])
    .execute();
  await db.schema
    .createIndex('corpus_messages_seen_at')
    .on('corpus_messages')
    .columns(['tenant', 'seen_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('corpus_messages').execute();
}
