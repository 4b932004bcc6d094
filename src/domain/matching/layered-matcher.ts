/**
 * A new version's matcher without recompiling the whole directory (§10.3 + issue 6, lesson to
 * effect): a lesson changes one entry, so the next version's matcher is the last full compile (the
 * base) with that entry's hits replaced by a small matcher over the entries that changed since.
 * Exact by construction: base hits of changed entries are dropped, changed entries are matched on
 * their current marks, and hits are put back in the order a full compile gives (collection order,
 * then entry order, then each entry's own mark and part order).
 *
 * Owns: diffing two definitions by entry and layering matchers. Does not own: compiling (compileMatcher)
 * or caching by version (matcher-cache.ts).
 */
import type { Definition } from '../definitions/definition.ts';
import type { EntryContent, Learnable } from '../learnables/learnable.ts';
import { canonicalJson } from '../json.ts';
import { definitionMarks } from '../triage/definition-marks.ts';
import type { IndexedMark, MarkHit, Matcher } from './matcher.ts';

type Collections = Definition['collections'];

export interface LayeredMatcher extends Matcher {
  /** The definition this matcher reads. */
  readonly definition: Pick<Definition, 'collections'>;
  /** The fully compiled base and the definition it was compiled from. */
  readonly base: { readonly matcher: Matcher; readonly definition: Pick<Definition, 'collections'> };
  /** Entries ("collection\u0000entry") whose marks differ from the base's. */
  readonly changed: ReadonlySet<string>;
}

const key = (collection: string, entry: string): string => `${collection}\u0000${entry}`;

function sameContent(a: EntryContent | undefined, b: EntryContent | undefined): boolean {
  if (a === b) return true; // unchanged entries are shared, frozen objects (the object cache)
  if (a === undefined || b === undefined) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Entries that differ between two definitions, in the collections the learnables match. */
export function changedEntries(
  from: Collections,
  to: Collections,
  learnables: readonly Learnable[],
): Set<string> {
  const out = new Set<string>();
  for (const { collection } of learnables) {
    const a = from.get(collection);
    const b = to.get(collection);
    if (a === b) continue;
    for (const [entry, content] of b ?? [])
      if (!sameContent(a?.get(entry), content)) out.add(key(collection, entry));
    for (const entry of a?.keys() ?? []) if (b?.has(entry) !== true) out.add(key(collection, entry));
  }
  return out;
}

/** A full compile, as the base of later layers. */
export function fullLayer(
  definition: Pick<Definition, 'collections'>,
  learnables: readonly Learnable[],
  compile: (marks: readonly IndexedMark[]) => Matcher,
): LayeredMatcher {
  return baseLayer(definition, compile(definitionMarks(definition, learnables)));
}

/** `matcher`, compiled from all of `definition`'s marks, as the base of later layers. */
export function baseLayer(definition: Pick<Definition, 'collections'>, matcher: Matcher): LayeredMatcher {
  return {
    markCount: matcher.markCount,
    match: (message) => matcher.match(message),
    definition,
    base: { matcher, definition },
    changed: new Set(),
  };
}

/** Every entry of `definition` that differs from `previous`'s base (what a layer over it would compile). */
export function changedSinceBase(
  previous: LayeredMatcher,
  definition: Pick<Definition, 'collections'>,
  learnables: readonly Learnable[],
): Set<string> {
  const changed = new Set(previous.changed);
  for (const k of changedEntries(previous.definition.collections, definition.collections, learnables))
    changed.add(k);
  return changed;
}

/** `definition`'s matcher as `previous`'s base plus a matcher over every entry changed since that base. */
export function layerOver(
  previous: LayeredMatcher,
  definition: Pick<Definition, 'collections'>,
  learnables: readonly Learnable[],
  compile: (marks: readonly IndexedMark[]) => Matcher,
  changed: ReadonlySet<string> = changedSinceBase(previous, definition, learnables),
): LayeredMatcher {
  const marks: IndexedMark[] = [];
  for (const learnable of learnables) {
    const entries = definition.collections.get(learnable.collection);
    for (const [entry, content] of entries ?? []) {
      if (!changed.has(key(learnable.collection, entry))) continue;
      for (const mark of learnable.marks(entry, content))
        marks.push({ ...mark, collection: learnable.collection, entry });
    }
  }
  const overlay = compile(marks);
  const base = previous.base.matcher;
  // Order of a full compile: learnables' order, then the definition's entry order.
  const rank = new Map<string, number>();
  let n = 0;
  for (const learnable of learnables) {
    for (const entry of definition.collections.get(learnable.collection)?.keys() ?? [])
      rank.set(key(learnable.collection, entry), n++);
  }
  const rankOf = (h: MarkHit): number =>
    rank.get(key(h.mark.collection, h.mark.entry)) ?? Number.MAX_SAFE_INTEGER;
  return {
    markCount: base.markCount + overlay.markCount,
    match(message) {
      const hits = [
        ...base.match(message).filter((h) => !changed.has(key(h.mark.collection, h.mark.entry))),
        ...overlay.match(message),
      ];
      // Stable: within one entry, hits keep their mark-then-part order.
      return hits
        .map((h, i) => ({ h, i, r: rankOf(h) }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map((x) => x.h);
    },
    definition,
    base: previous.base,
    changed,
  };
}
