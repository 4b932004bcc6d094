/**
 * 015: a task's raw mail outside the SDK's task row. `task_mail` holds the bytes of
 * each large file part a task was given, once, by tenant, task and content hash; the part in the
 * task row keeps its name, type and size and refers to it (store/task-mail-blobs.ts). Erase and
 * retention reach it through the task (store/sqlite-task-mail.ts); copy-to-postgres copies it as
 * it copies every table. Bytes are `blob` on SQLite, `bytea` on PostgreSQL.
 */
import type { Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_mail')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', engineOf(db) === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_mail_pk', ['tenant', 'task_id', 'sha256'])
    .execute();
}
