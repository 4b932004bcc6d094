/**
 * A tenant's delivery webhooks for mail pipelines (issue 40), over Kysely on both engines. Each has
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
} from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { KyselyDeliveryOutbox, type DeliveryTables } from './delivery-outbox.ts';

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

  async list(tenant: TenantId): Promise<(DeliveryEndpoint & DeliveryCounts)[]> {
    const rows = await this.#db
      .selectFrom('delivery_endpoints')
      .selectAll()
      .where('tenant', '=', tenant)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const outcomes = await this.#outbox.outcomes(tenant);
    return rows.map((r) => {
      const o = outcomes.find((x) => x.targetKind === 'webhook' && x.targetId === r.id);
      return { ...shown(r), ...(o === undefined ? NONE : countsOf(o)) };
    });
  }

  async pushCounts(tenant: TenantId): Promise<DeliveryCounts> {
    const pushes = (await this.#outbox.outcomes(tenant)).filter((o) => o.targetKind === 'push');
    let sum = { ...NONE } as { -readonly [K in keyof DeliveryCounts]: DeliveryCounts[K] };
    for (const o of pushes) {
      sum = {
        delivered: sum.delivered + o.delivered,
        pending: sum.pending + o.pending,
        failed: sum.failed + o.failed,
        lastError:
          (o.lastErrorAt ?? '') >= (sum.lastErrorAt ?? '') && o.lastError !== null
            ? o.lastError
            : sum.lastError,
        lastErrorAt:
          (o.lastErrorAt ?? '') >= (sum.lastErrorAt ?? '') && o.lastError !== null
            ? o.lastErrorAt
            : sum.lastErrorAt,
      };
    }
    return sum;
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
    events: r.events.split(',').filter((e): e is DeliveryEvent => (DELIVERY_EVENTS as string[]).includes(e)),
    teachBlocks: r.activated === 1,
    createdAt: r.created_at,
  };
}

function countsOf(o: DeliveryCounts): DeliveryCounts {
  return {
    delivered: o.delivered,
    pending: o.pending,
    failed: o.failed,
    lastError: o.lastError,
    lastErrorAt: o.lastErrorAt,
  };
}
