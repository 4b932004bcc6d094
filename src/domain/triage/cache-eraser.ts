/**
 * §14: the erase of this process's in-memory reading caches: the regex analyses remembered by
 * source (mark-analysis.ts) whose source names the identifier, and every compiled matcher (they
 * hold mark sources; the next task compiles its version again).
 *
 * Does not own: the kept analyses in the database (the definition store deletes those with the
 * tombstones) or any other process's memory (a CLI erase cannot reach a running server's).
 */
import type { Eraser } from '../authority/eraser.ts';
import { textMentions } from '../definitions/scrub.ts';
import { forgetAnalysesOf } from './mark-analysis.ts';
import type { MatcherCache } from './matcher-cache.ts';

export function cacheEraser(matcherCache: Pick<MatcherCache, 'forgetAll'>): Eraser {
  return {
    erase: (_tenant, identifier) =>
      Promise.resolve([
        // The memo is the thread's, shared by tenants: only the sources naming the identifier go.
        { store: 'remembered regex analyses', changed: forgetAnalysesOf((s) => textMentions(s, identifier)) },
        { store: 'compiled matchers', changed: matcherCache.forgetAll() },
      ]),
  };
}
