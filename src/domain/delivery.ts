/**
 * Delivering decisions: the outbox port between the stores that write what is owed
 * (in the task's own transaction) and the dispatcher that sends it. Types only: no I/O here.
 */
import type { TenantId } from './tenant.ts';

/** When a task is delivered: it waits for a person, or it ended (completed, failed, rejected, canceled). */
export const DELIVERY_EVENTS = ['input-required', 'decided'] as const;

export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

/** An A2A push-notification config, or a tenant's signed delivery webhook. */
export type DeliveryTargetKind = 'push' | 'webhook';

/** Where a delivery goes and how it proves itself, read when it is sent (a deleted target: null). */
export interface DeliveryTarget {
  readonly url: string;
  /** push: the client's token (X-A2A-Notification-Token), unless `authorization` is given. */
  readonly token?: string;
  /** push: `scheme credentials` for the Authorization header. */
  readonly authorization?: string;
  /** webhook: the Standard Webhooks secret (`whsec_…`) that signs the body. */
  readonly secret?: string;
}

/** One delivery owed, as the dispatcher sends it. */
export interface DueDelivery {
  /** The delivery's id on the wire (`webhook-id`): the same on every retry. */
  readonly id: string;
  readonly tenant: TenantId;
  readonly targetKind: DeliveryTargetKind;
  readonly targetId: string;
  readonly taskId: string;
  readonly event: DeliveryEvent;
  readonly body: string;
  /** Tries so far, this one included (the claim counts it). */
  readonly attempts: number;
  readonly target: DeliveryTarget | null;
}

export interface DeliveryOutbox {
  /**
   * Up to `limit` deliveries due by `nowMs`, each claimed for `claimMs` (its due time moved on, its
   * attempt counted) so another process does not send it at the same time; a sender that dies
   * leaves it due again once the claim runs out.
   */
  claimDue(nowMs: number, claimMs: number, limit: number): Promise<DueDelivery[]>;
  delivered(tenant: TenantId, id: string, at: string): Promise<void>;
  /** Try again at `dueMs`; the error is kept for the console. */
  retryAt(tenant: TenantId, id: string, dueMs: number, error: string): Promise<void>;
  /** No more tries: the body is dropped, the error kept. */
  gaveUp(tenant: TenantId, id: string, at: string, error: string): Promise<void>;
  /**
   * Deliveries not yet delivered or given up, all tenants (the backlog metric), and the earliest
   * due time among them (null when none).
   */
  pending(): Promise<{ count: number; nextDueMs: number | null }>;
  /**
   * Forgets deliveries delivered or given up before `finishedBefore` (ISO-8601), all
   * tenants; how many. The console's counts are then those of the retention window.
   */
  prune(finishedBefore: string): Promise<number>;
}

/** What a task's save owes, built by the A2A layer from the task (a2a/delivery-bodies.ts). */
export interface DeliveryBodies {
  readonly event: DeliveryEvent;
  /** Unique per state the task entered (task, event, status time): a re-save owes nothing new. */
  readonly key: string;
  /** One body for targets created with the extension activated (§7: the teach block travels), one without. */
  readonly push: { readonly activated: string; readonly plain: string };
  /** Absent when the tenant's delivery webhooks are not told (a show-back, recheck_message, decides no mail). */
  readonly webhook?: { readonly activated: string; readonly plain: string };
}

/** A tenant's delivery webhook, as listed (its secret is shown once, when it is created). */
export interface DeliveryEndpoint {
  readonly id: string;
  readonly url: string;
  readonly events: readonly DeliveryEvent[];
  /** Created with the extension activated: its bodies carry the teach block (§7). */
  readonly teachBlocks: boolean;
  readonly createdAt: string;
}

/** How one target's deliveries went. */
export interface DeliveryCounts {
  readonly delivered: number;
  readonly pending: number;
  readonly failed: number;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
}

export interface DeliveryOverview {
  readonly endpoints: readonly (DeliveryEndpoint & DeliveryCounts)[];
  /** The A2A push notifications of the tenant's tasks, summed over their configs. */
  readonly push: DeliveryCounts;
}

/** The tenant's delivery webhooks (store/delivery-endpoint-store.ts), each call scoped to a tenant. */
export interface DeliveryEndpoints {
  create(
    tenant: TenantId,
    endpoint: { url: string; events: readonly DeliveryEvent[]; teachBlocks: boolean },
  ): Promise<DeliveryEndpoint & { readonly secret: string }>;
  /** Every endpoint with how its deliveries went, and the same for the tenant's push notifications. */
  overview(tenant: TenantId): Promise<DeliveryOverview>;
  /** False when the tenant has no such endpoint. */
  remove(tenant: TenantId, id: string): Promise<boolean>;
}
