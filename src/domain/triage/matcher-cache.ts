/**
 * Compiled matchers by definition version (§13.3): a version's matcher is compiled on its first use
 * and kept, least recently used first out; a version that is never used is never compiled. A
 * versionId names immutable content (sha256 of the canonical form), so an entry never goes stale.
 * It owns caching only; compiling is `compileMatcher`'s.
 */
import { compileMatcher } from './compile-matcher.ts';
import type { IndexedMark, Matcher } from './matcher.ts';

export interface MatcherCacheOptions {
  /** Most versions kept compiled at once (at least 1). */
  readonly maxVersions: number;
  /** How to compile; default `compileMatcher` (tests and benchmarks may count calls). */
  readonly compile?: (marks: readonly IndexedMark[]) => Matcher;
}

export interface MatcherCache {
  /** The matcher for `versionId`, compiling `marks()` only when it is not cached. */
  get(versionId: string, marks: () => readonly IndexedMark[]): Matcher;
  /** Versions currently compiled, least recently used first. */
  readonly versions: () => readonly string[];
}

export function createMatcherCache(options: MatcherCacheOptions): MatcherCache {
  if (!Number.isInteger(options.maxVersions) || options.maxVersions < 1) {
    throw new RangeError(
      `maxVersions must be a whole number of at least 1, got ${String(options.maxVersions)}.`,
    );
  }
  const compile = options.compile ?? compileMatcher;
  const cache = new Map<string, Matcher>();
  return {
    get(versionId, marks) {
      const cached = cache.get(versionId);
      if (cached !== undefined) {
        cache.delete(versionId);
        cache.set(versionId, cached);
        return cached;
      }
      const matcher = compile(marks());
      cache.set(versionId, matcher);
      while (cache.size > options.maxVersions) cache.delete(cache.keys().next().value as string);
      return matcher;
    },
    versions: () => [...cache.keys()],
  };
}
