/**
 * 006: the writer of every activation (§13.2, §13.4): the authenticated principal that wrote it,
 * beside `taught_by` (who it says taught it). Rows written before this migration did not record a
 * writer; they are marked `writer_kind = 'unknown'`, `writer_principal = '[unknown]'`, so nobody
 * mistakes an old row's claim for an authenticated one.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('activations')
    .addColumn('writer_principal', 'text', (c) => c.notNull().defaultTo('[unknown]'))
    .execute();
  await db.schema
    .alterTable('activations')
    .addColumn('writer_kind', 'text', (c) => c.notNull().defaultTo('unknown'))
    .execute();
  await db.schema.alterTable('activations').addColumn('writer_token_id', 'text').execute();
}
