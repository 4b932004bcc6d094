/**
 * Delivery put together, beside compose-mail.ts: adapters never import each
 * other, so the delivery adapter (src/delivery) and its stores (src/store) meet here. The URL guard,
 * the outbox and the dispatcher that sends from it (woken by this process's saves and by the bell),
 * the durable push-notification configs, the tenant's delivery webhooks, and the task-store stack
 * every task save passes through.
 *
 * A task save passes these layers, outermost first; the order matters:
 * 1. the recent copy (a2a/recent-task-store.ts), which the A2A app puts over what `taskStore` returns:
 *    the saving call reads back what it saved without a query;
 * 2. the mail blobs (store/task-mail-blobs.ts): a large mail part's bytes are written once, before the
 *    row that refers to them;
 * 3. delivering (store/delivering-task-store.ts): a save into a state someone is told of owes its
 *    deliveries, in the same transaction as the row;
 * 4. the SDK's DatabaseTaskStore: the row.
 *
 * Owns: the assembly. Does not own: what a delivery body says or when a task owes one (the caller's
 * `delivered` and `bodiesOf`), how a refusal is worded on the wire (`refused`), or any metric.
 */
import type { Kysely } from 'kysely';
import type { Task } from '@a2a-js/sdk';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { DeliveryBodies } from './domain/delivery.ts';
import type { TenantId } from './domain/tenant.ts';
import { KyselyDeliveryEndpoints } from './store/delivery-endpoint-store.ts';
import { KyselyDeliveryOutbox } from './store/delivery-outbox.ts';
import { deliveringTaskStore } from './store/delivering-task-store.ts';
import { KyselyPushConfigStore } from './store/push-config-store.ts';
import { mailBlobTaskStore } from './store/task-mail-blobs.ts';
import type { DeliveryBell } from './delivery/bell.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from './delivery/dispatcher.ts';
import { createUrlGuard, type UrlGuard } from './delivery/url-guard.ts';

/** PUSH_NOTIFICATION_ALLOWED_HOSTS and the DELIVERY_ settings (config.ts). */
export interface DeliverySettings {
  readonly allowedHosts: readonly string[];
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retentionDays: number;
  /** DELIVERY_POLL_MS. */
  readonly pollMs: number;
  /** Rung when any replica owes a delivery (PostgreSQL); the dispatcher wakes on it. */
  readonly bell?: DeliveryBell;
}

export interface Delivery {
  readonly guard: UrlGuard;
  readonly dispatcher: Dispatcher;
  readonly pushConfigs: KyselyPushConfigStore;
  readonly endpoints: KyselyDeliveryEndpoints;
  /** Layers 2 to 4 of a task save (the header), for the A2A app to put its recent copy over. */
  taskStore(ownerResolver: OwnerResolver): TaskStore;
}

export function createDelivery(deps: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  readonly db: Kysely<any>;
  readonly settings: DeliverySettings;
  readonly log: DispatcherOptions['log'];
  readonly tenantOf: (context: ServerCallContext) => TenantId;
  /** Whether a saved task is in a state someone is told of. */
  readonly delivered: (task: Task) => boolean;
  readonly bodiesOf: (task: Task) => DeliveryBodies | null;
  /** A push config's URL refused, as the caller's transport words it. */
  readonly refused: (message: string) => Error;
  readonly onBacklog?: DispatcherOptions['onBacklog'];
  readonly onOutcome?: DispatcherOptions['onOutcome'];
}): Delivery {
  const { db, settings, tenantOf } = deps;
  const guard = createUrlGuard({ allowedHosts: settings.allowedHosts });
  const dispatcher = createDispatcher({
    outbox: new KyselyDeliveryOutbox(db),
    guard,
    log: deps.log,
    maxAttempts: settings.maxAttempts,
    baseBackoffMs: settings.retryBaseMs,
    retentionMs: settings.retentionDays * 86_400_000,
    pollMs: settings.pollMs,
    ...(deps.onBacklog === undefined ? {} : { onBacklog: deps.onBacklog }),
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
  settings.bell?.listen(() => dispatcher.kick());
  const pushConfigs = new KyselyPushConfigStore(db, {
    tenantOf,
    checkUrl: async (url) => {
      try {
        await guard.checkUrl(url);
      } catch (e) {
        throw deps.refused(e instanceof Error ? e.message : String(e));
      }
    },
  });
  return {
    guard,
    dispatcher,
    pushConfigs,
    endpoints: new KyselyDeliveryEndpoints(db),
    taskStore: (ownerResolver) =>
      mailBlobTaskStore(
        deliveringTaskStore(db, {
          ownerResolver,
          tenantOf,
          delivered: deps.delivered,
          bodiesOf: deps.bodiesOf,
          enqueued: () => dispatcher.kick(),
        }),
        db,
        tenantOf,
      ),
  };
}
