// Invariant (issue 15): one matcher cache serves every tenant of a process within a byte budget.
// Least recently used versions, whichever tenant they belong to, leave until the estimated bytes
// held (each compiled matcher once, however many versions run it) are within the budget; the
// version just used stays; an evicted tenant's version compiles again on its next use and matches
// exactly as before (§10.3: a version id names its content), and a recently used one is not evicted.
import { describe, expect, it } from 'vitest';
import { mail } from '../../../test/support/definitions.ts';
import { compileMatcher } from './compile-matcher.ts';
import { createNaiveMatcher } from './naive-matcher.ts';
import { createMatcherCache } from './matcher-cache.ts';
import type { VersionMarks } from './layered-matcher.ts';
import type { Mark, Matcher } from './matcher.ts';
import { createMatchingRuntime } from './matching-runtime.ts';

interface GroupedMark extends Mark {
  readonly group: string;
}

/** A tenant's version: an id and its customers' sources (one group each), in order. */
interface Version {
  readonly id: string;
  readonly groups: ReadonlyMap<string, readonly string[]>;
}

const versions: VersionMarks<Version, GroupedMark> = {
  versionId: (v) => v.id,
  marks: (v, only) =>
    [...v.groups]
      .filter(([group]) => only === undefined || only.has(group))
      .flatMap(([group, sources]) => sources.map((source) => ({ source, parts: ['from'] as const, group }))),
  groups: (v) => v.groups.keys(),
  groupOf: (mark) => mark.group,
  changed: (from, to) =>
    [...new Set([...from.groups.keys(), ...to.groups.keys()])].filter(
      (g) => JSON.stringify(from.groups.get(g)) !== JSON.stringify(to.groups.get(g)),
    ),
};

/** Tenant t's version with `customers` customers, one mark each on its own domain. */
const tenantVersion = (t: number, customers: number, suffix = ''): Version => ({
  id: `t${t}:v1${suffix}`,
  groups: new Map(
    Array.from({ length: customers }, (_, i) => [`c${i}`, [`@t${t}c${i}${suffix}\\.example`]] as const),
  ),
});

const from = (address: string) => mail({ from: { address, name: '' }, body: 'Pre-alert for the shipment.' });
const hits = (m: Matcher, address: string): string[] =>
  m.match(from(address)).map((h) => `${h.mark.source}|${h.part}|${h.text}`);

/** 100 bytes a mark: budgets in the tests below are counts of marks. */
const sizeOf = (m: Matcher): number => m.markCount * 100;

describe('MatcherCache budget across tenants (issue 15)', () => {
  it('evicts the least recently used tenants first until the bytes held are within the budget', () => {
    let compiles = 0;
    const cache = createMatcherCache({
      budgetBytes: 3 * 10 * 100, // three tenants of ten marks
      sizeOf,
      versions,
      compile: (marks: readonly GroupedMark[]) => {
        compiles++;
        return compileMatcher(marks);
      },
    });
    for (let t = 0; t < 3; t++) cache.forVersion(tenantVersion(t, 10));
    expect(cache.versions()).toEqual(['t0:v1', 't1:v1', 't2:v1']);
    expect(cache.stats()).toMatchObject({ versions: 3, bytes: 3000, budgetBytes: 3000, evictions: 0 });

    cache.forVersion(tenantVersion(0, 10)); // t0 used again: t1 is now the least recently used
    cache.forVersion(tenantVersion(3, 10));
    expect(cache.versions()).toEqual(['t2:v1', 't0:v1', 't3:v1']);
    expect(cache.stats()).toMatchObject({ bytes: 3000, evictions: 1 });

    // A tenant three times larger takes the room of all three others.
    cache.forVersion(tenantVersion(4, 30));
    expect(cache.versions()).toEqual(['t4:v1']);
    expect(cache.stats()).toMatchObject({ bytes: 3000, evictions: 4 });
    expect(compiles).toBe(5);
  });

  it('keeps the version just used even when it alone is over the budget', () => {
    const cache = createMatcherCache({ budgetBytes: 500, sizeOf, versions });
    cache.forVersion(tenantVersion(0, 3));
    const big = cache.forVersion(tenantVersion(1, 20));
    expect(cache.versions()).toEqual(['t1:v1']);
    expect(hits(big, 'ops@t1c19.example')).toEqual(['@t1c19\\.example|from|@t1c19.example']);
  });

  it('counts a base once however many of its layers are cached, and lets it go with the last of them', () => {
    const cache = createMatcherCache({ budgetBytes: 2 * 10 * 100 + 100, sizeOf, versions });
    const v1 = tenantVersion(0, 10);
    cache.forVersion(v1);
    const v2: Version = { id: 't0:v2', groups: new Map([...v1.groups, ['new', ['@fresh\\.example']]]) };
    cache.forVersion(v2); // layered: the base (10 marks) plus an overlay of one
    expect(cache.stats().bytes).toBe(1000 + 100);
    cache.forVersion(tenantVersion(1, 10));
    expect(cache.stats()).toMatchObject({ versions: 3, bytes: 2100, evictions: 0 });
    cache.forVersion(tenantVersion(2, 10)); // over: t0's versions leave, and their base with them
    expect(cache.versions()).toEqual(['t1:v1', 't2:v1']);
    expect(cache.stats()).toMatchObject({ bytes: 2000, evictions: 2 });
  });

  it('serves a round robin of tenants within the budget with their own estimates, each matching as re2 does after eviction', async () => {
    const runtime = createMatchingRuntime();
    const tenants = Array.from({ length: 12 }, (_, t) => tenantVersion(t, 40));
    // Real estimates (matcher-bytes.ts): room for about four tenants.
    const one = compileMatcher(versions.marks(tenants[0]!)).approxBytes();
    const budgetBytes = Math.floor(4.5 * one);
    const cache = createMatcherCache({ budgetBytes, versions, runtime });
    for (let round = 0; round < 3; round++)
      for (const [t, v] of tenants.entries()) {
        const m = await cache.matcherFor(v);
        const address = `ops@t${t}c${(round * 7) % 40}.example`;
        expect(hits(m, address)).toEqual(hits(createNaiveMatcher(versions.marks(v)), address));
        expect(hits(m, address)).toHaveLength(1);
        expect(cache.stats().bytes).toBeLessThanOrEqual(budgetBytes);
      }
    expect(cache.stats().versions).toBe(4);
    expect(cache.stats().evictions).toBe(3 * 12 - 4);
  });

  it('refuses a budget that is not a number of bytes above 0, and a cache with no bound', () => {
    expect(() => createMatcherCache({ budgetBytes: 0, versions })).toThrow(/budgetBytes .*above 0, got 0/);
    expect(() => createMatcherCache({ budgetBytes: Number.NaN, versions })).toThrow(/budgetBytes/);
    expect(() => createMatcherCache({ versions })).toThrow(/maxVersions, budgetBytes or both/);
  });
});
