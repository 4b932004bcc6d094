/**
 * Compiled matchers by version (§13.3): a version's matcher is compiled on its first use and kept,
 * least recently used first out; a version that is never used is never compiled. A version id
 * names immutable content (to triage, the sha256 of a definition's canonical form), so an entry
 * never goes stale. On a miss, a version is layered over the last full compile when few of its
 * groups changed since (layered-matcher.ts), so a lesson takes effect without recompiling the rest.
 *
 * Owns: caching, layering decisions and forgetting (what its runtime is told to forget). Does not
 * own: compiling (compile-matcher.ts), or what a version is and which of its groups changed (the
 * caller's {@link VersionMarks}).
 */
import { compileMatcher, compileMatcherAsync, type StoredAnalyses } from './compile-matcher.ts';
import {
  baseLayer,
  changedSinceBase,
  layerOver,
  type LayeredMatcher,
  type VersionMarks,
} from './layered-matcher.ts';
import type { Mark, Matcher } from './matcher.ts';
import { createMatchingRuntime, type MatchingRuntime, type SourceTest } from './matching-runtime.ts';

export interface MatcherCacheOptions<V, M extends Mark> {
  /** Most versions kept compiled at once (at least 1). */
  readonly maxVersions: number;
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
   * The matcher for a version without blocking the event loop for long (issue 3): cached, or
   * layered over the last full compile when few groups changed (a small compile, as `forVersion`),
   * else compiled in full in slices (`prepare`). Concurrent calls for one version share one
   * compile. What a server calls per task.
   */
  matcherFor(version: V, keeping?: AnalysisKeeping): Promise<Matcher<M>>;
  /**
   * Compiles a version's matcher in full without blocking the event loop (issue 3), caches it and
   * makes it the base later versions layer over. With `keeping`, the compile reads the analyses
   * kept there and keeps those it had to make.
   */
  prepare(version: V, keeping?: AnalysisKeeping): Promise<Matcher<M>>;
  /** Versions currently compiled, least recently used first. */
  readonly versions: () => readonly string[];
}

interface Entry<M extends Mark> {
  readonly matcher: Matcher<M>;
  /** The marks of each compile the matcher runs (see LayeredMatcher.compiledFrom). */
  readonly from: readonly (readonly M[])[];
}

const mentionedIn = <M extends Mark>(from: readonly (readonly M[])[], mentions: SourceTest): boolean =>
  from.some((marks) => marks.some((mark) => mentions(mark.source)));

export function createMatcherCache<V, M extends Mark>(
  options: MatcherCacheOptions<V, M>,
): MatcherCache<V, M> {
  if (!Number.isInteger(options.maxVersions) || options.maxVersions < 1) {
    throw new RangeError(
      `maxVersions must be a whole number of at least 1, got ${String(options.maxVersions)}.`,
    );
  }
  const { versions } = options;
  const runtime = options.runtime ?? createMatchingRuntime();
  const compile = options.compile ?? ((marks) => compileMatcher(marks, { runtime }));
  const compileAsync =
    options.compileAsync ??
    ((marks, stored) => compileMatcherAsync(marks, stored === undefined ? { runtime } : { runtime, stored }));
  /** A full compile in slices, through `keeping` when given. */
  const compileKeeping = async (
    marks: readonly M[],
    keeping: AnalysisKeeping | undefined,
  ): Promise<Matcher<M>> => {
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
  const maxLayered = options.maxLayeredEntries ?? 256;
  const cache = new Map<string, Entry<M>>();
  let latest: LayeredMatcher<V, M> | null = null;
  const preparing = new Map<string, Promise<Matcher<M>>>();
  /** Bumped by each forget: a compile that began before one does not cache what it made. */
  let generation = 0;
  runtime.onForget((mentions) => {
    generation++;
    if (mentions === null) {
      cache.clear();
      latest = null;
      return;
    }
    for (const [id, entry] of [...cache]) if (mentionedIn(entry.from, mentions)) cache.delete(id);
    if (latest !== null && mentionedIn(latest.compiledFrom, mentions)) latest = null;
  });
  const remember = (versionId: string, matcher: Matcher<M>, from: readonly (readonly M[])[]): void => {
    cache.set(versionId, { matcher, from });
    while (cache.size > options.maxVersions) cache.delete(cache.keys().next().value as string);
  };
  const rememberLayer = (layered: LayeredMatcher<V, M>): LayeredMatcher<V, M> => {
    latest = layered;
    remember(versions.versionId(layered.version), layered, layered.compiledFrom);
    return layered;
  };
  const cachedFresh = (versionId: string): Matcher<M> | undefined => {
    const cached = cache.get(versionId);
    if (cached !== undefined) {
      cache.delete(versionId);
      cache.set(versionId, cached);
    }
    return cached?.matcher;
  };
  /** A layer over the last full compile when few groups changed since it; null when a full compile is due. */
  const smallLayer = (version: V): LayeredMatcher<V, M> | null => {
    if (latest === null) return null;
    const changed = changedSinceBase(latest, version, versions);
    // Decided before compiling anything: a large change is compiled in full once, not twice.
    return changed.size > maxLayered ? null : layerOver(latest, version, versions, compile, changed);
  };
  const fullLayer = (version: V): LayeredMatcher<V, M> => {
    const marks = versions.marks(version);
    return baseLayer(version, compile(marks), marks);
  };
  const self: MatcherCache<V, M> = {
    forVersion(version) {
      const cached = cachedFresh(versions.versionId(version));
      if (cached !== undefined) return cached;
      return rememberLayer(smallLayer(version) ?? fullLayer(version));
    },
    async matcherFor(version, keeping) {
      const versionId = versions.versionId(version);
      const cached = cachedFresh(versionId);
      if (cached !== undefined) return cached;
      if (!preparing.has(versionId)) {
        const layered = smallLayer(version);
        if (layered !== null) return rememberLayer(layered);
      }
      return self.prepare(version, keeping);
    },
    prepare(version, keeping) {
      const versionId = versions.versionId(version);
      const cached = cache.get(versionId);
      if (cached !== undefined) return Promise.resolve(cached.matcher);
      let pending = preparing.get(versionId);
      if (pending === undefined) {
        const startedIn = generation;
        const marks = versions.marks(version);
        pending = compileKeeping(marks, keeping)
          .then((matcher) => {
            // forVersion may have compiled this version while the slices ran: keep that one.
            const meanwhile = cache.get(versionId);
            if (meanwhile !== undefined) return meanwhile.matcher;
            const layered = baseLayer(version, matcher, marks);
            return startedIn === generation ? rememberLayer(layered) : layered;
          })
          .finally(() => preparing.delete(versionId));
        preparing.set(versionId, pending);
      }
      return pending;
    },
    get(versionId, marks) {
      const cached = cachedFresh(versionId);
      if (cached !== undefined) return cached;
      const list = marks();
      const matcher = compile(list);
      remember(versionId, matcher, [list]);
      return matcher;
    },
    versions: () => [...cache.keys()],
  };
  return self;
}
