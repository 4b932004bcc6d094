/**
 * 014: delivering decisions, the same tables on SQLite and PostgreSQL.
 * - `push_configs`: A2A push-notification configs (store/push-config-store.ts), per tenant and
 *   task; `activated` says whether the request that created one activated the extension (§7: only
 *   then does a teach block travel to it).
 * - `delivery_endpoints`: a tenant's delivery webhooks for mail pipelines, with the Standard Webhooks
 *   secret that signs their bodies (store/delivery-endpoint-store.ts).
 * - `delivery_outbox`: every notification owed, written in the transaction that saves the task's
 *   state (store/delivering-task-store.ts), sent after commit and retried until delivered or given
 *   up (delivery/dispatcher.ts). `id` is the delivery's id on the wire (receivers drop duplicates).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_configs')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('auth_scheme', 'text')
    .addColumn('auth_credentials', 'text')
    .addColumn('activated', 'integer', (c) => c.notNull())
    .addColumn('wire_version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_configs_pk', ['tenant', 'task_id', 'id'])
    .execute();
  await db.schema
    .createTable('delivery_endpoints')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // comma-separated: input-required, decided
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('activated', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_endpoints_pk', ['tenant', 'id'])
    .execute();
  await db.schema
    .createTable('delivery_outbox')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('tenant', 'text', (c) => c.notNull())
    // push | webhook
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    // null once delivered or given up: nothing of the mail is kept longer than the task
    .addColumn('body', 'text')
    // pending | delivered | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('due_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    // A task id is unique only within its tenant.
    .addPrimaryKeyConstraint('delivery_outbox_pk', ['tenant', 'id'])
    .execute();
  await db.schema
    .createIndex('delivery_outbox_due_idx')
    .on('delivery_outbox')
    .columns(['state', 'due_ms'])
    .execute();
  await db.schema
    .createIndex('delivery_outbox_target_idx')
    .on('delivery_outbox')
    .columns(['tenant', 'target_kind', 'target_id', 'created_at'])
    .execute();
}
