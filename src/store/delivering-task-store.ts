/**
 * The SDK's task store with the delivery outbox in the same transaction. A save that
 * moves a task into a state someone is told about (input-required, or an end) writes the task row
 * and the deliveries it owes in one transaction: both commit or neither does, so a notification is
 * never lost to a crash between the two, nor sent for a state that was not stored. Every other save,
 * and the save of a task no one listens to (no push config, no tenant webhook: `mayOweDeliveries`),
 * is the SDK's own single statement. After a commit that owed something, `enqueued` wakes
 * the dispatcher (delivery/dispatcher.ts), which sends after commit.
 *
 * Deliberately not here: what a delivery says (the A2A layer builds the bodies) or sending it.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Task } from '@a2a-js/sdk';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import type { DeliveryBodies } from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { enqueueDeliveries, mayOweDeliveries } from './delivery-outbox.ts';

export interface DeliveringTaskStoreOptions {
  readonly ownerResolver: OwnerResolver;
  readonly tenantOf: (context: ServerCallContext) => TenantId;
  /** Whether the task's state is one anyone is told of (cheap: read before any query). */
  readonly delivered: (task: Task) => boolean;
  /** What the task's save owes, or null when its state is not delivered. */
  readonly bodiesOf: (task: Task) => DeliveryBodies | null;
  /** Called after a commit that owed deliveries. */
  readonly enqueued: () => void;
  readonly nowMs?: () => number;
}

export function deliveringTaskStore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's store takes any Kysely
  db: Kysely<any>,
  options: DeliveringTaskStoreOptions,
): TaskStore {
  const { ownerResolver } = options;
  const plain = new DatabaseTaskStore(db, { ownerResolver });
  const nowMs = options.nowMs ?? Date.now;
  return {
    async save(task: Task, context: ServerCallContext): Promise<void> {
      if (!options.delivered(task)) return plain.save(task, context);
      const tenant = options.tenantOf(context);
      if (!(await mayOweDeliveries(db, tenant, task.id))) return plain.save(task, context);
      const bodies = options.bodiesOf(task);
      if (bodies === null) return plain.save(task, context);
      const ms = nowMs();
      const owed = await db.transaction().execute(async (trx: Transaction<unknown>) => {
        await new DatabaseTaskStore(trx, { ownerResolver }).save(task, context);
        return enqueueDeliveries(trx, tenant, task.id, bodies, { ms, iso: new Date(ms).toISOString() });
      });
      // Most tasks owe nothing (no config, no webhook): the dispatcher is not woken for them.
      if (owed > 0) options.enqueued();
    },
    load: (taskId, context) => plain.load(taskId, context),
    list: (params, context) => plain.list(params, context),
  };
}
