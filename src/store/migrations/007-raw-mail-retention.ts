/**
 * 007: raw mail is not kept forever (§14, RAW_MAIL_RETENTION_DAYS). A corpus row gains
 * `text_discarded_at` (when its message text was incinerated; the row keeps the content hash, the
 * reading and the provenance) and `outcome` (what a task parked in input-required needs to be
 * answered on its pinned version once the mail's text is gone: the reading and its questions).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('corpus_messages').addColumn('text_discarded_at', 'text').execute();
  await db.schema.alterTable('corpus_messages').addColumn('outcome', 'text').execute();
}
