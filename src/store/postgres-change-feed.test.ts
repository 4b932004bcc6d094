// Invariant (§14 across replicas): an erase signalled by one replica reaches every other replica's feed, by notification at once and by its counters after the listening connection was dropped; erasures from before a feed started are not replayed.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import { tenantId, type TenantId } from '../domain/tenant.ts';
import { openPostgres } from './postgres-database.ts';
import { eraseSignal, startEraseFeed, type EraseFeed } from './postgres-change-feed.ts';

describe('erase feed between replicas', () => {
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let a: Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let b: Kysely<any>;
  const feeds: EraseFeed[] = [];
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

  async function feedOnB(): Promise<{ feed: EraseFeed; seen: TenantId[] }> {
    const seen: TenantId[] = [];
    // A poll far beyond the test's patience: only the notification or the reconnect can deliver.
    const feed = await startEraseFeed({
      url: database.url,
      db: b,
      onErased: (t) => seen.push(t),
      pollMs: 600_000,
    });
    feeds.push(feed);
    return { feed, seen };
  }

  it('does not replay erasures from before it started, and delivers a new one by notification', async () => {
    await eraseSignal(a).erase(tenantId('old'), 'x@old.example');
    const { feed, seen } = await feedOnB();
    expect(feed.listening()).toBe(true);
    await eraseSignal(a).erase(tenantId('demo'), 'dana@warehouse.example');
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['demo']);
  });

  it('still sees an erase committed while its listening connection was down', async () => {
    const { feed, seen } = await feedOnB();
    const killed = await sql<{ ok: boolean }>`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and query = 'listen learnables_erased'`.execute(a);
    expect(killed.rows.length).toBeGreaterThan(0);
    await expect.poll(() => feed.listening(), { timeout: 10_000 }).toBe(false);
    await eraseSignal(a).erase(tenantId('acme'), 'sam@acme.example');
    await expect.poll(() => seen, { timeout: 15_000 }).toEqual(['acme']);
    await expect.poll(() => feed.listening(), { timeout: 10_000 }).toBe(true);
  });
});
