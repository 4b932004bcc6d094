/**
 * §14: the erase of this process's in-memory reading caches: the regex analyses the matching
 * runtime remembers by source whose source names the identifier, and the compiled matchers built
 * from such sources (the runtime tells its caches; the next task compiles its version again).
 *
 * Does not own: the kept analyses in the database (their own eraser deletes and counts those,
 * store/sqlite-erasure.ts) or any other process's memory (a CLI erase cannot reach a running server's).
 */
import type { Eraser } from '../authority/index.ts';
import { textMentions } from '../definitions/index.ts';
import type { MatchingRuntime } from '../matching/index.ts';
import type { MatcherCache } from './definition-marks.ts';

export function cacheEraser(
  runtime: Pick<MatchingRuntime, 'forgetSourcesMentioning'>,
  matcherCache: Pick<MatcherCache, 'versions'>,
): Eraser {
  return {
    erase: (_tenant, identifier) => {
      const compiled = matcherCache.versions().length;
      // The memo is the runtime's, shared by tenants: only the sources naming the identifier go.
      const analyses = runtime.forgetSourcesMentioning((s) => textMentions(s, identifier));
      return Promise.resolve([
        { store: 'remembered regex analyses', changed: analyses },
        { store: 'compiled matchers', changed: compiled - matcherCache.versions().length },
      ]);
    },
  };
}
