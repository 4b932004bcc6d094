/** The authority-only server (createServer with no agent) on real SQLite with the real migrations, authority and token store. */
import type { Kysely } from 'kysely';
import {
  createAuthority,
  type Role,
  type Principal,
  type Authority,
} from '../../src/domain/authority/index.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { customerLabelFromName, createLearnables } from '../../src/domain/learnables/index.ts';
import type { TenantId } from '../../src/domain/tenant.ts';
import type { LessonDryRun, SendersView } from '../../src/http/authority-api.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { createServer, type AppServer } from '../../src/server.ts';
import { openDatabase } from '../../src/store/database.ts';
import { serverDatabase } from '../../src/store/open-store.ts';
import { createSqliteDefinitionStore } from '../../src/store/sqlite-definition-store.ts';
import { createSqliteTaskPins } from '../../src/store/sqlite-task-pins.ts';
import { createSqliteTokenStore, type TokenStore } from '../../src/store/sqlite-token-store.ts';
import { steppingClock } from './knowledge-harness.ts';

export interface AuthorityHarness {
  readonly server: AppServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  readonly db: Kysely<any>;
  readonly authority: Authority;
  readonly tokens: TokenStore;
  /** Causes of faults the server logged (500s). */
  readonly faults: unknown[];
  /** A new raw token for `tenant`. */
  token(
    tenant: TenantId,
    roles: readonly Role[],
    principal?: string,
    kind?: Principal['kind'],
  ): Promise<string>;
  /** Store a task the way the SDK's DatabaseTaskStore does, pinned to a version (§10.3). */
  insertPinnedTask(
    tenant: TenantId,
    taskId: string,
    pin: { definitionVersion: number; versionId: string },
  ): Promise<void>;
  close(): Promise<void>;
}

export async function openAuthorityHarness(
  options: { file?: string; dryRun?: LessonDryRun; senders?: SendersView } = {},
): Promise<AuthorityHarness> {
  const db = await openDatabase({ file: options.file ?? ':memory:' });
  const tokens = createSqliteTokenStore(db);
  const authority = createAuthority({
    store: createSqliteDefinitionStore(db),
    learnables: createLearnables(),
    settings: { identificationMargin: 0.5 },
    clock: steppingClock(),
  });
  const faults: unknown[] = [];
  const server = createServer({
    config: { host: '127.0.0.1', port: 0, publicUrl: undefined },
    database: serverDatabase(db),
    verifier: tokens,
    authority,
    taskPins: createSqliteTaskPins(db),
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    ...(options.senders === undefined ? {} : { senders: options.senders }),
    agent: null,
    log: (_message, cause) => faults.push(cause),
    // Quiet (issue 27): `npm test` prints the test report, not this server's request log.
    observability: { logger: createLogger({ level: 'silent' }), metrics: createMetrics() },
  });
  return {
    server,
    db,
    authority,
    tokens,
    faults,
    async token(tenant, roles, principal = 'dana@warehouse.example', kind = 'person') {
      return (await tokens.create({ tenant, principal, kind, roles })).token;
    },
    async insertPinnedTask(tenant, taskId, pin) {
      await db
        .insertInto('tasks')
        .values({
          tenant: '',
          owner: `${tenant}/*`,
          id: taskId,
          context_id: `ctx-${taskId}`,
          status_last_updated: 1,
          status_state: 'TASK_STATE_COMPLETED',
          metadata: JSON.stringify({ [EXTENSION_URI]: { pin } }),
          protocol_version: '1.0',
        })
        .execute();
    },
    async close() {
      await server.close();
      await db.destroy();
    },
  };
}

/** A customers lesson (test data may name the learnable's keys; product code may not, §9). */
export function customerLesson(
  entry: string,
  address: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    collection: 'customers',
    entry,
    // Names the customer, so a lesson for a new one creates it (issue 12.3: no entry by accident).
    value: { pattern: address.replace(/[.]/g, '\\.'), where: 'from', label: customerLabelFromName(entry) },
    taughtBy: 'dana@warehouse.example',
    reason: `${address} writes for ${entry}`,
    ...extra,
  };
}
