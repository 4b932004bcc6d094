/**
 * Reads the definition version a task was pinned to (§10.3) from the SDK's `tasks` table, so "which
 * rules were in force when task X was decided" is answered from stored state (§13.4).
 *
 * The pin lives in the task's metadata under the extension URI: `{ pin: { definitionVersion, versionId } }`.
 * Tenant scope: a row belongs to the tenant when the SDK's `tenant` column is the tenant, or its
 * `owner` is scoped as `<tenant>/<principal>`; another tenant's task is simply not found.
 *
 * Deliberately does not: write tasks (the SDK's DatabaseTaskStore does).
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { VersionId } from '../domain/definitions/index.ts';
import { EXTENSION_URI } from '../domain/extension.ts';
import { isPlainObject } from '../domain/json.ts';
import type { TenantId } from '../domain/tenant.ts';

export interface StoredTaskPin {
  readonly definitionVersion: number;
  readonly versionId: VersionId;
}

export interface SqliteTaskPins {
  /** The task's pin, or null when the tenant has no such task or it was never pinned. */
  pinOf(tenant: TenantId, taskId: string): Promise<StoredTaskPin | null>;
}

interface TaskRow {
  tenant: string;
  owner: string;
  id: string;
  metadata: string | null;
}

/**
 * The condition that a row of the SDK's `tasks` table belongs to `tenant`: its `tenant` column, or
 * an `owner` scoped as `<tenant>/<principal>`. Every read of that table by tenant uses it.
 */
export function tenantsTask(
  eb: ExpressionBuilder<{ tasks: Pick<TaskRow, 'tenant' | 'owner'> }, 'tasks'>,
  tenant: TenantId,
): Expression<SqlBool> {
  const prefix = `${tenant}/`;
  return eb.or([eb('tenant', '=', tenant), eb(sql<string>`substr(owner, 1, ${prefix.length})`, '=', prefix)]);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database (openDatabase) is untyped
export function createSqliteTaskPins(db: Kysely<any>): SqliteTaskPins {
  const tasks = db as unknown as Kysely<{ tasks: TaskRow }>;
  return {
    async pinOf(tenant, taskId) {
      const rows = await tasks
        .selectFrom('tasks')
        .select(['metadata'])
        .where('id', '=', taskId)
        .where((eb) => tenantsTask(eb, tenant))
        .execute();
      for (const row of rows) {
        const pin = pinFromMetadata(row.metadata);
        if (pin !== null) return pin;
      }
      return null;
    },
  };
}

/** The pin in a task's stored metadata (JSON text), or null. */
export function pinFromMetadata(metadata: string | null): StoredTaskPin | null {
  if (metadata === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed)) return null;
  const ours = parsed[EXTENSION_URI];
  if (!isPlainObject(ours) || !isPlainObject(ours.pin)) return null;
  const { definitionVersion, versionId } = ours.pin;
  if (typeof definitionVersion !== 'number' || typeof versionId !== 'string') return null;
  return { definitionVersion, versionId };
}
