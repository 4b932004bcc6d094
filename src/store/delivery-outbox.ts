/**
 * The delivery outbox over Kysely, the same statements on SQLite and PostgreSQL.
 * `enqueue` runs inside the transaction that saves a task's state (delivering-task-store.ts): one
 * INSERT … SELECT over the task's push configs and the tenant's delivery webhooks for the event, so
 * what is owed commits with the state or not at all. The dispatcher then claims, sends and marks
 * (delivery/dispatcher.ts). A delivered or abandoned row keeps no body (nothing of the mail outlives
 * its task), only its outcome, which the console shows per endpoint.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  DeliveryBodies,
  DeliveryCounts,
  DeliveryEvent,
  DeliveryOutbox,
  DeliveryTargetKind,
  DueDelivery,
} from '../domain/delivery.ts';
import { mentionsEncoded, scrubText, textMentions } from '../domain/definitions/index.ts';
import type { TenantId } from '../domain/tenant.ts';

export interface DeliveryTables {
  delivery_outbox: {
    id: string;
    tenant: string;
    target_kind: string;
    target_id: string;
    task_id: string;
    event: string;
    body: string | null;
    state: string;
    attempts: number;
    due_ms: number | string; // pg returns bigint as a string
    last_error: string | null;
    created_at: string;
    finished_at: string | null;
  };
  push_configs: {
    tenant: string;
    task_id: string;
    id: string;
    url: string;
    token: string;
    auth_scheme: string | null;
    auth_credentials: string | null;
    activated: number;
    wire_version: string;
    created_at: string;
  };
  delivery_endpoints: {
    tenant: string;
    id: string;
    url: string;
    events: string;
    secret: string;
    activated: number;
    created_at: string;
  };
}

/** The key of `outcomes` under which every A2A push config of the tenant is counted together. */
export const PUSH_TARGETS = '';

/**
 * Whether a save of this task could owe anything: it has a push config, or its tenant a delivery
 * webhook. One indexed read, so a task no one listens to is saved in one statement, with no
 * transaction and no bodies built. A target made after this read is as one made after
 * the save: it hears the task's next state.
 */
export async function mayOweDeliveries(
  db: Kysely<unknown>,
  tenant: TenantId,
  taskId: string,
): Promise<boolean> {
  const r = await sql<{
    listened: number | boolean;
  }>`select (exists (select 1 from push_configs where tenant = ${tenant} and task_id = ${taskId})
    or exists (select 1 from delivery_endpoints where tenant = ${tenant})) as listened`.execute(db);
  const listened = r.rows[0]?.listened;
  return listened === true || Number(listened) === 1;
}

/** Owed deliveries for a task that just entered `bodies.event`, in the caller's transaction; how many. */
export async function enqueueDeliveries(
  trx: Transaction<unknown>,
  tenant: TenantId,
  taskId: string,
  bodies: DeliveryBodies,
  now: { iso: string; ms: number },
): Promise<number> {
  const db = trx as unknown as Transaction<DeliveryTables>;
  const common = (kind: DeliveryTargetKind) =>
    [
      sql<string>`${`${bodies.key}.${kind}.`} || id`.as('id'),
      'tenant',
      sql<string>`${kind}`.as('target_kind'),
      'id as target_id',
      sql<string>`${taskId}`.as('task_id'),
      sql<string>`${bodies.event}`.as('event'),
    ] as const;
  const rest = [
    sql<string>`${'pending'}`.as('state'),
    sql<number>`${sql.lit(0)}`.as('attempts'),
    sql<number>`${sql.lit(Math.trunc(now.ms))}`.as('due_ms'),
    sql<string>`${now.iso}`.as('created_at'),
  ] as const;
  const body = (b: { activated: string; plain: string }) =>
    sql<string>`case when activated = 1 then ${b.activated} else ${b.plain} end`.as('body');
  const pushes = db
    .selectFrom('push_configs')
    .select([...common('push'), body(bodies.push), ...rest])
    .where('tenant', '=', tenant)
    .where('task_id', '=', taskId);
  const webhooks =
    bodies.webhook === undefined
      ? null
      : db
          .selectFrom('delivery_endpoints')
          .select([...common('webhook'), body(bodies.webhook), ...rest])
          .where('tenant', '=', tenant)
          .where(sql<boolean>`(',' || events || ',') like ${`%,${bodies.event},%`}`);
  const r = await db
    .insertInto('delivery_outbox')
    .columns([
      'id',
      'tenant',
      'target_kind',
      'target_id',
      'task_id',
      'event',
      'body',
      'state',
      'attempts',
      'due_ms',
      'created_at',
    ])
    .expression(webhooks === null ? pushes : pushes.unionAll(webhooks))
    .onConflict((oc) => oc.columns(['tenant', 'id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n);
}

export class KyselyDeliveryOutbox implements DeliveryOutbox {
  readonly #db: Kysely<DeliveryTables>;

  constructor(db: Kysely<unknown>) {
    this.#db = db as Kysely<DeliveryTables>;
  }

  async claimDue(nowMs: number, claimMs: number, limit: number): Promise<DueDelivery[]> {
    const rows = await this.#db
      .selectFrom('delivery_outbox')
      .select(['id', 'tenant', 'target_kind', 'target_id', 'task_id', 'event', 'body', 'attempts', 'due_ms'])
      .where('state', '=', 'pending')
      .where('due_ms', '<=', nowMs)
      .orderBy('due_ms')
      .limit(limit)
      .execute();
    const claimed: DueDelivery[] = [];
    for (const row of rows) {
      // Claimed only if no other process moved it since it was read: its due time is still the one read.
      const r = await this.#db
        .updateTable('delivery_outbox')
        .set({ due_ms: nowMs + claimMs, attempts: row.attempts + 1 })
        .where('tenant', '=', row.tenant)
        .where('id', '=', row.id)
        .where('state', '=', 'pending')
        .where('due_ms', '=', row.due_ms)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0 || row.body === null) continue;
      claimed.push({
        id: row.id,
        tenant: row.tenant as TenantId,
        targetKind: row.target_kind as DeliveryTargetKind,
        targetId: row.target_id,
        taskId: row.task_id,
        event: row.event as DeliveryEvent,
        body: row.body,
        attempts: row.attempts + 1,
        target: await this.#target(
          row.tenant as TenantId,
          row.target_kind as DeliveryTargetKind,
          row.task_id,
          row.target_id,
        ),
      });
    }
    return claimed;
  }

  async #target(
    tenant: TenantId,
    kind: DeliveryTargetKind,
    taskId: string,
    id: string,
  ): Promise<DueDelivery['target']> {
    if (kind === 'webhook') {
      const row = await this.#db
        .selectFrom('delivery_endpoints')
        .select(['url', 'secret'])
        .where('tenant', '=', tenant)
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? null : { url: row.url, secret: row.secret };
    }
    const row = await this.#db
      .selectFrom('push_configs')
      .select(['url', 'token', 'auth_scheme', 'auth_credentials'])
      .where('tenant', '=', tenant)
      .where('task_id', '=', taskId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return null;
    const authorization =
      row.auth_scheme !== null &&
      row.auth_scheme !== '' &&
      row.auth_credentials !== null &&
      row.auth_credentials !== ''
        ? `${row.auth_scheme} ${row.auth_credentials}`
        : undefined;
    return {
      url: row.url,
      ...(row.token === '' ? {} : { token: row.token }),
      ...(authorization === undefined ? {} : { authorization }),
    };
  }

  async delivered(tenant: TenantId, id: string, at: string): Promise<void> {
    await this.#finish(tenant, id, 'delivered', at, null);
  }

  async gaveUp(tenant: TenantId, id: string, at: string, error: string): Promise<void> {
    await this.#finish(tenant, id, 'failed', at, error);
  }

  async #finish(
    tenant: TenantId,
    id: string,
    state: string,
    at: string,
    error: string | null,
  ): Promise<void> {
    await this.#db
      .updateTable('delivery_outbox')
      .set({ state, body: null, finished_at: at, ...(error === null ? {} : { last_error: error }) })
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .execute();
  }

  async retryAt(tenant: TenantId, id: string, dueMs: number, error: string): Promise<void> {
    await this.#db
      .updateTable('delivery_outbox')
      .set({ due_ms: dueMs, last_error: error })
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  async pending(): Promise<{ count: number; nextDueMs: number | null }> {
    const row = await this.#db
      .selectFrom('delivery_outbox')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.min<number | string | null>('due_ms').as('due'),
      ])
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), nextDueMs: row.due === null ? null : Number(row.due) };
  }

  async prune(finishedBefore: string): Promise<number> {
    const r = await this.#db
      .deleteFrom('delivery_outbox')
      .where('state', 'in', ['delivered', 'failed'])
      .where('finished_at', '<', finishedBefore)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * How the tenant's deliveries went, per target: every A2A push config together (`PUSH_TARGETS`),
   * each delivery webhook by its id. The last error is that of the target's latest try still not
   * delivered (a delivery's due time moves on with each try).
   */
  async outcomes(tenant: TenantId): Promise<ReadonlyMap<string, DeliveryCounts>> {
    // A literal, not a parameter: PostgreSQL matches the grouped expression to the selected one by its text.
    const target = sql<string>`case when target_kind = 'push' then ${sql.lit(PUSH_TARGETS)} else target_id end`;
    const counts = await this.#db
      .selectFrom('delivery_outbox')
      .select((eb) => [target.as('target'), 'state', eb.fn.countAll<number | string>().as('n')])
      .where('tenant', '=', tenant)
      .groupBy([target, 'state'])
      .execute();
    const { rows: errors } = await sql<{ target: string; last_error: string; finished_at: string | null }>`
      select target, last_error, finished_at from (
        select ${target} as target, last_error, finished_at,
          row_number() over (partition by ${target} order by due_ms desc) as latest
        from delivery_outbox
        where tenant = ${tenant} and last_error is not null and state <> 'delivered') tried
      where latest = 1`.execute(this.#db);
    const out = new Map<string, { -readonly [K in keyof DeliveryCounts]: DeliveryCounts[K] }>();
    const of = (key: string) => {
      const o = out.get(key) ?? { delivered: 0, pending: 0, failed: 0, lastError: null, lastErrorAt: null };
      out.set(key, o);
      return o;
    };
    for (const row of counts) {
      const o = of(row.target);
      const n = Number(row.n);
      if (row.state === 'delivered') o.delivered += n;
      else if (row.state === 'failed') o.failed += n;
      else o.pending += n;
    }
    for (const row of errors) {
      const o = of(row.target);
      o.lastError = row.last_error;
      o.lastErrorAt = row.finished_at;
    }
    return out;
  }

  /**
   * §14: what is owed and kept for deliveries must not outlive an erase. Dropped: each body still
   * owed that names the identifier (any string in it, JSON escapes decoded, a file's bytes in
   * base64 at any alignment), and each push config or delivery webhook whose URL, token or
   * credentials name it, with what it is owed. A kept error naming it says "[erased]" instead.
   * Matched in JavaScript with the definitions' matcher (Unicode case folding): SQL `lower()`
   * folds ASCII only on SQLite, so "MÜLLER" escaped a `like` on "Müller".
   */
  async erase(tenant: TenantId, identifier: string): Promise<{ owed: number; targets: number }> {
    const owed = await this.#eraseOwedBodies(tenant, identifier);
    const targets = await this.#eraseTargets(tenant, identifier);
    await this.#scrubErrors(tenant, identifier);
    return { owed, targets };
  }

  async #eraseOwedBodies(tenant: TenantId, identifier: string): Promise<number> {
    let n = 0;
    let after = '';
    for (;;) {
      const rows = await this.#db
        .selectFrom('delivery_outbox')
        .select(['id', 'body'])
        .where('tenant', '=', tenant)
        .where('body', 'is not', null)
        .where('id', '>', after)
        .orderBy('id')
        .limit(ERASE_PAGE)
        .execute();
      const named = rows.filter((r) => r.body !== null && bodyMentions(r.body, identifier)).map((r) => r.id);
      if (named.length > 0) {
        const r = await this.#db
          .deleteFrom('delivery_outbox')
          .where('tenant', '=', tenant)
          .where('id', 'in', named)
          .executeTakeFirst();
        n += Number(r.numDeletedRows);
      }
      if (rows.length < ERASE_PAGE) return n;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Push configs and delivery webhooks that name the identifier, with every delivery they are owed. */
  async #eraseTargets(tenant: TenantId, identifier: string): Promise<number> {
    // A URL is read as written and percent-decoded ("M%C3%BCller").
    const names = (...texts: (string | null)[]) =>
      texts.some(
        (t) => t !== null && (textMentions(t, identifier) || textMentions(percentDecoded(t), identifier)),
      );
    const pushes = (
      await this.#db
        .selectFrom('push_configs')
        .select(['task_id', 'id', 'url', 'token', 'auth_credentials'])
        .where('tenant', '=', tenant)
        .execute()
    ).filter((r) => names(r.url, r.token, r.auth_credentials));
    const hooks = (
      await this.#db
        .selectFrom('delivery_endpoints')
        .select(['id', 'url'])
        .where('tenant', '=', tenant)
        .execute()
    ).filter((r) => names(r.url));
    for (const p of pushes) {
      await this.#dropOwed(tenant, 'push', p.id, p.task_id);
      await this.#db
        .deleteFrom('push_configs')
        .where('tenant', '=', tenant)
        .where('task_id', '=', p.task_id)
        .where('id', '=', p.id)
        .execute();
    }
    for (const h of hooks) {
      await this.#dropOwed(tenant, 'webhook', h.id);
      await this.#db
        .deleteFrom('delivery_endpoints')
        .where('tenant', '=', tenant)
        .where('id', '=', h.id)
        .execute();
    }
    return pushes.length + hooks.length;
  }

  /** Every delivery one target is owed (a push config is one task's). */
  async #dropOwed(tenant: TenantId, kind: DeliveryTargetKind, id: string, taskId?: string): Promise<void> {
    let q = this.#db
      .deleteFrom('delivery_outbox')
      .where('tenant', '=', tenant)
      .where('target_kind', '=', kind)
      .where('target_id', '=', id);
    if (taskId !== undefined) q = q.where('task_id', '=', taskId);
    await q.execute();
  }

  async #scrubErrors(tenant: TenantId, identifier: string): Promise<void> {
    const rows = await this.#db
      .selectFrom('delivery_outbox')
      .select(['id', 'last_error'])
      .where('tenant', '=', tenant)
      .where('last_error', 'is not', null)
      .execute();
    for (const r of rows) {
      if (r.last_error === null || !textMentions(r.last_error, identifier)) continue;
      await this.#db
        .updateTable('delivery_outbox')
        .set({ last_error: scrubText(r.last_error, identifier) })
        .where('tenant', '=', tenant)
        .where('id', '=', r.id)
        .execute();
    }
  }
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** How many owed rows an erase reads at a time. */
const ERASE_PAGE = 500;

/** Whether an owed body names the identifier: as stored, or in any string of it once its JSON is read. */
function bodyMentions(body: string, identifier: string): boolean {
  if (mentionsEncoded(body, identifier)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  return someString(parsed, (s) => mentionsEncoded(s, identifier));
}

function someString(value: unknown, test: (s: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((v) => someString(v, test));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => test(k) || someString(v, test));
  return false;
}
