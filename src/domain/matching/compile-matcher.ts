/**
 * The compiled matcher for one definition version (§13.3): a FilteredRE2-style literal prefilter.
 *
 * - One Aho-Corasick automaton over case-folded UTF-16 text holds every plain literal mark and the
 *   literal atoms (`literalAtoms`) of every regex mark; each part of a message is scanned once.
 * - A plain ASCII literal's first hit is already re2's answer (same leftmost match, same case folding:
 *   see `foldCodeUnit`), so it needs no confirmation; so is the first hit of one between `\b`
 *   anchors where both hold (re2's `\b` is ASCII-only, checked on the text as written).
 * - A regex mark's atom hit is dropped when the text next to it cannot be what the mark has there
 *   (`SourceAnalysis.before`, `.after`: `\s` after "norgate" in `norgate\s+motors`), or when the run
 *   and literal that must follow it do not (`.gap`: whitespace, then "motors"). Only hits no match
 *   can use are dropped, so the answer is unchanged; at 100k synthetic marks this cut the confirms
 *   of a 50 KB message from ~1,330 to ~210.
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
 * order (mark order, then part order). It owns matching only; scoring is the learnables' business.
 */
import { MAIL_PARTS } from '../mail/index.ts';
import type { MailMessage, MailPart } from '../mail/index.ts';
import { partText } from '../mail/index.ts';
import { setImmediate } from 'node:timers/promises';
import { buildAhoCorasickSteps } from './aho-corasick.ts';
import { foldCodeUnit } from './atoms.ts';
import { atBoundaries, boundedLiteral } from './bounded-literal.ts';
import { createConfirmCache } from './confirm-cache.ts';
import { decodeAnalysis, encodeAnalysis, type RegexAnalysis } from './mark-analysis.ts';
import type { Mark, MarkHit, Matcher } from './matcher.ts';
import { createMatchingRuntime, type MatchingRuntime } from './matching-runtime.ts';
import { buildShards, type Shard } from './set-shards.ts';
import { runSteps } from './steps.ts';
import { Subject } from './subject.ts';
import { grow } from './typed-arrays.ts';
import { STOP_SCAN_LIMIT, stopAfter, stopBefore, Windows } from './windows.ts';

/** Most patterns per RE2.Set (a shard-size sweep on this machine found ~1k best). */
export const SET_SHARD_SIZE = 1000;
/**
 * Most confirming re2 objects kept compiled per matcher (both uses together). Each costs ~5–13 KB of
 * native memory; a miss costs one re2 compile (~30–80 µs). At 10k synthetic marks the regex marks
 * that hit still fit (2,048 and 2,560 both compiled 0.16 re2 per 2 KB message, 1,536 compiled 2.15
 * per 50 KB one); at 100k, 2,048 added ~5–8 MB less RSS than 2,560. What is kept and evicted is
 * governed by `createConfirmCache` (confirm-cache.ts).
 */
export const CONFIRM_CACHE_SIZE = 2048;

/** A part's bit in a mark's part mask: 1 << its index in MAIL_PARTS. */
const PART_BIT = Object.fromEntries(MAIL_PARTS.map((p, i) => [p, 1 << i])) as Record<MailPart, number>;

const KIND_LITERAL = 0;
const KIND_ATOMS = 1;
const KIND_SET = 2;

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

/** Stored regex analyses for a compile (see CompileOptions.stored). */
export interface StoredAnalyses {
  /** `encodeAnalysis` text by source (ANALYSER_VERSION's). */
  readonly known: ReadonlyMap<string, string>;
  /** Called with each regex source of the marks that `known` lacks (or holds damaged), and its text to keep. */
  readonly onAnalysed: (source: string, text: string) => void;
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
}

/** How a regex mark with atoms is confirmed (see `compileMatcher`). */
const CONFIRM_WINDOW = 0; // re2 on a window around each atom hit
const CONFIRM_ANCHORED = 1; // re2 anchored at each position where a match could start
const CONFIRM_WHOLE = 2; // re2 on the whole part

/** Farthest a gap's run is followed before a hit is let through unchecked (code units). */
const GAP_SCAN_LIMIT = 64;

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
export const COMPILE_SLICE_MS = 10;

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
  const shardSize = options.setShardSize ?? SET_SHARD_SIZE;
  const n = marks.length;
  const kind = new Uint8Array(n);
  const partMask = new Uint8Array(n);
  const literalLength = new Int32Array(n);
  const boundary = new Uint8Array(n); // a literal's \b: BOUNDARY_BEFORE | BOUNDARY_AFTER
  const confirmHow = new Uint8Array(n);
  // Where a match can lie around an atom hit [start, end] (code units, see SourceAnalysis):
  const lead = new Int32Array(n); // at most this far before the start, -1 when unbounded
  const trail = new Int32Array(n); // at most this far after the end, -1 when unbounded
  const leadStops = new Uint8Array(n); // 1 when the text before the hit can hold a stop character
  const trailStops = new Uint8Array(n);
  // What may stand next to a hit (SourceAnalysis.before/after): row r of `contextTable` (128 entries
  // over ASCII, 1 = allowed) for the code unit before (`beforeRow`) or after (`afterRow`), -1 for any.
  const beforeRow = new Int32Array(n).fill(-1);
  const afterRow = new Int32Array(n).fill(-1);
  // A run then a literal after a hit (SourceAnalysis.gap): the run's row (-1: none), its length bounds, the literal.
  const gapRow = new Int32Array(n).fill(-1);
  const gapMin = new Int32Array(n);
  const gapMax = new Int32Array(n);
  const gapLiteral: string[] = [];
  const contextRows = new Map<Uint8Array, number>();
  const contextList: Uint8Array[] = [];
  const rowOf = (table: Uint8Array | null): number => {
    if (table === null) return -1;
    let r = contextRows.get(table);
    if (r === undefined) {
      r = contextList.length;
      contextRows.set(table, r);
      contextList.push(table);
    }
    return r;
  };
  const keyIndex = new Map<string, number>();
  const keys: string[] = [];
  // Regex marks with the same source share their re2 objects (and their confirmations per part).
  const sourceIndex = new Map<string, number>();
  const sources: string[] = [];
  const sourceOf = new Int32Array(n).fill(-1);
  const sourceId = (source: string): number => {
    let id = sourceIndex.get(source);
    if (id === undefined) {
      id = sources.length;
      sourceIndex.set(source, id);
      sources.push(source);
    }
    return id;
  };
  // (key, mark) pairs, grouped by key below.
  let pairKey = new Int32Array(Math.max(16, n + (n >> 1)));
  let pairMark = new Int32Array(pairKey.length);
  let pairs = 0;
  const setMarksByPart: number[][] = MAIL_PARTS.map(() => []);
  let literalMarks = 0;
  let atomMarks = 0;
  let setMarks = 0;

  const keyOf = (key: string): number => {
    let k = keyIndex.get(key);
    if (k === undefined) {
      k = keys.length;
      keyIndex.set(key, k);
      keys.push(key);
    }
    return k;
  };
  // A regex mark's required literals (SourceAnalysis.required): keys of the automaton that must all
  // hit in a part before its re2 is run there: requiredKey[requiredFrom[m] .. requiredTo[m]).
  const requiredFrom = new Int32Array(n);
  const requiredTo = new Int32Array(n);
  const requiredKey: number[] = [];
  const addKey = (key: string, mark: number): void => {
    const k = keyOf(key);
    if (pairs === pairKey.length) {
      pairKey = grow(pairKey);
      pairMark = grow(pairMark);
    }
    pairKey[pairs] = k;
    pairMark[pairs++] = mark;
  };

  // In chunks of marks, each a plain function call (a generator's own loops are not optimised).
  const absorb = (from: number, to: number): void => {
    for (let m = from; m < to; m++) {
      const mark = marks[m] as M;
      let mask = 0;
      for (const part of mark.parts) mask |= PART_BIT[part];
      partMask[m] = mask;
      const { literal, boundary: ends } = boundedLiteral(mark.source);
      if (literal !== null) {
        kind[m] = KIND_LITERAL;
        literalLength[m] = literal.length;
        boundary[m] = ends;
        addKey(literal, m);
        literalMarks++;
        continue;
      }
      const a = analyseRegex(mark.source, options.stored, runtime);
      if (a.atoms !== null) {
        kind[m] = KIND_ATOMS;
        sourceOf[m] = sourceId(mark.source);
        lead[m] = a.lead;
        trail[m] = a.trail;
        leadStops[m] = a.leadStops ? 1 : 0;
        trailStops[m] = a.trailStops ? 1 : 0;
        beforeRow[m] = rowOf(a.before);
        afterRow[m] = rowOf(a.after);
        if (a.gap !== null) {
          gapRow[m] = rowOf(a.gap.run);
          gapMin[m] = a.gap.min;
          gapMax[m] = Math.min(a.gap.max, 0x7fffffff);
          gapLiteral[m] = a.gap.literal;
        }
        confirmHow[m] =
          a.trail >= 0 || !a.trailStops
            ? CONFIRM_WINDOW
            : a.lead >= 0 || !a.leadStops
              ? CONFIRM_ANCHORED
              : CONFIRM_WHOLE;
        for (const atom of a.atoms) addKey(atom, m);
        requiredFrom[m] = requiredKey.length;
        for (const r of a.required) if (a.atoms.length !== 1 || a.atoms[0] !== r) requiredKey.push(keyOf(r));
        requiredTo[m] = requiredKey.length;
        atomMarks++;
      } else {
        kind[m] = KIND_SET;
        sourceOf[m] = sourceId(mark.source);
        for (let i = 0; i < MAIL_PARTS.length; i++)
          if ((mask & (1 << i)) !== 0) (setMarksByPart[i] as number[]).push(m);
        setMarks++;
      }
    }
  };
  for (let from = 0; from < n; from += MARK_STEP) {
    absorb(from, Math.min(n, from + MARK_STEP));
    yield;
  }
  const automaton = yield* buildAhoCorasickSteps(keys);
  yield;
  const { keyStart, keyMark } = groupByKey(pairKey, pairMark, pairs, keys.length);
  const keyLength = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) keyLength[k] = (keys[k] as string).length;
  const contextTable = new Uint8Array(contextList.length * 128);
  contextList.forEach((table, r) => contextTable.set(table, r * 128));
  contextRows.clear();
  contextList.length = 0;
  // match() keeps this scope alive: let go of what only the compile needs.
  keyIndex.clear();
  sourceIndex.clear();
  keys.length = 0;
  pairKey = new Int32Array(0);
  pairMark = new Int32Array(0);

  // The grouping above takes ~15–20 ms at 100k marks: pause before a shard's compile adds to it.
  yield;
  const shardsByPart: Shard[][] = [];
  for (const list of setMarksByPart) shardsByPart.push(yield* buildShards(marks, list, shardSize));
  const capacity = options.confirmCacheSize ?? CONFIRM_CACHE_SIZE;
  const counts = { compiles: 0 };
  const { searching, anchored } = createConfirmCache(sources, capacity, counts, runtime.evictions);

  // Per-(message, part) bookkeeping without allocating per mark: a mark is "seen" in the current part
  // when its stamp equals the part's stamp; a candidate's hits are a linked list in flat arrays.
  const seen = new Uint32Array(n);
  const keySeen = new Uint32Array(keyLength.length); // a key hit in the current part
  const required = Int32Array.from(requiredKey);
  const slot = new Int32Array(n); // a candidate mark's index in the current part's candidate list
  let stamp = 0;
  let candidateMark = new Int32Array(64);
  let firstHit = new Int32Array(64);
  let lastHit = new Int32Array(64);
  let hitStart = new Int32Array(256);
  let hitEnd = new Int32Array(256);
  let hitNext = new Int32Array(256);
  const windows = new Windows();
  /** Whether mark m's gap (its run, then its literal) can start at `at` (see SourceAnalysis.gap). */
  const gapHolds = (text: string, at: number, m: number): boolean => {
    const base = (gapRow[m] as number) * 128;
    const length = text.length;
    const limit = Math.min(gapMax[m] as number, GAP_SCAN_LIMIT);
    let i = at;
    for (;;) {
      // Past the look-ahead: let it through; past the run's longest: no match has this run.
      if (i - at > limit) return i - at <= (gapMax[m] as number);
      if (i === length) return false; // the literal cannot follow
      const u = text.charCodeAt(i);
      if (u >= 128) return true; // a run character re2 may fold or class differently: let it through
      if (contextTable[base + u] === 0) break;
      i++;
    }
    if (i - at < (gapMin[m] as number)) return false;
    const literal = gapLiteral[m] as string;
    if (i + literal.length > length) return false;
    for (let j = 0; j < literal.length; j++)
      if (foldCodeUnit(text.charCodeAt(i + j)) !== literal.charCodeAt(j)) return false;
    return true;
  };

  return {
    markCount: n,
    regexCompiles: () => counts.compiles,
    stats: {
      literalMarks,
      atomMarks,
      setMarks,
      keys: keyLength.length,
      automatonNodes: automaton.nodeCount,
      setShards: shardsByPart.reduce((sum, s) => sum + s.length, 0),
    },
    match(message: MailMessage): readonly MarkHit<M>[] {
      const foundMark: number[] = [];
      const foundPart: number[] = [];
      const foundText: string[] = [];
      for (let p = 0; p < MAIL_PARTS.length; p++) {
        const text = partText(message, MAIL_PARTS[p] as MailPart);
        const bit = 1 << p;
        stamp = stamp === 0xffffffff ? 1 : stamp + 1;
        if (stamp === 1) {
          seen.fill(0);
          keySeen.fill(0);
        }
        const current = stamp;
        let candidates = 0; // regex marks with an atom hit in this part, in first-hit order
        let hits = 0;
        const found = automaton.hits(text);
        const foundKeys = found.keys;
        const foundEnds = found.ends;
        for (let h = 0; h < found.count; h++) {
          const key = foundKeys[h] as number;
          const end = foundEnds[h] as number;
          keySeen[key] = current;
          for (let i = keyStart[key] as number, to = keyStart[key + 1] as number; i < to; i++) {
            const m = keyMark[i] as number;
            if (((partMask[m] as number) & bit) === 0) continue;
            if (kind[m] === KIND_LITERAL) {
              if (seen[m] === current) continue;
              const b = boundary[m] as number;
              if (b !== 0 && !atBoundaries(text, end + 1 - (literalLength[m] as number), end, b)) continue;
              seen[m] = current;
              foundMark.push(m);
              foundPart.push(p);
              foundText.push(text.slice(end + 1 - (literalLength[m] as number), end + 1));
              continue;
            }
            // A hit whose neighbours no match can have is not this mark's (§13.3: exact, see atoms.ts).
            const start = end + 1 - (keyLength[key] as number);
            const br = beforeRow[m] as number;
            if (br !== -1) {
              if (start === 0) continue;
              const u = text.charCodeAt(start - 1);
              if (u < 128 && contextTable[br * 128 + u] === 0) continue;
            }
            const ar = afterRow[m] as number;
            if (ar !== -1) {
              if (end + 1 === text.length) continue;
              const u = text.charCodeAt(end + 1);
              if (u < 128 && contextTable[ar * 128 + u] === 0) continue;
            }
            if (gapRow[m] !== -1 && !gapHolds(text, end + 1, m)) continue;
            let c: number;
            if (seen[m] === current) {
              // Only the first hit matters when the whole part is searched anyway.
              if (confirmHow[m] === CONFIRM_WHOLE) continue;
              c = slot[m] as number;
            } else {
              seen[m] = current;
              c = candidates++;
              if (c === candidateMark.length) {
                candidateMark = grow(candidateMark);
                firstHit = grow(firstHit);
                lastHit = grow(lastHit);
              }
              slot[m] = c;
              candidateMark[c] = m;
              firstHit[c] = -1;
            }
            if (hits === hitStart.length) {
              hitStart = grow(hitStart);
              hitEnd = grow(hitEnd);
              hitNext = grow(hitNext);
            }
            hitStart[hits] = start;
            hitEnd[hits] = end;
            hitNext[hits] = -1;
            if (firstHit[c] === -1) firstHit[c] = hits;
            else hitNext[lastHit[c] as number] = hits;
            lastHit[c] = hits;
            hits++;
          }
        }
        const shards = shardsByPart[p] as Shard[];
        if (candidates === 0 && shards.length === 0) continue;
        const subject = new Subject(text, runtime.scratch);
        for (let c = 0; c < candidates; c++) {
          const m = candidateMark[c] as number;
          let present = true;
          for (let r = requiredFrom[m] as number, to = requiredTo[m] as number; r < to; r++)
            if (keySeen[required[r] as number] !== current) {
              present = false;
              break;
            }
          if (!present) continue; // a match needs every required literal in the part
          const source = sourceOf[m] as number;
          const l = lead[m] as number;
          const t = trail[m] as number;
          const freeBefore = leadStops[m] === 0;
          let hit: string | null;
          switch (confirmHow[m]) {
            case CONFIRM_WINDOW: {
              windows.clear();
              for (let h = firstHit[c] as number; h !== -1; h = hitNext[h] as number) {
                const from = hitStart[h] as number;
                const to = hitEnd[h] as number;
                windows.add(
                  l >= 0 ? from - l : freeBefore ? stopBefore(text, from) + 1 : 0,
                  t >= 0 ? to + t : stopAfter(text, to) - 1,
                );
              }
              hit = subject.searchWindows(searching(source), windows);
              break;
            }
            case CONFIRM_ANCHORED: {
              windows.clear();
              let whole = false;
              for (let h = firstHit[c] as number; h !== -1; h = hitNext[h] as number) {
                const from = hitStart[h] as number;
                const start = l >= 0 ? from - l : stopBefore(text, from) + 1;
                // No stop within reach (a long token): trying every position would cost more
                // than one search of the whole part.
                if (start === 0 && l < 0 && from > STOP_SCAN_LIMIT) whole = true;
                windows.add(start, from);
              }
              hit = whole
                ? subject.exec(searching(source), 0)
                : subject.anchoredAt(anchored(source), windows);
              break;
            }
            default:
              hit = subject.exec(searching(source), 0);
          }
          if (hit !== null) {
            foundMark.push(m);
            foundPart.push(p);
            foundText.push(hit);
          }
        }
        for (const shard of shards) {
          for (const m of subject.setMatches(shard)) {
            const hit = subject.exec(searching(sourceOf[m] as number), 0);
            if (hit !== null) {
              foundMark.push(m);
              foundPart.push(p);
              foundText.push(hit);
            }
          }
        }
      }
      // Mark order, then part order (each (mark, part) is found once).
      const order = foundMark.map((_, i) => i);
      order.sort(
        (a, b) =>
          (foundMark[a] as number) - (foundMark[b] as number) ||
          (foundPart[a] as number) - (foundPart[b] as number),
      );
      return order.map((i) => ({
        mark: marks[foundMark[i] as number] as M,
        part: MAIL_PARTS[foundPart[i] as number] as MailPart,
        text: foundText[i] as string,
      }));
    },
  };
}

/**
 * The analysis of a regex mark source (one that is not a plain literal): remembered by the runtime,
 * else read from `stored`, else analysed here. When `stored` was given and did not hold it, it is
 * handed to `onAnalysed` in its stored form.
 */
function analyseRegex(
  source: string,
  stored: StoredAnalyses | undefined,
  runtime: MatchingRuntime,
): RegexAnalysis {
  const text = stored?.known.get(source);
  const known = runtime.rememberedAnalysis(source);
  if (known !== undefined) {
    if (stored !== undefined && text === undefined) stored.onAnalysed(source, encodeAnalysis(known));
    return known;
  }
  const decoded = text === undefined ? null : decodeAnalysis(text, runtime.decodedTables);
  if (decoded !== null) {
    runtime.rememberAnalysis(source, decoded);
    return decoded;
  }
  const a = runtime.analysedRegex(source);
  stored?.onAnalysed(source, encodeAnalysis(a));
  return a;
}

/**
 * The (key, mark) pairs grouped by key, a counting sort that keeps marks in order: key k's marks are
 * keyMark[keyStart[k] .. keyStart[k + 1]). A module-level function: a generator's own loops are not
 * optimised, and this one's optimised code carries over from one compile to the next.
 */
function groupByKey(
  pairKey: Int32Array,
  pairMark: Int32Array,
  pairs: number,
  keyCount: number,
): { keyStart: Int32Array; keyMark: Int32Array } {
  const keyStart = new Int32Array(keyCount + 1);
  for (let i = 0; i < pairs; i++) {
    const next = (pairKey[i] as number) + 1;
    keyStart[next] = (keyStart[next] as number) + 1;
  }
  for (let k = 0; k < keyCount; k++) keyStart[k + 1] = (keyStart[k + 1] as number) + (keyStart[k] as number);
  const fill = keyStart.slice(0, keyCount);
  const keyMark = new Int32Array(pairs);
  for (let i = 0; i < pairs; i++) {
    const k = pairKey[i] as number;
    const at = fill[k] as number;
    keyMark[at] = pairMark[i] as number;
    fill[k] = at + 1;
  }
  return { keyStart, keyMark };
}
