// Invariant: a dedupe key is claimed by exactly one caller until released or its lease runs out, and once done every later claim answers with the first task; mailbox places are per tenant.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { SqliteIngestStore } from './sqlite-ingest-store.ts';
import { tenantId } from '../domain/tenant.ts';

const T = tenantId('acme');
const OTHER = tenantId('other');
const source = { kind: 'webhook', name: 'postmark' } as const;

describe.each(STORE_ENGINES)('$name ingest store', ({ name }) => {
  const engine = useStoreEngine(name);
  let db: Kysely<unknown>;
  let now = 1_000_000;
  let store: SqliteIngestStore;

  beforeEach(async () => {
    db = await engine.fresh();
    now = 1_000_000;
    store = new SqliteIngestStore(db, { nowMs: () => now });
  });
  it('gives a key to the first claimer only, then answers done with its task', async () => {
    const first = await store.claim(T, 'mid:a@x', { source, leaseMs: 1000 });
    expect(first).toMatchObject({ kind: 'claimed', retaken: false });
    expect((await store.claim(T, 'mid:a@x', { source, leaseMs: 1000 })).kind).toBe('busy');
    if (first.kind !== 'claimed') throw new Error('unreachable');
    await store.complete(T, 'mid:a@x', first.claimId, { taskId: 't1', state: 'input-required' });
    expect(await store.claim(T, 'mid:a@x', { source, leaseMs: 1000 })).toEqual({
      kind: 'done',
      taskId: 't1',
      state: 'input-required',
    });
    now += 10_000; // a done row never expires
    expect((await store.claim(T, 'mid:a@x', { source, leaseMs: 1000 })).kind).toBe('done');
  });

  it('lets the next attempt claim after a release, and after an expired lease', async () => {
    const a = await store.claim(T, 'k', { source, leaseMs: 1000 });
    if (a.kind !== 'claimed') throw new Error('expected a claim');
    await store.release(T, 'k', a.claimId);
    const b = await store.claim(T, 'k', { source, leaseMs: 1000 });
    // After a release nobody holds it: no earlier holder to look after.
    expect(b).toMatchObject({ kind: 'claimed', retaken: false });
    now += 999;
    expect((await store.claim(T, 'k', { source, leaseMs: 1000 })).kind).toBe('busy');
    now += 1;
    const c = await store.claim(T, 'k', { source, leaseMs: 1000 });
    // Taken over from a holder whose lease ran out: it may have left a task (IngestStore.earlierTask).
    expect(c).toMatchObject({ kind: 'claimed', retaken: true });
    // the stale claimer's completion no longer counts; the new claimer's does
    if (b.kind !== 'claimed' || c.kind !== 'claimed') throw new Error('unreachable');
    await store.complete(T, 'k', b.claimId, { taskId: 'stale', state: 'completed' });
    expect((await store.claim(T, 'k', { source, leaseMs: 1000 })).kind).toBe('busy');
    await store.complete(T, 'k', c.claimId, { taskId: 'fresh', state: 'completed' });
    expect(await store.claim(T, 'k', { source, leaseMs: 1000 })).toMatchObject({
      kind: 'done',
      taskId: 'fresh',
    });
  });

  it('keeps keys and mailbox places apart per tenant', async () => {
    expect((await store.claim(T, 'k', { source, leaseMs: 1000 })).kind).toBe('claimed');
    expect((await store.claim(OTHER, 'k', { source, leaseMs: 1000 })).kind).toBe('claimed');
    expect(await store.getMailboxState(T, 'inbox')).toBeNull();
    await store.setMailboxState(T, 'inbox', { uidValidity: '42', lastUid: 7 });
    await store.setMailboxState(T, 'inbox', { uidValidity: '42', lastUid: 9 });
    expect(await store.getMailboxState(T, 'inbox')).toEqual({ uidValidity: '42', lastUid: 9 });
    expect(await store.getMailboxState(OTHER, 'inbox')).toBeNull();
  });
});
