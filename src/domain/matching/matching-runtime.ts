/**
 * What the matching engine keeps between calls, in one object the composition root creates
 * (src/main.ts, the CLI) and passes in, so that a server, a test or a benchmark owns its own and a
 * §14 erase can clear it. Nothing of the engine is kept at module level but constants.
 *
 * - The analyses of regex sources (mark-analysis.ts), by source: a definition's next version (and a
 *   layered overlay) holds mostly the same marks, and a learnable that judges a lesson's regex with
 *   this runtime leaves its analysis for the compile of the version that lesson makes.
 * - The context tables analyses share (a compile keys its rows by table identity).
 * - The scratch buffers a part's UTF-8 bytes and offsets are made in (subject.ts).
 * - The budget of evicted confirming re2 objects not yet collected (confirm-cache.ts).
 * - The matcher caches made over it (matcher-cache.ts), which it tells to forget.
 *
 * Owns: keeping and forgetting. Does not own: analysing (atoms.ts), compiling (compile-matcher.ts),
 * or deciding which sources an identifier appears in (the caller passes that test: for §14,
 * definitions/scrub.ts `textMentions`).
 */
import { analyseSource } from './atoms.ts';
import { regexAnalysis, type RegexAnalysis } from './mark-analysis.ts';
import { createScratch, type Scratch } from './subject.ts';

/** Most analyses remembered; emptied when full (an analysis depends on nothing but its source). */
const ANALYSIS_CACHE_SIZE = 50_000;
/** Most shared tables kept by each of the two table maps; emptied when full. */
const MAX_SHARED_TABLES = 4096;

/** Whether a regex source mentions what is being forgotten. */
export type SourceTest = (source: string) => boolean;

/** Evicted re2 objects not yet collected (see confirm-cache.ts). */
export interface EvictionBudget {
  waiting: number;
  readonly registry: FinalizationRegistry<undefined>;
}

export interface MatchingRuntime {
  /** The analysis of regex source `source` (not a plain literal), remembered (analysed on first sight). */
  analysedRegex(source: string): RegexAnalysis;
  /** The analysis remembered for `source`, if any. */
  rememberedAnalysis(source: string): RegexAnalysis | undefined;
  /** Remembers `analysis` as the analysis of `source`. */
  rememberAnalysis(source: string, analysis: RegexAnalysis): void;
  /** How many sources `analysedRegex` has analysed (tests and diagnostics). */
  analysesMade(): number;
  /** Context tables by mask key, shared by the analyses made here (atoms.ts `analyseSource`). */
  readonly contextTables: Map<string, Uint8Array>;
  /** Decoded context tables by their stored hex form (mark-analysis.ts `decodeAnalysis`). */
  readonly decodedTables: Map<string, Uint8Array>;
  readonly scratch: Scratch;
  readonly evictions: EvictionBudget;
  /**
   * §14: forgets everything derived from a regex source that `mentions`: its remembered analysis
   * and every cached matcher compiled from it (in the caches made over this runtime), and empties
   * the scratch buffers (they may hold a message that named it). Returns how many remembered
   * analyses were dropped. A matcher dropped here is compiled again, from what is left, on its next
   * use.
   */
  forgetSourcesMentioning(mentions: SourceTest): number;
  /** Forgets everything, as a restart would: analyses, tables, scratch buffers and cached matchers. */
  forgetEverything(): void;
  /** Registers a cache to be told what to forget (matcher-cache.ts). */
  onForget(forget: (mentions: SourceTest | null) => void): void;
}

export function createMatchingRuntime(): MatchingRuntime {
  const remembered = new Map<string, RegexAnalysis>();
  const contextTables = new Map<string, Uint8Array>();
  const decodedTables = new Map<string, Uint8Array>();
  const listeners: ((mentions: SourceTest | null) => void)[] = [];
  let made = 0;
  const evictions: EvictionBudget = {
    waiting: 0,
    registry: new FinalizationRegistry<undefined>(() => {
      evictions.waiting--;
    }),
  };
  const runtime: MatchingRuntime = {
    analysedRegex(source) {
      let a = remembered.get(source);
      if (a === undefined) {
        if (contextTables.size >= MAX_SHARED_TABLES) contextTables.clear();
        a = regexAnalysis(analyseSource(source, contextTables));
        made++;
        runtime.rememberAnalysis(source, a);
      }
      return a;
    },
    rememberedAnalysis: (source) => remembered.get(source),
    rememberAnalysis(source, analysis) {
      if (remembered.size >= ANALYSIS_CACHE_SIZE) remembered.clear();
      remembered.set(source, analysis);
    },
    analysesMade: () => made,
    contextTables,
    decodedTables,
    scratch: createScratch(),
    evictions,
    forgetSourcesMentioning(mentions) {
      let dropped = 0;
      for (const source of [...remembered.keys()])
        if (mentions(source)) {
          remembered.delete(source);
          dropped++;
        }
      runtime.scratch.clear();
      for (const forget of listeners) forget(mentions);
      return dropped;
    },
    forgetEverything() {
      remembered.clear();
      contextTables.clear();
      decodedTables.clear();
      runtime.scratch.clear();
      for (const forget of listeners) forget(null);
    },
    onForget(forget) {
      listeners.push(forget);
    },
  };
  return runtime;
}
