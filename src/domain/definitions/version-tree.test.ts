// Invariant: a version's id depends only on its content, and a change writes only the objects on its changed path (§10.3).
import { describe, expect, it } from 'vitest';
import type { EntryContent } from '../learnables/index.ts';
import { sha256Hex } from './content-address.ts';
import { createObjectCache, createObjectReader, type ObjectReader } from './object-cache.ts';
import {
  buildVersion,
  EMPTY_VERSION_ID,
  LEAF_MAX,
  loadDefinition,
  type EntryChange,
} from './version-tree.ts';

/** An object store as a Map, counting what is fetched from it. */
function memoryObjects() {
  const bodies = new Map<string, string>();
  let fetched = 0;
  const reader = (cache = createObjectCache()): ObjectReader =>
    createObjectReader((hashes) => {
      fetched += hashes.length;
      const out = new Map<string, string>();
      for (const h of hashes) {
        const b = bodies.get(h);
        if (b !== undefined) out.set(h, b);
      }
      return Promise.resolve(out);
    }, cache);
  return {
    bodies,
    reader,
    put(objects: readonly { hash: string; body: string }[]) {
      for (const o of objects) bodies.set(o.hash, o.body);
    },
    get fetched() {
      return fetched;
    },
    resetCount() {
      fetched = 0;
    },
  };
}

const entry = (i: number, extra = ''): EntryContent => ({ label: `Customer ${i}${extra}`, n: i });
const change = (i: number, extra = ''): EntryChange => ({
  collection: 'c',
  entry: `e${i}`,
  content: entry(i, extra),
});

describe('version tree', () => {
  it('gives the same versionId to the same content however it was reached (§10.3)', async () => {
    const m = memoryObjects();
    const r = m.reader();
    const all = Array.from({ length: 300 }, (_, i) => change(i));
    const atOnce = await buildVersion(null, all, r);

    let v: string | null = null;
    for (const c of [...all].reverse()) {
      const b = await buildVersion(v, [c], r);
      m.put(b.objects);
      v = b.versionId;
    }
    expect(v).toBe(atOnce.versionId);
    expect(atOnce.versionId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(atOnce.versionId).toBe(`sha256:${atOnce.rootHash}`);
    expect(sha256Hex(atOnce.objects.find((o) => o.hash === atOnce.rootHash)!.body)).toBe(atOnce.rootHash);
  });

  it('collapses a split node back into a leaf, so removing what was added restores the earlier id (§10.3)', async () => {
    const m = memoryObjects();
    const r = m.reader();
    const small = await buildVersion(
      null,
      Array.from({ length: LEAF_MAX }, (_, i) => change(i)),
      r,
    );
    m.put(small.objects);
    const grown = await buildVersion(small.versionId, [change(LEAF_MAX), change(LEAF_MAX + 1)], r);
    m.put(grown.objects);
    expect(grown.versionId).not.toBe(small.versionId);
    const shrunk = await buildVersion(
      grown.versionId,
      [
        { collection: 'c', entry: `e${LEAF_MAX}`, content: null },
        { collection: 'c', entry: `e${LEAF_MAX + 1}`, content: null },
      ],
      r,
    );
    expect(shrunk.versionId).toBe(small.versionId);
    const emptied = await buildVersion(
      small.versionId,
      Array.from({ length: LEAF_MAX }, (_, i) => ({ collection: 'c', entry: `e${i}`, content: null })),
      r,
    );
    expect(emptied.versionId).toBe(EMPTY_VERSION_ID);
  });

  it('writes only the changed path and shares every other object with the previous version (§10.3)', async () => {
    const m = memoryObjects();
    const base = await buildVersion(
      null,
      Array.from({ length: 5000 }, (_, i) => change(i)),
      m.reader(),
    );
    m.put(base.objects);
    expect(base.objects.length).toBeGreaterThan(5000);

    const next = await buildVersion(base.versionId, [change(42, ' (renamed)')], m.reader());
    // entry + at most 3 tree levels for 5,000 entries + root
    expect(next.objects.length).toBeLessThanOrEqual(5);
    const fresh = next.objects.filter((o) => !m.bodies.has(o.hash));
    expect(fresh.length).toBe(next.objects.length);
  });

  it('loads a version after a change fetching only the changed objects through the cache', async () => {
    const m = memoryObjects();
    const base = await buildVersion(
      null,
      Array.from({ length: 2000 }, (_, i) => change(i)),
      m.reader(),
    );
    m.put(base.objects);
    const cache = createObjectCache();
    const d1 = await loadDefinition(base.versionId, m.reader(cache));
    expect(d1.collections.get('c')!.size).toBe(2000);

    const next = await buildVersion(base.versionId, [change(7, '!')], m.reader());
    m.put(next.objects);
    m.resetCount();
    const d2 = await loadDefinition(next.versionId, m.reader(cache));
    expect(m.fetched).toBe(next.objects.length);
    expect(d2.collections.get('c')!.get('e7')).toEqual(entry(7, '!'));
    expect(d1.collections.get('c')!.get('e7')).toEqual(entry(7));
  });

  it('returns deep-frozen definitions (§10.3: nothing is modified in place)', async () => {
    const m = memoryObjects();
    const v = await buildVersion(null, [change(1)], m.reader());
    m.put(v.objects);
    const d = await loadDefinition(v.versionId, m.reader());
    const content = d.collections.get('c')!.get('e1')!;
    expect(Object.isFrozen(content)).toBe(true);
    expect(Object.isFrozen(d)).toBe(true);
    expect(() => {
      (content as Record<string, unknown>)['label'] = 'changed';
    }).toThrow();
  });

  it('refuses a body that does not hash to its address (a torn object is never read)', async () => {
    const m = memoryObjects();
    const v = await buildVersion(null, [change(1)], m.reader());
    m.put(v.objects);
    const victim = v.objects.find((o) => o.hash !== v.rootHash)!;
    m.bodies.set(victim.hash, victim.body.slice(0, -2));
    await expect(loadDefinition(v.versionId, m.reader())).rejects.toThrow(/do not match their hash/);
  });
});
