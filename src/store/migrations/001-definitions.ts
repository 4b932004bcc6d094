/**
 * 001: definitions (§10.3, §13.4, §14). Content-addressed objects shared between versions, the
 * append-only activation history (its (tenant, definition_version) primary key is what makes a lost
 * update impossible), tombstoned versions, and people (stable internal ids behind `taughtBy`).
 * Every table is scoped by tenant. Plain column types so a PostgreSQL store can reuse the shape.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('objects')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    // null once tombstoned (§14): the id remains, the content is gone
    .addColumn('body', 'text')
    .addPrimaryKeyConstraint('objects_pk', ['tenant', 'hash'])
    .execute();

  await db.schema
    .createTable('activations')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('definition_version', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('previous_version_id', 'text')
    .addColumn('taught_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('describes', 'text', (c) => c.notNull())
    .addColumn('collection', 'text')
    .addColumn('entry', 'text')
    .addColumn('value', 'text')
    .addColumn('target', 'integer')
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('activations_pk', ['tenant', 'definition_version'])
    .execute();
  await db.schema
    .createIndex('activations_version_idx')
    .on('activations')
    .columns(['tenant', 'version_id'])
    .execute();

  await db.schema
    .createTable('tombstones')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tombstones_pk', ['tenant', 'version_id'])
    .execute();

  await db.schema
    .createTable('people')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    // null once forgotten (§14)
    .addColumn('handle', 'text')
    // lower-cased, trimmed handle for lookups; null once forgotten
    .addColumn('handle_key', 'text')
    .addPrimaryKeyConstraint('people_pk', ['tenant', 'id'])
    .execute();
  await db.schema
    .createIndex('people_handle_idx')
    .on('people')
    .columns(['tenant', 'handle_key'])
    .unique()
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('people').execute();
  await db.schema.dropTable('tombstones').execute();
  await db.schema.dropTable('activations').execute();
  await db.schema.dropTable('objects').execute();
}
