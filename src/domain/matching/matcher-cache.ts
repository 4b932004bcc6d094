/**
 * Compiled matchers by version (§13.3): a version's matcher is compiled on its first use and kept,
 * least recently used first out; a version that is never used is never compiled. A version id
 * names immutable content (to triage, the sha256 of a definition's canonical form), so an entry
 * never goes stale. On a miss, a version is layered over the last full compile when few of its
 * groups changed since (layered-matcher.ts), so a lesson takes effect without recompiling the rest.
 *
 * One cache serves every tenant of a process, so what bounds it is a byte budget across
 * all of them: each compiled matcher's estimated bytes (matcher-bytes.ts, its `approxBytes()`),
 * counted once however many cached versions share it (a layer shares its base), and least recently
 * used versions leave until the total is within `budgetBytes`. The version just used always stays,
 * even alone over the budget (a tenant larger than the budget is still served). An evicted version
 * is compiled again on its next use, reading its tenant's kept analyses, and reads exactly as
 * before (its id names its content: §10.3).
 *
 * Owns: caching, the budget (held-versions.ts), layering decisions and forgetting (what its runtime
 * is told to forget). Does not own: compiling (compile-matcher.ts), estimating bytes (matcher-bytes.ts), or
 * what a version is and which of its groups changed (the caller's {@link VersionMarks}).
 */
import {
  compileMatcher,
  compileMatcherAsync,
  type CompiledMatcher,
  type StoredAnalyses,
} from './compile-matcher.ts';
import {
  baseLayer,
  changedSinceBase,
  layerOver,
  type LayeredMatcher,
  type VersionMarks,
} from './layered-matcher.ts';
import { MATCHER_BASE_BYTES } from './matcher-bytes.ts';
import type { Mark, Matcher } from './matcher.ts';
import { createMatchingRuntime, type MatchingRuntime } from './matching-runtime.ts';
import { createHeldVersions } from './held-versions.ts';

export interface MatcherCacheOptions<V, M extends Mark> {
  /** Most versions kept compiled at once (at least 1); default no count (the budget bounds them). */
  readonly maxVersions?: number;
  /**
   * Most bytes of compiled matchers kept at once, estimated (matcher-bytes.ts), across every
   * version and tenant served (more than 0); default no limit. Give this, `maxVersions` or both.
   */
  readonly budgetBytes?: number;
  /** A compiled matcher's bytes; default its `approxBytes()`, else {@link fallbackBytes}. */
  readonly sizeOf?: (matcher: Matcher<M>) => number;
  /** The caller's versions as grouped marks. */
  readonly versions: VersionMarks<V, M>;
  /** What compiles keep between calls; default a runtime of the cache's own. */
  readonly runtime?: MatchingRuntime;
  /** How to compile; default `compileMatcher` over the runtime (tests and benchmarks may count calls). */
  readonly compile?: (marks: readonly M[]) => Matcher<M>;
  /** How `prepare` compiles; default `compileMatcherAsync` over the runtime (in slices, without blocking the event loop). */
  readonly compileAsync?: (marks: readonly M[], stored?: StoredAnalyses) => Promise<Matcher<M>>;
  /**
   * How many groups may differ from the last full compile before a new version is compiled in
   * full again rather than layered over it (layered-matcher.ts). Default 256.
   */
  readonly maxLayeredEntries?: number;
}

/**
 * One tenant's kept regex analyses (mark-analysis.ts) for a full compile: read before it, and what
 * it had to analyse written after it, so the next process need not analyse them again.
 */
export interface AnalysisKeeping {
  load(): Promise<ReadonlyMap<string, string>>;
  save(analyses: ReadonlyMap<string, string>): Promise<void>;
}

export interface MatcherCache<V, M extends Mark> {
  /** The matcher for `versionId`, compiling `marks()` only when it is not cached. */
  get(versionId: string, marks: () => readonly M[]): Matcher<M>;
  /**
   * The matcher for a version: cached by its id; on a miss, layered over the most recently built
   * version (only the groups changed since its full compile are compiled). Exact: the same hits
   * as a full compile.
   */
  forVersion(version: V): Matcher<M>;
  /**
   * The matcher for a version without blocking the event loop for long: cached, or
   * layered over the last full compile when few groups changed (a small compile, as `forVersion`),
   * else compiled in full in slices (`prepare`). Concurrent calls for one version share one
   * compile. What a server calls per task.
   */
  matcherFor(version: V, keeping?: AnalysisKeeping): Promise<Matcher<M>>;
  /**
   * Compiles a version's matcher in full without blocking the event loop, caches it and
   * makes it the base later versions layer over. With `keeping`, the compile reads the analyses
   * kept there and keeps those it had to make.
   */
  prepare(version: V, keeping?: AnalysisKeeping): Promise<Matcher<M>>;
  /** Versions currently compiled, least recently used first. */
  readonly versions: () => readonly string[];
  /** What the cache holds now and has evicted (metrics, benchmarks). */
  stats(): MatcherCacheStats;
  /** Estimated bytes of the compiled matchers these versions run, each counted once (one tenant's). */
  bytesOf(versionIds: Iterable<string>): number;
  /** Drops these versions (a tenant forgotten whole); each compiles again on its next use. */
  forget(versionIds: Iterable<string>): void;
}

export interface MatcherCacheStats {
  readonly versions: number;
  /** Estimated bytes of the compiled matchers held (each counted once). */
  readonly bytes: number;
  /** The budget, or null when only `maxVersions` bounds the cache. */
  readonly budgetBytes: number | null;
  /** Versions dropped to stay within the budget or `maxVersions` since the cache was made. */
  readonly evictions: number;
}

/** Bytes of a matcher that does not estimate its own: the per-mark cost of a large directory (matcher-bytes.ts). */
export const fallbackBytes = (matcher: Matcher): number => MATCHER_BASE_BYTES + matcher.markCount * 1024;

const ownBytes = (matcher: Matcher): number => {
  const approx = (matcher as Partial<CompiledMatcher>).approxBytes;
  return typeof approx === 'function' ? approx.call(matcher) : fallbackBytes(matcher);
};

export function createMatcherCache<V, M extends Mark>(
  options: MatcherCacheOptions<V, M>,
): MatcherCache<V, M> {
  const { maxVersions, budgetBytes } = boundsOf(options);
  const sizeOf = options.sizeOf ?? ownBytes;
  const { versions } = options;
  const runtime = options.runtime ?? createMatchingRuntime();
  const compile = options.compile ?? ((marks) => compileMatcher(marks, { runtime }));
  const compileKeeping = keepingCompile<M>(
    options.compileAsync ??
      ((marks, stored) =>
        compileMatcherAsync(marks, stored === undefined ? { runtime } : { runtime, stored })),
  );
  const maxLayered = options.maxLayeredEntries ?? 256;
  const held = createHeldVersions<V, M>({ maxVersions, budgetBytes, sizeOf });
  const preparing = new Map<string, Promise<Matcher<M>>>();
  /** Bumped by each forget: a compile that began before one does not cache what it made. */
  let generation = 0;
  runtime.onForget((mentions) => {
    generation++;
    held.forgetMentioning(mentions);
  });
  const rememberLayer = (layered: LayeredMatcher<V, M>): LayeredMatcher<V, M> => {
    held.setLatest(layered);
    held.remember(versions.versionId(layered.version), layered, layered.compiledFrom, layered.parts);
    return layered;
  };
  /** A layer over the last full compile when few groups changed since it; null when a full compile is due. */
  const smallLayer = (version: V): LayeredMatcher<V, M> | null => {
    const latest = held.latest();
    if (latest === null) return null;
    const changed = changedSinceBase(latest, version, versions);
    // Decided before compiling anything: a large change is compiled in full once, not twice. Nor
    // is a version layered over a base it shares less than half its groups with (another tenant's,
    // most often): the overlay would be most of a compile, and keep that base alive besides.
    if (changed.size > maxLayered) return null;
    let groups = 0;
    for (const _ of versions.groups(version)) groups++;
    return changed.size * 2 > groups ? null : layerOver(latest, version, versions, compile, changed);
  };
  const fullLayer = (version: V): LayeredMatcher<V, M> => {
    const marks = versions.marks(version);
    return baseLayer(version, compile(marks), marks);
  };
  const self: MatcherCache<V, M> = {
    forVersion(version) {
      const cached = held.fresh(versions.versionId(version));
      if (cached !== undefined) return cached;
      return rememberLayer(smallLayer(version) ?? fullLayer(version));
    },
    async matcherFor(version, keeping) {
      const versionId = versions.versionId(version);
      const cached = held.fresh(versionId);
      if (cached !== undefined) return cached;
      if (!preparing.has(versionId)) {
        const layered = smallLayer(version);
        if (layered !== null) return rememberLayer(layered);
      }
      return self.prepare(version, keeping);
    },
    prepare(version, keeping) {
      const versionId = versions.versionId(version);
      const cached = held.peek(versionId);
      if (cached !== undefined) return Promise.resolve(cached);
      let pending = preparing.get(versionId);
      if (pending === undefined) {
        const startedIn = generation;
        const marks = versions.marks(version);
        pending = compileKeeping(marks, keeping)
          .then((matcher) => {
            // forVersion may have compiled this version while the slices ran: keep that one.
            const meanwhile = held.peek(versionId);
            if (meanwhile !== undefined) return meanwhile;
            const layered = baseLayer(version, matcher, marks);
            return startedIn === generation ? rememberLayer(layered) : layered;
          })
          .finally(() => preparing.delete(versionId));
        preparing.set(versionId, pending);
      }
      return pending;
    },
    get(versionId, marks) {
      const cached = held.fresh(versionId);
      if (cached !== undefined) return cached;
      const list = marks();
      const matcher = compile(list);
      held.remember(versionId, matcher, [list], [matcher]);
      return matcher;
    },
    versions: () => held.ids(),
    bytesOf: (versionIds) => held.bytesOf(versionIds),
    forget(versionIds) {
      for (const id of versionIds) held.drop(id);
    },
    stats: () => ({
      versions: held.count(),
      bytes: held.bytes(),
      budgetBytes: budgetBytes === Number.POSITIVE_INFINITY ? null : budgetBytes,
      evictions: held.evictions(),
    }),
  };
  return self;
}

/** The cache's bounds, checked: a count, a byte budget or both. */
function boundsOf(options: Pick<MatcherCacheOptions<unknown, Mark>, 'maxVersions' | 'budgetBytes'>): {
  maxVersions: number;
  budgetBytes: number;
} {
  const { maxVersions = Number.POSITIVE_INFINITY, budgetBytes = Number.POSITIVE_INFINITY } = options;
  if (options.maxVersions === undefined && options.budgetBytes === undefined)
    throw new RangeError('Give the matcher cache a bound: maxVersions, budgetBytes or both.');
  if (options.maxVersions !== undefined && (!Number.isInteger(maxVersions) || maxVersions < 1)) {
    throw new RangeError(`maxVersions must be a whole number of at least 1, got ${String(maxVersions)}.`);
  }
  if (options.budgetBytes !== undefined && !(budgetBytes > 0 && Number.isFinite(budgetBytes))) {
    throw new RangeError(`budgetBytes must be a number of bytes above 0, got ${String(budgetBytes)}.`);
  }
  return { maxVersions, budgetBytes };
}

/** A full compile in slices, through `keeping` when given. */
function keepingCompile<M extends Mark>(
  compileAsync: (marks: readonly M[], stored?: StoredAnalyses) => Promise<Matcher<M>>,
): (marks: readonly M[], keeping: AnalysisKeeping | undefined) => Promise<Matcher<M>> {
  return async (marks, keeping) => {
    if (keeping === undefined) return compileAsync(marks);
    // Kept analyses only save time: a store that fails to read or write costs a slower compile,
    // never the task (the task's own writes report a broken store).
    const known = await keeping.load().catch(() => new Map<string, string>());
    const made = new Map<string, string>();
    const matcher = await compileAsync(marks, {
      known,
      onAnalysed: (source, text) => made.set(source, text),
    });
    if (made.size > 0) await keeping.save(made).catch(() => undefined);
    return matcher;
  };
}
