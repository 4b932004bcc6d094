// Invariant (issue 15): a mailbox lease has one holder at a time on both engines: taken only when free, run out or already the caller's; renewed only by its holder, so a holder that was taken over learns it on its next renew; released only by its holder; kept apart per tenant; and of many replicas racing for a free lease exactly one wins.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { KyselyMailboxLeaseStore } from './mailbox-lease-store.ts';
import { tenantId } from '../domain/tenant.ts';

const T = tenantId('acme');
const OTHER = tenantId('other');
const BOX = 'ops-inbox';

describe.each(STORE_ENGINES)('$name mailbox lease store', ({ name }) => {
  const engine = useStoreEngine(name);
  let db: Kysely<unknown>;
  let now = 1_000_000;
  let store: KyselyMailboxLeaseStore;

  beforeEach(async () => {
    db = await engine.fresh();
    now = 1_000_000;
    store = new KyselyMailboxLeaseStore(db, { nowMs: () => now });
  });

  it('gives a free lease to the first replica and refuses the next while it is live', async () => {
    expect(await store.current(T, BOX)).toBeNull();
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
    expect(await store.current(T, BOX)).toEqual({ holder: 'replica-a', leaseUntilMs: now + 10_000 });
    now += 9_999;
    expect(await store.acquire(T, BOX, 'replica-b', 10_000)).toBe(false);
    expect((await store.current(T, BOX))?.holder).toBe('replica-a');
    // The holder asking again keeps it (a standby loop that already owns it).
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
  });

  it('lets a standby take a lease that ran out, and its old holder learns it on renew', async () => {
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
    now += 10_000;
    expect(await store.acquire(T, BOX, 'replica-b', 10_000)).toBe(true);
    expect(await store.renew(T, BOX, 'replica-a', 10_000)).toBe(false);
    expect(await store.renew(T, BOX, 'replica-b', 10_000)).toBe(true);
    expect(await store.current(T, BOX)).toEqual({ holder: 'replica-b', leaseUntilMs: now + 10_000 });
  });

  it('keeps a renewed lease from a standby past its first expiry', async () => {
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
    now += 3_000;
    expect(await store.renew(T, BOX, 'replica-a', 10_000)).toBe(true);
    now += 9_000; // past the first lease, inside the renewed one
    expect(await store.acquire(T, BOX, 'replica-b', 10_000)).toBe(false);
  });

  it('renews nothing that was never taken, and releases only for its holder', async () => {
    expect(await store.renew(T, BOX, 'replica-a', 10_000)).toBe(false);
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
    await store.release(T, BOX, 'replica-b');
    expect((await store.current(T, BOX))?.holder).toBe('replica-a');
    await store.release(T, BOX, 'replica-a');
    expect(await store.current(T, BOX)).toBeNull();
    // Released: a standby takes it at once, without waiting for the lease to run out.
    expect(await store.acquire(T, BOX, 'replica-b', 10_000)).toBe(true);
  });

  it('keeps leases apart per tenant and per mailbox', async () => {
    expect(await store.acquire(T, BOX, 'replica-a', 10_000)).toBe(true);
    expect(await store.acquire(OTHER, BOX, 'replica-b', 10_000)).toBe(true);
    expect(await store.acquire(T, 'other-box', 'replica-b', 10_000)).toBe(true);
    expect(await store.renew(OTHER, BOX, 'replica-a', 10_000)).toBe(false);
    await store.release(OTHER, BOX, 'replica-a');
    expect((await store.current(OTHER, BOX))?.holder).toBe('replica-b');
  });

  it('gives a free lease to exactly one of many replicas racing on their own connections', async () => {
    const replicas = await Promise.all(
      Array.from(
        { length: 4 },
        async () => new KyselyMailboxLeaseStore(await engine.connect(), { nowMs: () => now }),
      ),
    );
    for (let round = 0; round < 5; round++) {
      now += 20_000; // the last round's lease has run out: the lease is free again
      const won = await Promise.all(
        replicas.map((r, i) => r.acquire(T, BOX, `replica-${round}-${i}`, 10_000)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      const holder = (await store.current(T, BOX))?.holder;
      expect(holder).toBe(`replica-${round}-${won.indexOf(true)}`);
    }
  });
});
