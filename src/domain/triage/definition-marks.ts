/**
 * The adapter from definition versions to the matching engine's generic marks (§13.3, §9): every
 * mark a version wants matched, gathered from each learnable's own `marks()` so nothing here reads
 * an entry's content; a mark's group is its entry ("collection\u0000entry"), which is what a lesson
 * changes; and the matcher cache triage uses, by definition version.
 *
 * Owns: naming a mark's collection and entry, diffing two definitions by entry, and the cache's
 * definition-facing shape. Does not own: compiling, layering or caching (src/domain/matching).
 */
import type { Definition } from '../definitions/index.ts';
import type { EntryContent, IndexedMark, Learnable, MarkHit } from '../learnables/index.ts';
import { canonicalJson } from '../json.ts';
import {
  createMatcherCache as createVersionedCache,
  type AnalysisKeeping,
  type Matcher as EngineMatcher,
  type MatcherCacheOptions as VersionedCacheOptions,
  type MatcherCacheStats,
  type VersionMarks,
} from '../matching/index.ts';

// One declaration of a learnable's mark and its hit (learnables/learnable.ts), handed on here.
export type { IndexedMark, MarkHit };
export type Matcher = EngineMatcher<IndexedMark>;

type Collections = Definition['collections'];

const key = (collection: string, entry: string): string => `${collection}\u0000${entry}`;

export function definitionMarks(
  definition: Pick<Definition, 'collections'>,
  learnables: readonly Learnable[],
  entries?: ReadonlySet<string>,
): IndexedMark[] {
  const out: IndexedMark[] = [];
  for (const learnable of learnables) {
    const collection = definition.collections.get(learnable.collection);
    if (collection === undefined) continue;
    for (const [entry, content] of collection) {
      if (entries !== undefined && !entries.has(key(learnable.collection, entry))) continue;
      for (const mark of learnable.marks(entry, content))
        out.push({ ...mark, collection: learnable.collection, entry });
    }
  }
  return out;
}

function sameContent(a: EntryContent | undefined, b: EntryContent | undefined): boolean {
  if (a === b) return true; // unchanged entries are shared, frozen objects (the object cache)
  if (a === undefined || b === undefined) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Entries ("collection\u0000entry") that differ between two definitions, in the collections the learnables match. */
function changedEntries(from: Collections, to: Collections, learnables: readonly Learnable[]): Set<string> {
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

/** A definition version with the learnables that read it: what the engine's cache calls a version. */
interface DefinitionVersion {
  readonly definition: Pick<Definition, 'versionId' | 'collections'>;
  readonly learnables: readonly Learnable[];
}

/** Definition versions as the engine's grouped marks: a group is an entry. */
const definitionVersions: VersionMarks<DefinitionVersion, IndexedMark> = {
  versionId: (v) => v.definition.versionId,
  marks: (v, groups) => definitionMarks(v.definition, v.learnables, groups),
  *groups(v) {
    for (const learnable of v.learnables)
      for (const entry of v.definition.collections.get(learnable.collection)?.keys() ?? [])
        yield key(learnable.collection, entry);
  },
  groupOf: (mark) => key(mark.collection, mark.entry),
  changed: (from, to) =>
    changedEntries(from.definition.collections, to.definition.collections, to.learnables),
};

export type MatcherCacheOptions = Omit<VersionedCacheOptions<DefinitionVersion, IndexedMark>, 'versions'>;

/** Compiled matchers by definition version (see src/domain/matching/matcher-cache.ts). */
export interface MatcherCache {
  /** The matcher for `versionId`, compiling `marks()` only when it is not cached. */
  get(versionId: string, marks: () => readonly IndexedMark[]): Matcher;
  /** The matcher for a definition version, layered over the last one built when few entries changed. */
  forDefinition(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
  ): Matcher;
  /** The matcher for a definition version without blocking the event loop for long: what a server calls per task. */
  matcherFor(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
    keeping?: AnalysisKeeping,
  ): Promise<Matcher>;
  /** Compiles a definition version's matcher in full off the event loop; call it when a version becomes active. */
  prepare(
    definition: Pick<Definition, 'versionId' | 'collections'>,
    learnables: readonly Learnable[],
    keeping?: AnalysisKeeping,
  ): Promise<Matcher>;
  /** Versions currently compiled, least recently used first. */
  readonly versions: () => readonly string[];
  /** Bytes held within the budget, and evictions. */
  readonly stats: () => MatcherCacheStats;
  /** Estimated bytes these versions' matchers hold, each part once. */
  readonly bytesOf: (versionIds: Iterable<string>) => number;
  /** Drops these versions' matchers (a tenant forgotten whole). */
  readonly forget: (versionIds: Iterable<string>) => void;
}

export type { MatcherCacheStats };

export function createMatcherCache(options: MatcherCacheOptions): MatcherCache {
  const cache = createVersionedCache({ ...options, versions: definitionVersions });
  return {
    get: (versionId, marks) => cache.get(versionId, marks),
    forDefinition: (definition, learnables) => cache.forVersion({ definition, learnables }),
    matcherFor: (definition, learnables, keeping) => cache.matcherFor({ definition, learnables }, keeping),
    prepare: (definition, learnables, keeping) => cache.prepare({ definition, learnables }, keeping),
    versions: cache.versions,
    stats: () => cache.stats(),
    bytesOf: (versionIds) => cache.bytesOf(versionIds),
    forget: (versionIds) => cache.forget(versionIds),
  };
}
