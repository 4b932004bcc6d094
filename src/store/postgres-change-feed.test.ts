// Invariant (issue 15, §10.3, §14 across replicas): what one replica commits reaches every other replica's feed by notification: an activation drops the tenant's remembered head, so the next read there is the new version with no query per read while the feed listens; while the listening connection is down (pg_terminate_backend), reads fall back to the per-request counter and still see the next activation, and once it is back the push resumes. An erase reaches every feed by notification and by its counters after a drop; erasures from before a feed started are not replayed. Polls are set far beyond the test's patience, so only a notification, the fallback or the reconnect can deliver.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import type { Activation } from '../domain/definitions/index.ts';
import { tenantId, type TenantId } from '../domain/tenant.ts';
import { openPostgres } from './postgres-database.ts';
import {
  eraseSignal,
  startChangeFeed,
  type ActivationNotice,
  type ChangeFeed,
} from './postgres-change-feed.ts';
import { checksMade, createPushedValidity } from './read-validity.ts';
import { eraseGenerationEraser } from './erase-generation.ts';
import { createSqliteDefinitionStore } from './sqlite-definition-store.ts';

const demo = tenantId('demo');

function activation(n: number): Activation {
  return {
    definitionVersion: n,
    action: 'teach',
    versionId: `sha256:${String(n).repeat(64).slice(0, 64)}`,
    previousVersionId: null,
    taughtBy: 'person-1',
    writer: { principal: 'dana@warehouse.example', kind: 'person', tokenId: 'tok_1' },
    reason: null,
    describes: `version ${n}`,
    collection: null,
    entry: null,
    value: { n },
    target: null,
    at: '2026-09-07T09:00:00.000Z',
  };
}

describe('change feed between replicas', () => {
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let a: Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let b: Kysely<any>;
  const feeds: ChangeFeed[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await openPostgres({ url: database.url, poolSize: 2 });
    b = await openPostgres({ url: database.url, poolSize: 2 });
  });
  afterAll(async () => {
    for (const f of feeds) await f.stop();
    await a.destroy();
    await b.destroy();
    await database.drop();
  });

  async function feedOnB(): Promise<{
    feed: ChangeFeed;
    seen: TenantId[];
    notices: ActivationNotice[];
    pushed: ReturnType<typeof createPushedValidity>;
  }> {
    const seen: TenantId[] = [];
    const notices: ActivationNotice[] = [];
    const pushed = createPushedValidity();
    const feed = await startChangeFeed({
      url: database.url,
      db: b,
      onErased: (t) => seen.push(t),
      onActivated: (n) => notices.push(n),
      pushed,
      pollMs: 3_600_000,
    });
    feeds.push(feed);
    return { feed, seen, notices, pushed };
  }

  /** An erase as a replica makes one: counted, then announced. */
  async function erase(tenant: string, identifier: string): Promise<void> {
    await eraseGenerationEraser(a).erase(tenantId(tenant), identifier);
    await eraseSignal(a).erase(tenantId(tenant), identifier);
  }

  /** Ends every listening backend of this database (the replica's LISTEN connection among them). */
  async function killListeners(): Promise<void> {
    const killed = await sql<{ ok: boolean }>`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and query like 'listen %'`.execute(a);
    expect(killed.rows.length).toBeGreaterThan(0);
  }

  it('does not replay erasures from before it started, and delivers a new one by notification', async () => {
    await erase('old', 'x@old.example');
    const { feed, seen } = await feedOnB();
    expect(feed.listening()).toBe(true);
    await erase('demo', 'dana@warehouse.example');
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['demo']);
  });

  it('still sees an erase committed while its listening connection was down', async () => {
    const { feed, seen } = await feedOnB();
    await killListeners();
    await expect.poll(() => feed.listening(), { timeout: 10_000 }).toBe(false);
    await erase('acme', 'sam@acme.example');
    await expect.poll(() => seen, { timeout: 15_000 }).toEqual(['acme']);
    await expect.poll(() => feed.listening(), { timeout: 10_000 }).toBe(true);
  });

  it('pushes a new activation to the other replica: its next head read is the new version, with no per-read check while listening', async () => {
    const { feed, notices, pushed } = await feedOnB();
    const writer = createSqliteDefinitionStore(a);
    const reader = createSqliteDefinitionStore(b, { pushed });
    expect(feed.listening()).toBe(true);
    const before = (await reader.head(demo))?.definitionVersion ?? 0;
    expect(
      await writer.commit(demo, {
        expectedDefinitionVersion: before,
        objects: [],
        activation: activation(before + 1),
      }),
    ).toBe('committed');
    await expect
      .poll(() => notices.map((n) => n.definitionVersion), { timeout: 10_000 })
      .toContain(before + 1);
    expect(notices.at(-1)).toEqual({
      tenant: demo,
      definitionVersion: before + 1,
      versionId: activation(before + 1).versionId,
    });
    const checks = checksMade(b);
    expect((await reader.head(demo))?.definitionVersion).toBe(before + 1);
    expect((await reader.head(demo))?.definitionVersion).toBe(before + 1);
    // The push, not the per-request counter, kept those reads exact.
    expect(checksMade(b)).toBe(checks);

    // Its own write is seen by its own next read at once, before its notification comes back.
    expect(
      await reader.commit(demo, {
        expectedDefinitionVersion: before + 1,
        objects: [],
        activation: activation(before + 2),
      }),
    ).toBe('committed');
    expect((await reader.head(demo))?.definitionVersion).toBe(before + 2);
  });

  it('falls back to the per-request check while the listener is down (pg_terminate_backend), then resumes the push', async () => {
    const { feed, notices, pushed } = await feedOnB();
    const writer = createSqliteDefinitionStore(a);
    const reader = createSqliteDefinitionStore(b, { pushed });
    const start = (await reader.head(demo))?.definitionVersion ?? 0;
    await killListeners();
    await expect.poll(() => feed.listening(), { timeout: 10_000 }).toBe(false);
    expect(pushed.live()).toBe(false);
    await writer.commit(demo, {
      expectedDefinitionVersion: start,
      objects: [],
      activation: activation(start + 1),
    });
    // No notification can arrive now: the next read checks the counter and sees the new version.
    const checks = checksMade(b);
    expect((await reader.head(demo))?.definitionVersion).toBe(start + 1);
    expect(checksMade(b)).toBeGreaterThan(checks);

    await expect.poll(() => feed.listening(), { timeout: 15_000 }).toBe(true);
    expect(feed.connections()).toBe(2);
    await writer.commit(demo, {
      expectedDefinitionVersion: start + 1,
      objects: [],
      activation: activation(start + 2),
    });
    await expect
      .poll(() => notices.map((n) => n.definitionVersion), { timeout: 10_000 })
      .toContain(start + 2);
    expect((await reader.head(demo))?.definitionVersion).toBe(start + 2);
  });

  it('wakes the other replica when a delivery is owed, at commit and once per transaction (migration 016)', async () => {
    let owed = 0;
    const feed = await startChangeFeed({
      url: database.url,
      db: b,
      onErased: () => {},
      onDeliveriesOwed: () => owed++,
      pollMs: 3_600_000,
    });
    feeds.push(feed);
    const row = (id: string) => ({
      id,
      tenant: 'demo',
      target_kind: 'push',
      target_id: 'cfg-1',
      task_id: 'task-1',
      event: 'input-required',
      body: '{}',
      state: 'pending',
      attempts: 0,
      due_ms: Date.now(),
      created_at: new Date().toISOString(),
    });
    await a.transaction().execute(async (trx) => {
      await trx
        .insertInto('delivery_outbox')
        .values([row(`d-${Date.now()}-1`), row(`d-${Date.now()}-2`)])
        .execute();
      await new Promise((r) => setTimeout(r, 300));
      expect(owed).toBe(0); // not before the commit
    });
    await expect.poll(() => owed, { timeout: 10_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(owed).toBe(1);
  });
});
