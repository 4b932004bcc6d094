/**
 * The compiled matcher for a set of marks (§13.3): a FilteredRE2-style literal prefilter.
 *
 * - One Aho-Corasick automaton over case-folded UTF-16 text holds every plain literal mark and the
 *   literal atoms (`literalAtoms`) of every regex mark; each part of a message is scanned once.
 * - A plain ASCII literal's first hit is already re2's answer (same leftmost match, same case folding:
 *   see `foldCodeUnit`), so it needs no confirmation; so is the first hit of one between `\b`
 *   anchors where both hold (re2's `\b` is ASCII-only, checked on the text as written).
 * - A regex mark's atom hit is dropped when the text next to it cannot be what the mark has there
 *   (`SourceAnalysis.before`, `.after`: `\s` after "norgate" in `norgate\s+motors`), or when the run
 *   and literal that must follow it do not (`.gap`: whitespace, then "motors"). Only hits no match
 *   can use are dropped, so the answer is unchanged (docs/matching.md has what it saves).
 * - A regex mark whose atom hits is confirmed by its own re2 (compiled on first use, at most
 *   {@link CONFIRM_CACHE_SIZE} kept: see `createConfirmCache`) on windows around the hits only: a match lies within its
 *   analysed lead and trail of an atom hit (`analyseSource`), or, where a side has no length bound
 *   but cannot hold whitespace, within the token; a mark bounded only before its atom is tried
 *   anchored at each position where a match could start. Either returns exactly what re2 returns
 *   on the whole part.
 * - Marks with no atoms run in RE2.Set shards of at most {@link SET_SHARD_SIZE} per part (larger sets
 *   thrash their DFA or fail to compile), then their own re2 gives the matched text.
 *
 * The result is identical to `createNaiveMatcher` (one re2 per mark): same hits, same texts, same
 * order (mark order, then part order).
 *
 * Owns: the compile's steps and options (planning is mark-plan.ts's, matching a message
 * match-parts.ts's). Does not own: what a hit means (the caller's).
 */
import { setImmediate } from 'node:timers/promises';
import { buildAhoCorasickSteps } from './aho-corasick.ts';
import { createConfirmCache } from './confirm-cache.ts';
import { MarkPlanner, type StoredAnalyses } from './mark-plan.ts';
import { createMatch } from './match-parts.ts';
import type { Mark, Matcher } from './matcher.ts';
import {
  JS_BYTES_PER_MARK,
  MATCHER_BASE_BYTES,
  RE2_BYTES,
  SET_BYTES_PER_PATTERN,
  SET_SHARD_BYTES,
  typedArrayBytes,
} from './matcher-bytes.ts';
import { createMatchingRuntime, type MatchingRuntime } from './matching-runtime.ts';
import { buildShards, type Shard } from './set-shards.ts';
import { runSteps } from './steps.ts';

/** Most patterns per RE2.Set (a shard-size sweep on this machine found ~1k best). */
const SET_SHARD_SIZE = 1000;
/**
 * Most confirming re2 objects kept compiled per matcher (both uses together): each costs native
 * memory, a miss costs one re2 compile (the sweep that chose it: docs/matching.md). What is kept
 * and evicted is governed by `createConfirmCache` (confirm-cache.ts).
 */
const CONFIRM_CACHE_SIZE = 2048;

export type { StoredAnalyses } from './mark-plan.ts';

export interface CompileOptions {
  /** Patterns per RE2.Set shard; default {@link SET_SHARD_SIZE}. */
  readonly setShardSize?: number;
  /** Confirming re2 objects kept compiled; default {@link CONFIRM_CACHE_SIZE}. */
  readonly confirmCacheSize?: number;
  /** Regex analyses kept from earlier compiles (mark-analysis.ts): read instead of analysing. */
  readonly stored?: StoredAnalyses;
  /**
   * What the compile and its matcher keep between calls (matching-runtime.ts): remembered
   * analyses, scratch buffers, the eviction budget. Default: a runtime of the compile's own, shared
   * with nothing (the composition root passes the server's).
   */
  readonly runtime?: MatchingRuntime;
}

/** What a compiled matcher is made of, for benchmarks and diagnostics. */
export interface MatcherStats {
  readonly literalMarks: number;
  readonly atomMarks: number;
  readonly setMarks: number;
  readonly keys: number;
  readonly automatonNodes: number;
  readonly setShards: number;
}

export interface CompiledMatcher<M extends Mark = Mark> extends Matcher<M> {
  readonly stats: MatcherStats;
  /** re2 objects compiled so far to confirm or extract matches (diagnostics: misses of the confirm cache). */
  regexCompiles(): number;
  /** Estimated bytes it holds now, JS and native (matcher-bytes.ts; grows as confirming re2 are kept). */
  approxBytes(): number;
}

/** Compiles `marks` into a matcher whose cost grows far slower than the number of marks (§13.3). */
export function compileMatcher<M extends Mark>(
  marks: readonly M[],
  options: CompileOptions = {},
): CompiledMatcher<M> {
  return runSteps(compileSteps(marks, options));
}

export interface AsyncCompileOptions extends CompileOptions {
  /** Longest the compile runs before it lets the event loop turn (ms); default {@link COMPILE_SLICE_MS}. */
  readonly sliceMs?: number;
  /** Called after each slice, with how long it ran (ms): for benchmarks and tests. */
  readonly onSlice?: (ms: number) => void;
}

/** Default longest stretch an asynchronous compile holds the event loop (ms). */
const COMPILE_SLICE_MS = 10;

/**
 * `compileMatcher` without blocking the event loop (§13.3, issue 3 "compiled off the event loop"):
 * the same compile, run in slices of about `sliceMs` with a turn of the event loop between them,
 * so requests keep being served while a large directory compiles. The result is the same matcher.
 * (re2 objects cannot cross threads, and the matcher runs where its re2 objects live, so the
 * compile is sliced rather than moved to a worker.)
 */
export async function compileMatcherAsync<M extends Mark>(
  marks: readonly M[],
  options: AsyncCompileOptions = {},
): Promise<CompiledMatcher<M>> {
  const sliceMs = options.sliceMs ?? COMPILE_SLICE_MS;
  const steps = compileSteps(marks, options);
  for (;;) {
    const started = performance.now();
    let r = steps.next();
    while (r.done !== true && performance.now() - started < sliceMs) r = steps.next();
    options.onSlice?.(performance.now() - started);
    if (r.done === true) return r.value;
    await setImmediate();
  }
}

/** Iterations of the compile's mark loop between two pauses. */
const MARK_STEP = 256;

/** The compile as a generator that pauses (yields) every few hundred marks, key groups or shards. */
function* compileSteps<M extends Mark>(
  marks: readonly M[],
  options: CompileOptions,
): Generator<void, CompiledMatcher<M>> {
  const runtime = options.runtime ?? createMatchingRuntime();
  const n = marks.length;
  const planner = new MarkPlanner(n, options.stored, runtime);
  for (let from = 0; from < n; from += MARK_STEP) {
    planner.absorb(marks, from, Math.min(n, from + MARK_STEP));
    yield;
  }
  const automaton = yield* buildAhoCorasickSteps(planner.keys);
  yield;
  const plan = planner.finish();
  // The grouping above takes ~15–20 ms at 100k marks: pause before a shard's compile adds to it.
  yield;
  const shardSize = options.setShardSize ?? SET_SHARD_SIZE;
  const shardsByPart: Shard[][] = [];
  for (const list of plan.setMarksByPart) shardsByPart.push(yield* buildShards(marks, list, shardSize));
  const capacity = options.confirmCacheSize ?? CONFIRM_CACHE_SIZE;
  const counts = { compiles: 0 };
  const confirm = createConfirmCache(plan.sources, capacity, counts, runtime.evictions);
  const shardCount = shardsByPart.reduce((sum, s) => sum + s.length, 0);
  const setPatterns = plan.setMarksByPart.reduce((sum, list) => sum + list.length, 0);
  // Fixed once built: everything but the confirming re2 objects, which the matcher keeps as it runs.
  const builtBytes =
    MATCHER_BASE_BYTES +
    automaton.byteLength() +
    typedArrayBytes(plan) +
    n * JS_BYTES_PER_MARK +
    shardCount * SET_SHARD_BYTES +
    setPatterns * SET_BYTES_PER_PATTERN;
  return {
    markCount: n,
    regexCompiles: () => counts.compiles,
    approxBytes: () => builtBytes + confirm.kept() * RE2_BYTES,
    stats: {
      literalMarks: plan.literalMarks,
      atomMarks: plan.atomMarks,
      setMarks: plan.setMarks,
      keys: plan.keyLength.length,
      automatonNodes: automaton.nodeCount,
      setShards: shardCount,
    },
    match: createMatch(marks, plan, automaton, shardsByPart, confirm, runtime.scratch),
  };
}
