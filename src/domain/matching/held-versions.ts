/**
 * What the matcher cache (matcher-cache.ts) holds: each version's matcher, least recently used
 * first, and the base later versions layer over (`latest`). A compiled matcher is counted once
 * however many holders run it (a layer shares its base), and leaves with its last holder. Least
 * recently used versions leave until within `maxVersions` and `budgetBytes`; the newest stays.
 *
 * Owns: holding, counting and evicting. Does not own: compiling or layering (the cache).
 */
import type { LayeredMatcher } from './layered-matcher.ts';
import type { Mark, Matcher } from './matcher.ts';
import type { SourceTest } from './matching-runtime.ts';

interface Entry<M extends Mark> {
  readonly matcher: Matcher<M>;
  /** The marks of each compile the matcher runs (see LayeredMatcher.compiledFrom). */
  readonly from: readonly (readonly M[])[];
  /** The compiled matchers it runs (see LayeredMatcher.parts). */
  readonly parts: readonly Matcher<M>[];
}

export interface HeldVersions<V, M extends Mark> {
  /** The matcher held for `versionId`, made the most recently used; undefined when none. */
  fresh(versionId: string): Matcher<M> | undefined;
  /** The matcher held for `versionId`, its place unchanged. */
  peek(versionId: string): Matcher<M> | undefined;
  /** Holds `matcher` for `versionId` (replacing one held), then evicts to stay within bounds. */
  remember(
    versionId: string,
    matcher: Matcher<M>,
    from: readonly (readonly M[])[],
    parts: readonly Matcher<M>[],
  ): void;
  /** The base later versions layer over, or null. */
  latest(): LayeredMatcher<V, M> | null;
  setLatest(layered: LayeredMatcher<V, M> | null): void;
  drop(versionId: string): void;
  /** Drops every version whose marks `mentions` (null: everything). */
  forgetMentioning(mentions: SourceTest | null): void;
  ids(): string[];
  /** Estimated bytes of these versions' matchers, each part once. */
  bytesOf(versionIds: Iterable<string>): number;
  bytes(): number;
  count(): number;
  evictions(): number;
}

const mentionedIn = <M extends Mark>(from: readonly (readonly M[])[], mentions: SourceTest): boolean =>
  from.some((marks) => marks.some((mark) => mentions(mark.source)));

export function createHeldVersions<V, M extends Mark>(bounds: {
  readonly maxVersions: number;
  readonly budgetBytes: number;
  readonly sizeOf: (matcher: Matcher<M>) => number;
}): HeldVersions<V, M> {
  const { maxVersions, budgetBytes, sizeOf } = bounds;
  const cache = new Map<string, Entry<M>>();
  let latest: LayeredMatcher<V, M> | null = null;
  let evictions = 0;
  /** Compiled matchers held, by how many holders (cache entries and `latest`) run them. */
  const held = new Map<Matcher<M>, number>();
  const hold = (parts: readonly Matcher<M>[], by: 1 | -1): void => {
    for (const part of parts) {
      const n = (held.get(part) ?? 0) + by;
      if (n > 0) held.set(part, n);
      else held.delete(part);
    }
  };
  const setLatest = (layered: LayeredMatcher<V, M> | null): void => {
    if (latest !== null) hold(latest.parts, -1);
    latest = layered;
    if (latest !== null) hold(latest.parts, 1);
  };
  const drop = (versionId: string): void => {
    const entry = cache.get(versionId);
    if (entry === undefined) return;
    cache.delete(versionId);
    hold(entry.parts, -1);
    // The base later versions layer over goes with the last version that ran it.
    if (latest !== null && latest.parts.every((part) => !held.has(part) || held.get(part) === 1))
      setLatest(null);
  };
  const heldBytes = (): number => {
    let bytes = 0;
    for (const part of held.keys()) bytes += sizeOf(part);
    return bytes;
  };
  const evict = (): void => {
    while (cache.size > maxVersions) {
      drop(cache.keys().next().value as string);
      evictions++;
    }
    if (budgetBytes === Number.POSITIVE_INFINITY) return;
    let bytes = heldBytes();
    while (bytes > budgetBytes && cache.size > 1) {
      const oldest = cache.keys().next().value as string;
      const before = new Set(held.keys());
      drop(oldest);
      evictions++;
      for (const part of before) if (!held.has(part)) bytes -= sizeOf(part);
    }
  };
  return {
    fresh(versionId) {
      const cached = cache.get(versionId);
      if (cached !== undefined) {
        cache.delete(versionId);
        cache.set(versionId, cached);
      }
      return cached?.matcher;
    },
    peek: (versionId) => cache.get(versionId)?.matcher,
    remember(versionId, matcher, from, parts) {
      drop(versionId);
      cache.set(versionId, { matcher, from, parts });
      hold(parts, 1);
      evict();
    },
    latest: () => latest,
    setLatest,
    drop,
    forgetMentioning(mentions) {
      if (mentions === null) {
        cache.clear();
        held.clear();
        latest = null;
        return;
      }
      for (const [id, entry] of [...cache]) if (mentionedIn(entry.from, mentions)) drop(id);
      if (latest !== null && mentionedIn(latest.compiledFrom, mentions)) setLatest(null);
    },
    ids: () => [...cache.keys()],
    bytesOf(versionIds) {
      const parts = new Set<Matcher<M>>();
      for (const id of versionIds) for (const part of cache.get(id)?.parts ?? []) parts.add(part);
      let bytes = 0;
      for (const part of parts) bytes += sizeOf(part);
      return bytes;
    },
    bytes: heldBytes,
    count: () => cache.size,
    evictions: () => evictions,
  };
}
