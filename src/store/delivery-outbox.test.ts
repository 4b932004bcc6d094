// Invariant (issue 40): on SQLite and PostgreSQL alike, a task's save owes one delivery per push config of that task and per delivery webhook of its tenant listening for the event, once per state entered (a re-save owes nothing new), with the body §7 allows the target; two processes claiming at once never both get a delivery; and an erase drops the bodies still owed that mention the identifier (§14), in the erasing tenant only.
import { describe, expect, it } from 'vitest';
import type { DeliveryBodies } from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { enqueueDeliveries, KyselyDeliveryOutbox, mayOweDeliveries } from './delivery-outbox.ts';
import { KyselyDeliveryEndpoints } from './delivery-endpoint-store.ts';

const ACME = 'acme' as TenantId;
const OTHER = 'other' as TenantId;

function bodies(taskId: string, event: DeliveryBodies['event'], at: number, mention = 'x'): DeliveryBodies {
  return {
    event,
    key: `${taskId}.${event}.${at}`,
    push: { activated: `{"teach":1,"m":"${mention}"}`, plain: `{"m":"${mention}"}` },
    webhook: { activated: `{"hook":"teach","m":"${mention}"}`, plain: `{"hook":"plain","m":"${mention}"}` },
  };
}

describe.each(STORE_ENGINES)('$name delivery outbox', ({ name }) => {
  const engine = useStoreEngine(name);

  async function pushConfig(
    db: Awaited<ReturnType<typeof engine.fresh>>,
    tenant: string,
    taskId: string,
    id: string,
    activated: number,
  ) {
    await db
      .insertInto('push_configs')
      .values({
        tenant,
        task_id: taskId,
        id,
        url: 'https://a.example/p',
        token: 't',
        auth_scheme: null,
        auth_credentials: null,
        activated,
        wire_version: '1.0',
        created_at: '2026-12-05T00:00:00Z',
      })
      .execute();
  }

  it('owes one delivery per target, once per state, with the body §7 allows it', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'activated', 1);
    await pushConfig(db, ACME, 't1', 'plain', 0);
    await pushConfig(db, ACME, 't2', 'someone-else', 1);
    await pushConfig(db, OTHER, 't1', 'other-tenant', 1);
    const endpoints = new KyselyDeliveryEndpoints(db);
    const both = await endpoints.create(ACME, {
      url: 'https://h.example/',
      events: ['input-required', 'decided'],
      teachBlocks: false,
    });
    await endpoints.create(ACME, { url: 'https://h.example/d', events: ['decided'], teachBlocks: true });
    await endpoints.create(OTHER, {
      url: 'https://o.example/',
      events: ['input-required'],
      teachBlocks: true,
    });

    const save = (b: DeliveryBodies) =>
      db
        .transaction()
        .execute((trx) => enqueueDeliveries(trx, ACME, 't1', b, { ms: 1000, iso: '2026-12-05T00:00:01Z' }));
    await save(bodies('t1', 'input-required', 1));
    await save(bodies('t1', 'input-required', 1)); // a re-save of the same state
    const outbox = new KyselyDeliveryOutbox(db);
    expect((await outbox.pending()).count).toBe(3);
    const due = await outbox.claimDue(2000, 60_000, 10);
    const byTarget = new Map(due.map((d) => [d.targetId, d.body]));
    expect(byTarget).toEqual(
      new Map([
        ['activated', '{"teach":1,"m":"x"}'],
        ['plain', '{"m":"x"}'],
        [both.id, '{"hook":"plain","m":"x"}'],
      ]),
    );
    expect(due.every((d) => d.tenant === ACME && d.attempts === 1)).toBe(true);
    // Claimed: not due again until the claim runs out.
    expect(await outbox.claimDue(2000, 60_000, 10)).toEqual([]);
  });

  // Issue 41: a task no one listens to is saved without a transaction or bodies; the read that
  // decides so sees the task's own configs and its tenant's webhooks, and nothing of another's.
  it('says a save may owe only when the task has a push config or its tenant a webhook (§13.2)', async () => {
    const db = await engine.fresh();
    expect(await mayOweDeliveries(db, ACME, 't1')).toBe(false);
    await pushConfig(db, ACME, 't2', 'another-task', 1);
    await pushConfig(db, OTHER, 't1', 'another-tenant', 1);
    await new KyselyDeliveryEndpoints(db).create(OTHER, {
      url: 'https://o.example/',
      events: ['decided'],
      teachBlocks: false,
    });
    expect(await mayOweDeliveries(db, ACME, 't1')).toBe(false);
    await pushConfig(db, ACME, 't1', 'its-own', 0);
    expect(await mayOweDeliveries(db, ACME, 't1')).toBe(true);
    expect(await mayOweDeliveries(db, ACME, 't3')).toBe(false);
    await new KyselyDeliveryEndpoints(db).create(ACME, {
      url: 'https://h.example/',
      events: ['input-required'],
      teachBlocks: false,
    });
    expect(await mayOweDeliveries(db, ACME, 't3')).toBe(true);
  });

  it('tells no delivery webhook of a save whose bodies have none for them (a show-back)', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'c', 1);
    await new KyselyDeliveryEndpoints(db).create(ACME, {
      url: 'https://h.example/',
      events: ['decided'],
      teachBlocks: false,
    });
    const { webhook: _none, ...pushOnly } = bodies('t1', 'decided', 1);
    await db
      .transaction()
      .execute((trx) => enqueueDeliveries(trx, ACME, 't1', pushOnly, { ms: 0, iso: '2026-12-05T00:00:00Z' }));
    const due = await new KyselyDeliveryOutbox(db).claimDue(10, 60_000, 10);
    expect(due.map((d) => d.targetKind)).toEqual(['push']);
  });

  it("counts each webhook, and every push config together, with the latest try's error", async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'a', 1);
    await pushConfig(db, ACME, 't1', 'b', 0);
    const endpoints = new KyselyDeliveryEndpoints(db);
    const hook = await endpoints.create(ACME, {
      url: 'https://h.example/',
      events: ['decided'],
      teachBlocks: false,
    });
    const at = { ms: 0, iso: '2026-12-05T00:00:00Z' };
    await db
      .transaction()
      .execute((trx) => enqueueDeliveries(trx, ACME, 't1', bodies('t1', 'decided', 1), at));
    const outbox = new KyselyDeliveryOutbox(db);
    const due = await outbox.claimDue(10, 60_000, 10);
    const push = due.filter((d) => d.targetKind === 'push');
    const webhook = due.find((d) => d.targetKind === 'webhook')!;
    // The later try's error is shown, whatever the errors' alphabetical order.
    await outbox.retryAt(ACME, push[0]!.id, 100, 'z: an older error');
    await outbox.retryAt(ACME, push[1]!.id, 200, 'a: the latest error');
    await outbox.delivered(ACME, webhook.id, '2026-12-05T00:00:02Z');
    const view = await endpoints.overview(ACME);
    expect(view.push).toMatchObject({
      delivered: 0,
      pending: 2,
      failed: 0,
      lastError: 'a: the latest error',
    });
    expect(view.endpoints).toEqual([
      expect.objectContaining({ id: hook.id, delivered: 1, pending: 0, failed: 0, lastError: null }),
    ]);
    expect((await endpoints.overview(OTHER)).push.pending).toBe(0);
  });

  it('gives a due delivery to one of two processes claiming at once', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'c', 1);
    for (let i = 0; i < 20; i++)
      await db.transaction().execute((trx) =>
        enqueueDeliveries(trx, ACME, 't1', bodies('t1', 'decided', i), {
          ms: 0,
          iso: '2026-12-05T00:00:00Z',
        }),
      );
    const a = new KyselyDeliveryOutbox(db);
    const b = new KyselyDeliveryOutbox(await engine.connect());
    const [x, y] = await Promise.all([a.claimDue(10, 60_000, 50), b.claimDue(10, 60_000, 50)]);
    const ids = [...x, ...y].map((d) => d.id);
    expect(ids.length).toBe(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('§14: drops the bodies still owed that mention the identifier, in the erasing tenant only', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'c', 1);
    await pushConfig(db, OTHER, 't1', 'c', 1);
    const at = { ms: 0, iso: '2026-12-05T00:00:00Z' };
    await db
      .transaction()
      .execute((trx) =>
        enqueueDeliveries(trx, ACME, 't1', bodies('t1', 'decided', 1, 'Erase-Me@x.example'), at),
      );
    await db
      .transaction()
      .execute((trx) => enqueueDeliveries(trx, ACME, 't1', bodies('t1', 'decided', 2, 'keep@x.example'), at));
    await db
      .transaction()
      .execute((trx) =>
        enqueueDeliveries(trx, OTHER, 't1', bodies('t1', 'decided', 1, 'erase-me@x.example'), at),
      );
    const outbox = new KyselyDeliveryOutbox(db);
    expect(await outbox.erase(ACME, 'erase-me@x.example')).toEqual({ owed: 1, targets: 0 });
    expect((await outbox.pending()).count).toBe(2);
  });

  it('§14 (issue 50): folds case beyond ASCII, reads JSON escapes and base64, and drops targets that name it', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'c', 1);
    // A push config of another task whose token names her, and a webhook whose URL does.
    await pushConfig(db, ACME, 't2', 'named', 1);
    await db
      .updateTable('push_configs')
      .set({ token: 'for Sabine Müller-Özkan' })
      .where('id', '=', 'named')
      .execute();
    await new KyselyDeliveryEndpoints(db).create(ACME, {
      url: 'https://h.example/hook?for=Sabine%20M%C3%BCller-%C3%96zkan',
      events: ['decided'],
      teachBlocks: false,
    });
    const at = { ms: 0, iso: '2026-12-05T00:00:00Z' };
    const owe = (task: string, key: number, mention: string) =>
      db
        .transaction()
        .execute((trx) => enqueueDeliveries(trx, ACME, task, bodies(task, 'decided', key, mention), at));
    await owe('t1', 1, 'SABINE MÜLLER-ÖZKAN'); // as signed, upper case
    await owe('t1', 2, 'sabine m\\u00fcller-\\u00f6zkan'); // JSON-escaped in the body
    await owe('t1', 3, Buffer.from('-- Sabine Müller-Özkan, Leipzig').toString('base64')); // a file's bytes
    await owe('t1', 4, 'Sabine Muller'); // someone else
    await owe('t2', 5, 'nobody');
    const outbox = new KyselyDeliveryOutbox(db);
    // Each of the four t1 saves owes the push config and the webhook; t2's, its config and the webhook.
    expect((await outbox.pending()).count).toBe(10);

    // Three bodies to two targets each; then the config and the webhook that name her, with the rest they were owed.
    expect(await outbox.erase(ACME, 'Sabine Müller-Özkan')).toEqual({ owed: 6, targets: 2 });
    const left = await db.selectFrom('delivery_outbox').select(['target_id', 'body']).execute();
    expect(left).toEqual([{ target_id: 'c', body: '{"teach":1,"m":"Sabine Muller"}' }]);
    const configs = await db.selectFrom('push_configs').select('id').execute();
    expect(configs.map((c) => String(c.id))).toEqual(['c']);
    expect((await new KyselyDeliveryEndpoints(db).overview(ACME)).endpoints).toEqual([]);
  });

  it('prunes deliveries delivered or given up before the cutoff, never one still owed (issue 50)', async () => {
    const db = await engine.fresh();
    await pushConfig(db, ACME, 't1', 'c', 1);
    const at = { ms: 0, iso: '2026-12-05T00:00:00Z' };
    for (const key of [1, 2, 3])
      await db
        .transaction()
        .execute((trx) => enqueueDeliveries(trx, ACME, 't1', bodies('t1', 'decided', key), at));
    const outbox = new KyselyDeliveryOutbox(db);
    const [a, b] = (await outbox.claimDue(1000, 60_000, 10)).map((d) => d.id);
    await outbox.delivered(ACME, a!, '2026-11-01T00:00:00.000Z');
    await outbox.gaveUp(ACME, b!, '2026-12-01T00:00:00.000Z', 'refused');
    expect(await outbox.prune('2026-11-15T00:00:00.000Z')).toBe(1);
    expect(await outbox.prune('2026-12-06T00:00:00.000Z')).toBe(1);
    // The third is still owed.
    expect((await outbox.pending()).count).toBe(1);
    expect(await outbox.prune('2030-01-01T00:00:00.000Z')).toBe(0);
  });
});
