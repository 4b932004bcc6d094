/**
 * The matching engine (§13.3): which of many marks (re2 sources, each on the mail parts it names)
 * match a message, generic over the caller's marks; it knows nothing of customers, kinds, lessons,
 * definitions or learnables. Everything outside this folder imports it from here.
 *
 * Guarantees:
 * - re2's answer exactly: a compiled matcher returns what one re2 per mark returns (`createNaiveMatcher`,
 *   the oracle): the same hits, texts and order; the oracle tests and the benchmark count 0 mismatches.
 * - Linear time: re2 only (no backtracking), one Aho–Corasick pass per part, re2 confirmations on
 *   windows around literal hits; cost grows far slower than the number of marks.
 * - No module-level mutable state: what is kept between calls belongs to a `MatchingRuntime` the
 *   composition root creates, and `forgetSourcesMentioning` clears what a §14 erase must.
 *
 * Measured envelope (`npm run bench -- --only=matching` on 2 shared cores, load 1.7-9.6; docs/matching.md):
 * 10k marks compile in 181 ms from kept analyses (416 ms with none), 100k in 1.2 s; a 2 KB message
 * matches in 0.34 ms at p50 with 10k marks (0.82 ms with 100k), a 50 KB one in 5.7 ms (21 ms), 324
 * times faster than the oracle at 10k; 0 mismatches against it.
 */
export type { Mark, MarkHit, Matcher } from './matcher.ts';
export {
  compileMatcher,
  compileMatcherAsync,
  type AsyncCompileOptions,
  type CompileOptions,
  type StoredAnalyses,
} from './compile-matcher.ts';
export { createNaiveMatcher } from './naive-matcher.ts';
export { createMatchingRuntime, type MatchingRuntime } from './matching-runtime.ts';
export {
  createMatcherCache,
  type AnalysisKeeping,
  type MatcherCacheOptions,
  type MatcherCacheStats,
} from './matcher-cache.ts';
export type { VersionMarks } from './layered-matcher.ts';
export { ANALYSER_VERSION, encodeAnalysis, regexAnalysis, type MarkAnalysisStore } from './mark-analysis.ts';
export { analyseSource, literalAtoms } from './atoms.ts';
export { plainLiteral } from './plain-literal.ts';
export { buildAhoCorasick, type AhoCorasick } from './aho-corasick.ts';
