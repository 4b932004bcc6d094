/**
 * 008: spent Mailgun signatures survive a restart (issue 12.5). `webhook_tokens` keeps, per
 * tenant, the sha256 of each Mailgun token a verified post spent, until its timestamp leaves the
 * replay window (`expires_at_ms`); the token itself is not kept.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_tokens')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'integer', (c) => c.notNull())
    .addColumn('first_seen_ms', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_tokens_pk', ['tenant', 'token_hash'])
    .execute();
  await db.schema
    .createIndex('webhook_tokens_expiry')
    .on('webhook_tokens')
    .columns(['tenant', 'expires_at_ms'])
    .execute();
}
