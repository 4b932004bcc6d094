/**
 * The A2A push-notification configs, durable and tenant-scoped: the SDK's
 * `PushNotificationStore` over Kysely, the same statements on SQLite and PostgreSQL. A config's
 * URL is checked when it is stored (`checkUrl`, which throws the refusal the client hears) and
 * again when each notification is sent (delivery/dispatcher.ts). Whether the request that stored
 * it activated the extension is kept with it (§7: a teach block travels only to such a config).
 *
 * A config of another tenant is never seen: every statement names the caller's tenant.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type {
  PushNotificationStore,
  ServerCallContext,
  StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import { namesLearnables } from '../domain/extension.ts';
import type { TenantId } from '../domain/tenant.ts';
import type { DeliveryTables } from './delivery-outbox.ts';

export interface PushConfigStoreOptions {
  /** The caller's tenant (§13.2); never the request's `tenant` field. */
  readonly tenantOf: (context: ServerCallContext) => TenantId;
  /** Throws, in words, when the URL may not be delivered to (delivery/url-guard.ts). */
  readonly checkUrl: (url: string) => Promise<void>;
  readonly now?: () => string;
}

export class KyselyPushConfigStore implements PushNotificationStore {
  readonly #db: Kysely<DeliveryTables>;
  readonly #options: PushConfigStoreOptions;

  constructor(db: Kysely<unknown>, options: PushConfigStoreOptions) {
    this.#db = db as Kysely<DeliveryTables>;
    this.#options = options;
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    await this.#options.checkUrl(config.url);
    // The interface: an empty id is assigned in place (the caller reads it back from `config`).
    if (config.id === '') config.id = randomUUID();
    const tenant = this.#options.tenantOf(context);
    const row = {
      url: config.url,
      token: config.token,
      auth_scheme: config.authentication?.scheme ?? null,
      auth_credentials: config.authentication?.credentials ?? null,
      activated: namesLearnables(context.activatedExtensions) ? 1 : 0,
      wire_version: context.requestedVersion ?? '1.0',
    };
    await this.#db
      .insertInto('push_configs')
      .values({ tenant, task_id: taskId, id: config.id, created_at: (this.#options.now ?? isoNow)(), ...row })
      .onConflict((oc) => oc.columns(['tenant', 'task_id', 'id']).doUpdateSet(row))
      .execute();
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((s) => s.config);
  }

  async loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
  ): Promise<StoredPushNotificationConfig[]> {
    const tenant = this.#options.tenantOf(context);
    const rows = await this.#db
      .selectFrom('push_configs')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('task_id', '=', taskId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      wireVersion: r.wire_version,
      config: {
        tenant: '',
        id: r.id,
        taskId: r.task_id,
        url: r.url,
        token: r.token,
        authentication:
          r.auth_scheme === null
            ? undefined
            : { scheme: r.auth_scheme, credentials: r.auth_credentials ?? '' },
      },
    }));
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    let q = this.#db
      .deleteFrom('push_configs')
      .where('tenant', '=', this.#options.tenantOf(context))
      .where('task_id', '=', taskId);
    if (configId !== undefined && configId !== '') q = q.where('id', '=', configId);
    await q.execute();
  }
}

function isoNow(): string {
  return new Date().toISOString();
}
