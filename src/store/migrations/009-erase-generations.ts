/**
 * 009: erase generations (§14). `erase_generations` counts, per tenant, the erases made
 * on this database. It holds no identifier: a process that did not make an erase (a server while
 * the CLI erased) sees the count move on its next read and forgets what it holds in memory.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('erase_generations')
    .addColumn('tenant', 'text', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
}
