/**
 * 005: kept regex analyses (src/domain/matching/mark-analysis.ts), one row per (tenant, analyser
 * version, mark source), so a compile after a restart reads them instead of analysing every mark.
 * A derived cache: deleting rows only costs time. §14 erase deletes the tenant's rows (a source may
 * hold the erased identifier).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mark_analyses')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('analyser', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('analysis', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mark_analyses_pk', ['tenant', 'analyser', 'source'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mark_analyses').execute();
}
