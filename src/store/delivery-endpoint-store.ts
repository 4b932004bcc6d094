/**
 * A tenant's delivery webhooks for mail pipelines, over Kysely on both engines. Each has
 * a Standard Webhooks secret (`whsec_` + 32 random bytes, base64) made here and shown once, at
 * creation; it stays in the database because every delivery is signed with it. What its
 * deliveries came to is read from the outbox (delivery-outbox.ts `outcomes`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  DELIVERY_EVENTS,
  type DeliveryCounts,
  type DeliveryEndpoint,
  type DeliveryEndpoints,
  type DeliveryEvent,
  type DeliveryOverview,
} from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { KyselyDeliveryOutbox, PUSH_TARGETS, type DeliveryTables } from './delivery-outbox.ts';

const NONE: DeliveryCounts = { delivered: 0, pending: 0, failed: 0, lastError: null, lastErrorAt: null };

export class KyselyDeliveryEndpoints implements DeliveryEndpoints {
  readonly #db: Kysely<DeliveryTables>;
  readonly #outbox: KyselyDeliveryOutbox;
  readonly #now: () => string;

  constructor(db: Kysely<unknown>, now: () => string = () => new Date().toISOString()) {
    this.#db = db as Kysely<DeliveryTables>;
    this.#outbox = new KyselyDeliveryOutbox(db);
    this.#now = now;
  }

  async create(
    tenant: TenantId,
    endpoint: { url: string; events: readonly DeliveryEvent[]; teachBlocks: boolean },
  ): Promise<DeliveryEndpoint & { readonly secret: string }> {
    const row = {
      tenant,
      id: `dlv_${randomUUID()}`,
      url: endpoint.url,
      events: DELIVERY_EVENTS.filter((e) => endpoint.events.includes(e)).join(','),
      secret: `whsec_${randomBytes(32).toString('base64')}`,
      activated: endpoint.teachBlocks ? 1 : 0,
      created_at: this.#now(),
    };
    await this.#db.insertInto('delivery_endpoints').values(row).execute();
    return { ...shown(row), secret: row.secret };
  }

  async overview(tenant: TenantId): Promise<DeliveryOverview> {
    const rows = await this.#db
      .selectFrom('delivery_endpoints')
      .selectAll()
      .where('tenant', '=', tenant)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const outcomes = await this.#outbox.outcomes(tenant);
    return {
      endpoints: rows.map((r) => ({ ...shown(r), ...(outcomes.get(r.id) ?? NONE) })),
      push: outcomes.get(PUSH_TARGETS) ?? NONE,
    };
  }

  async remove(tenant: TenantId, id: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom('delivery_endpoints')
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

function shown(r: DeliveryTables['delivery_endpoints']): DeliveryEndpoint {
  return {
    id: r.id,
    url: r.url,
    events: r.events
      .split(',')
      .filter((e): e is DeliveryEvent => (DELIVERY_EVENTS as readonly string[]).includes(e)),
    teachBlocks: r.activated === 1,
    createdAt: r.created_at,
  };
}
