/**
 * Every mark a definition version wants matched (§13.3), gathered from each learnable's own
 * `marks()` so nothing here reads an entry's content (§9). What a matcher for that version compiles.
 */
import type { Definition } from '../definitions/definition.ts';
import type { Learnable } from '../learnables/learnable.ts';
import type { IndexedMark } from '../matching/matcher.ts';

export function definitionMarks(
  definition: Pick<Definition, 'collections'>,
  learnables: readonly Learnable[],
): IndexedMark[] {
  const out: IndexedMark[] = [];
  for (const learnable of learnables) {
    const entries = definition.collections.get(learnable.collection);
    if (entries === undefined) continue;
    for (const [entry, content] of entries) {
      for (const mark of learnable.marks(entry, content))
        out.push({ ...mark, collection: learnable.collection, entry });
    }
  }
  return out;
}
