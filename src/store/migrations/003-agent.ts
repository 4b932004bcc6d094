/**
 * 003: the A2A agent's durable tasks. The `tasks` table is exactly the schema of @a2a-js/sdk 1.3's
 * DatabaseTaskStore, rendered once with `npx a2a-db upgrade --sql --dialect sqlite --store tasks`
 * and embedded here, with its PostgreSQL rendering beside it (the SDK has no migration API; its CLI
 * is the only runner). The SDK's own ledger
 * row is written too, so `a2a-db status` agrees with the schema. A task parked in input-required
 * lives here, so it survives a restart and resumes on its pinned version (§10.3).
 *
 * Push-notification configs are not the SDK's table: 014-delivery.ts keeps them with the outbox.
 * Bearer tokens (§13.2) are appended below by their owner.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

/** Rendered by `a2a-db upgrade --sql --dialect sqlite --store tasks` (@a2a-js/sdk 1.3.0). */
const A2A_TASKS_SQL = [
  `create table if not exists "a2a_tasks_migrations" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)`,
  `create table "tasks" ("tenant" varchar(255) collate binary not null, "owner" varchar(255) collate binary not null, "id" varchar(36) collate binary not null, "context_id" varchar(36) collate binary not null, "status_last_updated" bigint not null, "status_state" varchar(255) collate binary, "status" text, "artifacts" text, "history" text, "metadata" text, "protocol_version" varchar(255), constraint "tasks_pkey" primary key ("tenant", "owner", "id"))`,
  `create index "tasks_scope_updated_idx" on "tasks" ("tenant", "owner", "status_last_updated", "id")`,
  `create index "tasks_scope_context_updated_idx" on "tasks" ("tenant", "owner", "context_id", "status_last_updated", "id")`,
  `insert into "a2a_tasks_migrations" ("name", "timestamp") values ('0001_create_tasks', '2026-01-01T00:00:00.000Z')`,
] as const;

/** Rendered by `a2a-db upgrade --sql --dialect postgres --store tasks` (@a2a-js/sdk 1.3.0). */
const A2A_TASKS_POSTGRES_SQL = [
  `create table if not exists "a2a_tasks_migrations" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)`,
  `create table "tasks" ("tenant" varchar(255) collate "C" not null, "owner" varchar(255) collate "C" not null, "id" varchar(36) collate "C" not null, "context_id" varchar(36) collate "C" not null, "status_last_updated" bigint not null, "status_state" varchar(255) collate "C", "status" text, "artifacts" text, "history" text, "metadata" text, "protocol_version" varchar(255), constraint "tasks_pkey" primary key ("tenant", "owner", "id"))`,
  `create index "tasks_scope_updated_idx" on "tasks" ("tenant", "owner", "status_last_updated", "id")`,
  `create index "tasks_scope_context_updated_idx" on "tasks" ("tenant", "owner", "context_id", "status_last_updated", "id")`,
  `insert into "a2a_tasks_migrations" ("name", "timestamp") values ('0001_create_tasks', '2026-01-01T00:00:00.000Z')`,
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  const statements = engineOf(db) === 'postgres' ? A2A_TASKS_POSTGRES_SQL : A2A_TASKS_SQL;
  for (const statement of statements) await sql.raw(statement).execute(db);
  await upTokens(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`drop table if exists "tokens"`).execute(db);
  await sql.raw(`drop table if exists "tasks"`).execute(db);
  await sql.raw(`drop table if exists "a2a_tasks_migrations"`).execute(db);
}

/**
 * Bearer tokens (§13.2), owned by src/store/sqlite-token-store.ts. Only the sha256 of a token is
 * stored; `id` is its public handle (`tokens list`, `tokens revoke`). Each token is bound to one
 * tenant and one principal (a person or an application) with a comma-separated list of roles.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function upTokens(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('tokens_tenant_idx').on('tokens').columns(['tenant', 'created_at']).execute();
}
