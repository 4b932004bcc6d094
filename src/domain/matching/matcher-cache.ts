/**
 * Compiled matchers by definition version (§13.3): a version's matcher is compiled on its first use
 * and kept, least recently used first out; a version that is never used is never compiled. A
 * versionId names immutable content (sha256 of the canonical form), so an entry never goes stale.
 * It owns caching only; compiling is `compileMatcher`'s.
 */
import type { Definition } from '../definitions/definition.ts';
import type { Learnable } from '../learnables/learnable.ts';
import { compileMatcher, compileMatcherAsync, type StoredAnalyses } from './compile-matcher.ts';
import { definitionMarks } from '../triage/definition-marks.ts';
import { baseLayer, changedSinceBase, fullLayer, layerOver, type LayeredMatcher } from './layered-matcher.ts';
import type { IndexedMark, Matcher } from './matcher.ts';

export interface MatcherCacheOptions {
  /** Most versions kept compiled at once (at least 1). */
  readonly maxVersions: number;
  /** How to compile; default `compileMatcher` (tests and benchmarks may count calls). */
  readonly compile?: (marks: readonly IndexedMark[]) => Matcher;
  /** How `prepare` compiles; default `compileMatcherAsync` (in slices, without blocking the event loop). */
  readonly compileAsync?: (marks: readonly IndexedMark[], stored?: StoredAnalyses) => Promise<Matcher>;
  /**
   * How many entries may differ from the last full compile before a new version is compiled in
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

export interface MatcherCache {
  /** The matcher for `versionId`, compiling `marks()` only when it is not cached. */
  get(versionId: string, marks: () => readonly IndexedMark[]): Matcher;
  /**
   * The matcher for a definition version: cached by versionId; on a miss, layered over the most
   * recently built version (only the entries changed since its full compile are compiled), so a
   * lesson takes effect without recompiling the directory. Exact: the same hits as a full compile.
   */
  forDefinition(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
  ): Matcher;
  /**
   * The matcher for a definition version without blocking the event loop for long (issue 3): cached,
   * or layered over the last full compile when few entries changed (a small compile, as
   * `forDefinition`), else compiled in full in slices (`prepare`). Concurrent calls for one version
   * share one compile. What a server calls per task.
   */
  matcherFor(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
    keeping?: AnalysisKeeping,
  ): Promise<Matcher>;
  /**
   * Compiles a definition version's matcher in full without blocking the event loop (issue 3: a
   * large directory compiles off the event loop), caches it and makes it the base later versions
   * layer over; `forDefinition` then finds it. Call it when a version becomes active. With
   * `keeping`, the compile reads the analyses kept there and keeps those it had to make.
   */
  prepare(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
    keeping?: AnalysisKeeping,
  ): Promise<Matcher>;
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
  const compileAsync =
    options.compileAsync ??
    ((marks, stored) => compileMatcherAsync(marks, stored === undefined ? {} : { stored }));
  /** A full compile in slices, through `keeping` when given. */
  const compileKeeping = async (
    marks: readonly IndexedMark[],
    keeping: AnalysisKeeping | undefined,
  ): Promise<Matcher> => {
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
  const cache = new Map<string, Matcher>();
  let latest: LayeredMatcher | null = null;
  const preparing = new Map<string, Promise<Matcher>>();
  const remember = (versionId: string, matcher: Matcher): void => {
    cache.set(versionId, matcher);
    while (cache.size > options.maxVersions) cache.delete(cache.keys().next().value as string);
  };
  const cachedFresh = (versionId: string): Matcher | undefined => {
    const cached = cache.get(versionId);
    if (cached !== undefined) {
      cache.delete(versionId);
      cache.set(versionId, cached);
    }
    return cached;
  };
  /** A layer over the last full compile when few entries changed since it; null when a full compile is due. */
  const smallLayer = (
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
  ): LayeredMatcher | null => {
    if (latest === null) return null;
    const changed = changedSinceBase(latest, definition, learnables);
    // Decided before compiling anything: a large change is compiled in full once, not twice.
    return changed.size > maxLayered ? null : layerOver(latest, definition, learnables, compile, changed);
  };
  const cache_: MatcherCache = {
    forDefinition(definition, learnables) {
      const cached = cachedFresh(definition.versionId);
      if (cached !== undefined) return cached;
      const layered = smallLayer(definition, learnables) ?? fullLayer(definition, learnables, compile);
      latest = layered;
      remember(definition.versionId, layered);
      return layered;
    },
    async matcherFor(definition, learnables, keeping) {
      const cached = cachedFresh(definition.versionId);
      if (cached !== undefined) return cached;
      if (!preparing.has(definition.versionId)) {
        const layered = smallLayer(definition, learnables);
        if (layered !== null) {
          latest = layered;
          remember(definition.versionId, layered);
          return layered;
        }
      }
      return cache_.prepare(definition, learnables, keeping);
    },
    prepare(definition, learnables, keeping) {
      const cached = cache.get(definition.versionId);
      if (cached !== undefined) return Promise.resolve(cached);
      let pending = preparing.get(definition.versionId);
      if (pending === undefined) {
        pending = compileKeeping(definitionMarks(definition, learnables), keeping)
          .then((matcher) => {
            // forDefinition may have compiled this version while the slices ran: keep that one.
            const meanwhile = cache.get(definition.versionId);
            if (meanwhile !== undefined) return meanwhile;
            const layered = baseLayer(definition, matcher);
            latest = layered;
            remember(definition.versionId, layered);
            return layered;
          })
          .finally(() => preparing.delete(definition.versionId));
        preparing.set(definition.versionId, pending);
      }
      return pending;
    },
    get(versionId, marks) {
      const cached = cachedFresh(versionId);
      if (cached !== undefined) return cached;
      const matcher = compile(marks());
      remember(versionId, matcher);
      return matcher;
    },
    versions: () => [...cache.keys()],
  };
  return cache_;
}
