/**
 * A new version's matcher without recompiling every mark (§10.3 + issue 6, lesson to effect): a
 * lesson changes one group of marks (an entry, to triage), so the next version's matcher is the
 * last full compile (the base) with that group's hits replaced by a small matcher over the groups
 * that changed since. Exact by construction: base hits of changed groups are dropped, changed groups
 * are matched on their current marks, and hits are put back in the order a full compile gives
 * (group order, then each group's own mark and part order).
 *
 * Owns: layering matchers over a base. Does not own: what a version is, how its marks are grouped
 * or which groups changed (the caller's {@link VersionMarks}), compiling (compile-matcher.ts) or
 * caching by version (matcher-cache.ts).
 */
import type { Mark, MarkHit, Matcher } from './matcher.ts';

/**
 * The caller's view of its versions (V: a definition version, to triage) as grouped marks. A full
 * compile of a version compiles `marks(version)`, whose order is its groups' order.
 */
export interface VersionMarks<V, M extends Mark> {
  /** The version's id: equal ids name equal marks (a content address). */
  versionId(version: V): string;
  /** The version's marks in group order; with `groups`, only the marks of those groups. */
  marks(version: V, groups?: ReadonlySet<string>): readonly M[];
  /** The version's groups, in the order their marks come. */
  groups(version: V): Iterable<string>;
  /** The group `mark` belongs to. */
  groupOf(mark: M): string;
  /** The groups whose marks differ between two versions. */
  changed(from: V, to: V): Iterable<string>;
}

export interface LayeredMatcher<V, M extends Mark> extends Matcher<M> {
  /** The version this matcher reads. */
  readonly version: V;
  /** The fully compiled base and the version it was compiled from. */
  readonly base: { readonly matcher: Matcher<M>; readonly version: V };
  /** Groups whose marks differ from the base's. */
  readonly changed: ReadonlySet<string>;
  /** The marks of each compile this matcher runs (the base's, then the overlay's): what it was made from. */
  readonly compiledFrom: readonly (readonly M[])[];
  /** The compiled matchers it runs (the base's, then the overlay's): what holds its memory. */
  readonly parts: readonly Matcher<M>[];
}

/** `matcher`, compiled from all of `version`'s `marks`, as the base of later layers. */
export function baseLayer<V, M extends Mark>(
  version: V,
  matcher: Matcher<M>,
  marks: readonly M[],
): LayeredMatcher<V, M> {
  return {
    markCount: matcher.markCount,
    match: (message) => matcher.match(message),
    version,
    base: { matcher, version },
    changed: new Set(),
    compiledFrom: [marks],
    parts: [matcher],
  };
}

/** Every group of `version` that differs from `previous`'s base (what a layer over it would compile). */
export function changedSinceBase<V, M extends Mark>(
  previous: LayeredMatcher<V, M>,
  version: V,
  versions: VersionMarks<V, M>,
): Set<string> {
  const changed = new Set(previous.changed);
  for (const group of versions.changed(previous.version, version)) changed.add(group);
  return changed;
}

/** `version`'s matcher as `previous`'s base plus a matcher over every group changed since that base. */
export function layerOver<V, M extends Mark>(
  previous: LayeredMatcher<V, M>,
  version: V,
  versions: VersionMarks<V, M>,
  compile: (marks: readonly M[]) => Matcher<M>,
  changed: ReadonlySet<string> = changedSinceBase(previous, version, versions),
): LayeredMatcher<V, M> {
  const marks = versions.marks(version, changed);
  const overlay = compile(marks);
  const base = previous.base.matcher;
  // Order of a full compile: the version's group order.
  const rank = new Map<string, number>();
  let n = 0;
  for (const group of versions.groups(version)) rank.set(group, n++);
  const rankOf = (h: MarkHit<M>): number => rank.get(versions.groupOf(h.mark)) ?? Number.MAX_SAFE_INTEGER;
  return {
    markCount: base.markCount + overlay.markCount,
    match(message) {
      const hits = [
        ...base.match(message).filter((h) => !changed.has(versions.groupOf(h.mark))),
        ...overlay.match(message),
      ];
      // Stable: within one group, hits keep their mark-then-part order.
      return hits
        .map((h, i) => ({ h, i, r: rankOf(h) }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map((x) => x.h);
    },
    version,
    base: previous.base,
    changed,
    compiledFrom: [previous.compiledFrom[0] as readonly M[], marks],
    parts: [base, overlay],
  };
}
