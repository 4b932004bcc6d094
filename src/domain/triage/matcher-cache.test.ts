// Invariant: a version's matcher is compiled once, on first use, and the cache stays within its bound (§13.3).
import { describe, expect, it } from 'vitest';
import { compileMatcher } from './compile-matcher.ts';
import type { IndexedMark, Matcher } from './matcher.ts';
import { createMatcherCache } from './matcher-cache.ts';

const provenance = { activation: 1, taughtBy: 'p1', at: '2026-01-01T00:00:00.000Z' };
const marks = (source: string): IndexedMark[] => [
  {
    collection: 'customers',
    entry: 'x',
    source,
    parts: ['subject'],
    mark: source,
    where: 'subject',
    provenance,
  },
];

describe('createMatcherCache (§13.3)', () => {
  it('compiles a version once and never compiles a version that is not used', () => {
    const compiled: number[] = [];
    const cache = createMatcherCache({
      maxVersions: 2,
      compile: (m): Matcher => {
        compiled.push(m.length);
        return compileMatcher(m);
      },
    });
    let loads = 0;
    const load = (): IndexedMark[] => {
      loads++;
      return marks('northgate');
    };
    const a = cache.get('v1', load);
    expect(cache.get('v1', load)).toBe(a);
    expect(loads).toBe(1);
    expect(compiled).toEqual([1]);
    expect(cache.versions()).toEqual(['v1']);
  });

  it('evicts the least recently used version beyond maxVersions', () => {
    let compiles = 0;
    const cache = createMatcherCache({
      maxVersions: 2,
      compile: (m) => {
        compiles++;
        return compileMatcher(m);
      },
    });
    cache.get('v1', () => marks('a1234'));
    cache.get('v2', () => marks('b1234'));
    cache.get('v1', () => marks('a1234'));
    cache.get('v3', () => marks('c1234'));
    expect(cache.versions()).toEqual(['v1', 'v3']);
    cache.get('v2', () => marks('b1234'));
    expect(compiles).toBe(4);
  });

  it('matches with the version it was asked for', () => {
    const cache = createMatcherCache({ maxVersions: 4 });
    const m = cache.get('v1', () => marks('gulftrade'));
    expect(m.markCount).toBe(1);
  });

  it('refuses a bound below one', () => {
    expect(() => createMatcherCache({ maxVersions: 0 })).toThrow(/maxVersions/);
  });
});
