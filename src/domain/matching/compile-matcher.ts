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
 *   {@link CONFIRM_CACHE_SIZE} kept: see `createRegexCache`) on windows around the hits only: a match lies within its
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
import RE2 from 're2';
import { MAIL_PARTS } from '../mail/mail-message.ts';
import type { MailMessage, MailPart } from '../mail/mail-message.ts';
import { partText } from '../mail/parts.ts';
import { setImmediate } from 'node:timers/promises';
import { buildAhoCorasickSteps, runSteps } from './aho-corasick.ts';
import { foldCodeUnit, isStopCode, plainLiteral } from './atoms.ts';
import {
  analysedRegex,
  decodeAnalysis,
  encodeAnalysis,
  rememberAnalysis,
  rememberedAnalysis,
  type RegexAnalysis,
} from './mark-analysis.ts';
import type { IndexedMark, MarkHit, Matcher } from './matcher.ts';

/** Most patterns per RE2.Set (a shard-size sweep on this machine found ~1k best). */
export const SET_SHARD_SIZE = 1000;
/**
 * Most confirming re2 objects kept compiled per matcher (both uses together). Each costs ~5–13 KB of
 * native memory; a miss costs one re2 compile (~30–80 µs). At 10k synthetic marks the regex marks
 * that hit still fit (2,048 and 2,560 both compiled 0.16 re2 per 2 KB message, 1,536 compiled 2.15
 * per 50 KB one); at 100k, 2,048 added ~5–8 MB less RSS than 2,560. What is kept and evicted is
 * governed by `createRegexCache`.
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

export interface CompiledMatcher extends Matcher {
  readonly stats: MatcherStats;
  /** re2 objects compiled so far to confirm or extract matches (diagnostics: misses of the confirm cache). */
  regexCompiles(): number;
}

/** An RE2.Set (its type is not exported by name from 're2'). */
type ShardSet = ReturnType<typeof RE2.Set>;

interface Shard {
  readonly set: ShardSet | null;
  readonly marks: readonly number[];
}

/** How a regex mark with atoms is confirmed (see `compileMatcher`). */
const CONFIRM_WINDOW = 0; // re2 on a window around each atom hit
const CONFIRM_ANCHORED = 1; // re2 anchored at each position where a match could start
const CONFIRM_WHOLE = 2; // re2 on the whole part

/** Farthest a gap's run is followed before a hit is let through unchecked (code units). */
const GAP_SCAN_LIMIT = 64;

/** Windows closer than this many code units are searched as one (one re2 call instead of two). */
const MERGE_GAP = 32;

/** Compiles `marks` into a matcher whose cost grows far slower than the number of marks (§13.3). */
export function compileMatcher(marks: readonly IndexedMark[], options: CompileOptions = {}): CompiledMatcher {
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
export async function compileMatcherAsync(
  marks: readonly IndexedMark[],
  options: AsyncCompileOptions = {},
): Promise<CompiledMatcher> {
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
function* compileSteps(
  marks: readonly IndexedMark[],
  options: CompileOptions,
): Generator<void, CompiledMatcher> {
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
      const mark = marks[m] as IndexedMark;
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
      const a = analyseRegex(mark.source, options.stored);
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
  const { searching, anchored } = createRegexCache(sources, capacity, counts);

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
    match(message: MailMessage): readonly MarkHit[] {
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
        const subject = new Subject(text);
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
        mark: marks[foundMark[i] as number] as IndexedMark,
        part: MAIL_PARTS[foundPart[i] as number] as MailPart,
        text: foundText[i] as string,
      }));
    },
  };
}

/** Forgets this thread's analyses, as a restart would (see mark-analysis.ts). */
export { forgetAnalyses } from './mark-analysis.ts';

/**
 * The analysis of a regex mark source (one that is not a plain literal): remembered on this thread
 * (mark-analysis.ts), else read from `stored`, else analysed here. When `stored` was given and did
 * not hold it, it is handed to `onAnalysed` in its stored form.
 */
function analyseRegex(source: string, stored: StoredAnalyses | undefined): RegexAnalysis {
  const text = stored?.known.get(source);
  const known = rememberedAnalysis(source);
  if (known !== undefined) {
    if (stored !== undefined && text === undefined) stored.onAnalysed(source, encodeAnalysis(known));
    return known;
  }
  const decoded = text === undefined ? null : decodeAnalysis(text);
  if (decoded !== null) {
    rememberAnalysis(source, decoded);
    return decoded;
  }
  const a = analysedRegex(source);
  stored?.onAnalysed(source, encodeAnalysis(a));
  return a;
}

const BOUNDARY_BEFORE = 1;
const BOUNDARY_AFTER = 2;

/**
 * A plain literal (see `plainLiteral`), optionally between `\b` anchors (`\bnorgate\b`, the
 * `words` shape of literal-pattern.ts): then the literal's first hit where those hold is re2's match.
 */
function boundedLiteral(source: string): { literal: string | null; boundary: number } {
  let body = source;
  let boundary = 0;
  if (body.startsWith('\\b')) {
    body = body.slice(2);
    boundary |= BOUNDARY_BEFORE;
  }
  // A final `\b` after an even run of backslashes is an anchor; after an odd run, plainLiteral
  // refuses what is left (a lone backslash), so nothing is misread.
  if (body.endsWith('\\b')) {
    body = body.slice(0, -2);
    boundary |= BOUNDARY_AFTER;
  }
  const literal = body === source ? plainLiteral(source) : plainLiteral(body);
  return literal === null ? { literal: plainLiteral(source), boundary: 0 } : { literal, boundary };
}

/** re2's ASCII word character (`\w` for `\b`): [0-9A-Za-z_]. */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Whether re2's `\b` holds where `boundary` asks, around text[from..to]. */
function atBoundaries(text: string, from: number, to: number, boundary: number): boolean {
  if ((boundary & BOUNDARY_BEFORE) !== 0) {
    const before = from > 0 && isWordCode(text.charCodeAt(from - 1));
    if (before === isWordCode(text.charCodeAt(from))) return false;
  }
  if ((boundary & BOUNDARY_AFTER) !== 0) {
    const after = to + 1 < text.length && isWordCode(text.charCodeAt(to + 1));
    if (after === isWordCode(text.charCodeAt(to))) return false;
  }
  return true;
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

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(array.length * 2);
  next.set(array);
  return next;
}

/**
 * Farthest a stop character is looked for from a hit (code units). Beyond it the side counts as
 * unbounded (a looser bound, so still exact), which keeps a long token without whitespace (a
 * base64 blob, say) from costing a scan per hit.
 */
const STOP_SCAN_LIMIT = 512;

/** Index of the last stop character before `at`, or -1 when there is none within the limit. */
function stopBefore(text: string, at: number): number {
  const limit = Math.max(0, at - STOP_SCAN_LIMIT);
  let i = at - 1;
  while (i >= limit && !isStopCode(text.charCodeAt(i))) i--;
  return i >= limit ? i : -1;
}

/** Index of the first stop character after `at`, or the text's length when there is none within the limit. */
function stopAfter(text: string, at: number): number {
  const limit = Math.min(text.length, at + 1 + STOP_SCAN_LIMIT);
  let i = at + 1;
  while (i < limit && !isStopCode(text.charCodeAt(i))) i++;
  return i < limit ? i : text.length;
}

/**
 * Ranges [from, to] of code units (clamped by the caller's text), kept sorted and merged: a
 * candidate's hits come in order of their end, so each new range almost always sorts last.
 */
class Windows {
  from = new Int32Array(64);
  to = new Int32Array(64);
  count = 0;

  clear(): void {
    this.count = 0;
  }

  add(from: number, to: number): void {
    let i = this.count;
    if (i === this.from.length) {
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    // Insertion keeps them sorted by start.
    while (i > 0 && (this.from[i - 1] as number) > from) {
      this.from[i] = this.from[i - 1] as number;
      this.to[i] = this.to[i - 1] as number;
      i--;
    }
    this.from[i] = from;
    this.to[i] = to;
    this.count++;
  }
}

function* buildShards(
  marks: readonly IndexedMark[],
  list: readonly number[],
  size: number,
): Generator<void, Shard[]> {
  const shards: Shard[] = [];
  for (let i = 0; i < list.length; i += size) {
    shards.push(...shard(marks, list.slice(i, i + size)));
    yield;
  }
  return shards;
}

/** One RE2.Set for `ids`, halved until it compiles; a single pattern re2 cannot put in a set runs alone. */
function shard(marks: readonly IndexedMark[], ids: readonly number[]): Shard[] {
  try {
    return [
      {
        set: new RE2.Set(
          ids.map((m) => (marks[m] as IndexedMark).source),
          'iu',
        ),
        marks: ids,
      },
    ];
  } catch {
    if (ids.length === 1) return [{ set: null, marks: ids }];
    const half = Math.ceil(ids.length / 2);
    return [...shard(marks, ids.slice(0, half)), ...shard(marks, ids.slice(half))];
  }
}

/**
 * Compiled re2 objects by source and use, made on first use; at most `capacity` are kept in all.
 * Flags are 'iu' plus 'g' (`searching`: a search may start at lastIndex) or 'y' (`anchored`: a match
 * must start at lastIndex); neither changes what matches where.
 *
 * Each object holds re2 native memory (its programs and lazily grown DFAs, ~5–13 KB for a mark's
 * small pattern) that V8 does not see. An object dropped young is freed by the next cheap young
 * collection; one kept long enough to reach the old generation is freed only by a full collection,
 * which nothing hurries along (the JS heap hardly grows while matching). So keeping and evicting
 * freely piled up dead native memory: +233 MB RSS at 100k marks after 2,710 messages (issue 3's
 * benchmark, in a fresh process). Hence:
 * - until the cache is full, every object is kept;
 * - then an object is kept only when its regex is needed a second time within the last
 *   `capacity / GHOST_SHARE` one-off compiles (a one-off is used and dropped young);
 * - keeping it evicts one by CLOCK (second chance: an object used since the hand last passed stays),
 *   and is allowed only while fewer than {@link EVICTED_BUDGET} evicted objects on the thread still
 *   wait to be collected (a FinalizationRegistry counts them down).
 */
function createRegexCache(
  sources: readonly string[],
  capacity: number,
  counts: { compiles: number },
): { searching: (source: number) => RE2; anchored: (source: number) => RE2 } {
  const compiled: (RE2 | undefined)[] = new Array<RE2 | undefined>(sources.length * 2);
  const size = Math.max(1, capacity);
  const ring = new Int32Array(size).fill(-1); // entry: source * 2 + (anchored ? 1 : 0)
  const used = new Uint8Array(sources.length * 2);
  const ghost = new Uint8Array(sources.length * 2); // compiled once lately and not kept
  const ghostLimit = Math.max(1, Math.floor(size / GHOST_SHARE));
  let ghosts = 0;
  let filled = 0;
  let hand = 0;
  const get = (entry: number): RE2 => {
    let re = compiled[entry];
    if (re !== undefined) {
      used[entry] = 1;
      return re;
    }
    re = new RE2(sources[entry >> 1] as string, (entry & 1) === 0 ? 'giu' : 'iuy');
    counts.compiles++;
    if (filled < size) {
      compiled[entry] = re;
      ring[filled++] = entry;
      return re;
    }
    if (ghost[entry] === 0) {
      ghost[entry] = 1;
      if (++ghosts >= ghostLimit) {
        ghost.fill(0);
        ghosts = 0;
      }
      return re;
    }
    if (evicted.waiting >= EVICTED_BUDGET) return re;
    for (;;) {
      const old = ring[hand] as number;
      if (used[old] === 0) break;
      used[old] = 0;
      hand = hand + 1 === size ? 0 : hand + 1;
    }
    const victim = ring[hand] as number;
    evicted.registry.register(compiled[victim] as RE2, undefined);
    evicted.waiting++;
    compiled[victim] = undefined;
    compiled[entry] = re;
    ring[hand] = entry;
    hand = hand + 1 === size ? 0 : hand + 1;
    return re;
  };
  return { searching: (source) => get(source * 2), anchored: (source) => get(source * 2 + 1) };
}

/**
 * One-off compiles remembered: `capacity / GHOST_SHARE` of them. Measured at 100k marks in a fresh
 * process (issue 3, without the eviction budget): remembering capacity × 4 added +267 MB RSS after
 * 2,710 messages, capacity × 1 +173 MB and capacity / 4 +135 MB, with 10k-mark latency unchanged
 * within noise.
 */
const GHOST_SHARE = 4;

/**
 * Most evicted re2 objects on the thread that may wait for collection at once (~13 KB each); past
 * it, objects are used and dropped young instead of kept. At 100k marks (bench memory child, 2,710
 * messages): 1,024 added +143 MB RSS, 256 +138 MB; 10k-mark latency and compiles were the same.
 */
const EVICTED_BUDGET = 256;

/** Evicted re2 objects not yet collected, on this thread. */
const evicted = {
  waiting: 0,
  registry: new FinalizationRegistry<undefined>(() => {
    evicted.waiting--;
  }),
};

/**
 * One part's text as re2 sees it: UTF-8 bytes made once per part, when first needed, so
 * confirmations do not convert the string again (node-re2 caches only the last string per regex,
 * and a short string costs re2 about twice what a slice of bytes does), with code-unit to byte
 * offsets when the text is not ASCII.
 */
class Subject {
  private bytesCache: Buffer | null = null;
  private offsets: ((unit: number) => number) | null = null;

  constructor(private readonly text: string) {}

  private get bytes(): Buffer {
    this.bytesCache ??= utf8Bytes(this.text);
    return this.bytesCache;
  }

  /** re2's leftmost match at or after code unit `from`, as text, or null. */
  exec(re: RE2, from: number): string | null {
    const bytes = this.bytes;
    re.lastIndex = this.byteOffset(from);
    const m = re.exec(bytes);
    re.lastIndex = 0;
    return m === null ? null : m[0].toString('utf8');
  }

  /**
   * re2's leftmost match in the whole text, for a regex each of whose matches lies inside one of
   * `windows` (ranges of code units, sorted by start; `re` has flag 'g').
   *
   * re2 runs only on those windows (merged, in order), each cut two code units wider on both sides
   * so that `\b`, `^` and `$` see their real neighbours, and searching from the window's start. A
   * match that ends inside the window proper is a match of the whole text, and the first window
   * holding one holds the leftmost; one that runs to the cut edge is set aside for one exact search
   * of the whole text from that window.
   */
  searchWindows(re: RE2, windows: Windows): string | null {
    const text = this.text;
    const length = text.length;
    const froms = windows.from;
    const tos = windows.to;
    const count = windows.count;
    let i = 0;
    while (i < count) {
      let start = Math.max(0, froms[i] as number);
      let stop = Math.min(length - 1, tos[i] as number);
      i++;
      while (i < count && (froms[i] as number) <= stop + MERGE_GAP) {
        stop = Math.max(stop, Math.min(length - 1, tos[i] as number));
        i++;
      }
      if (stop < start) continue;
      if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
      let cutFrom = Math.max(0, start - 2);
      let cutTo = Math.min(length, stop + 3);
      if (cutFrom > 0 && isLowSurrogate(text.charCodeAt(cutFrom))) cutFrom--;
      if (cutTo < length && isLowSurrogate(text.charCodeAt(cutTo))) cutTo++;
      if (cutFrom === 0 && cutTo === length) return this.exec(re, start);
      const bytes = this.bytes;
      const cutFromByte = this.byteOffset(cutFrom);
      re.lastIndex = this.byteOffset(start) - cutFromByte;
      const m = re.exec(bytes.subarray(cutFromByte, this.byteOffset(cutTo)));
      re.lastIndex = 0;
      if (m === null) continue;
      const matchTo = cutFromByte + m.index + m[0].length;
      return cutTo === length || matchTo <= this.byteOffset(stop + 1)
        ? m[0].toString('utf8')
        : this.exec(re, start);
    }
    return null;
  }

  /**
   * re2's leftmost match in the whole text, for a regex each of whose matches starts inside one of
   * `windows` (ranges of code units, sorted by start; `re` has flag 'y'): the leftmost position in
   * them where an anchored match exists starts the leftmost match.
   */
  anchoredAt(re: RE2, windows: Windows): string | null {
    const bytes = this.bytes;
    let next = 0; // first position not tried yet
    for (let w = 0; w < windows.count; w++) {
      const to = windows.to[w] as number;
      for (let at = Math.max(next, windows.from[w] as number, 0); at <= to; at++) {
        const byte = this.byteOffset(at);
        if (at > 0 && byte === this.byteOffset(at - 1)) continue; // inside a surrogate pair
        re.lastIndex = byte;
        const m = re.exec(bytes);
        if (m !== null) {
          re.lastIndex = 0;
          return m[0].toString('utf8');
        }
      }
      next = Math.max(next, to + 1);
    }
    re.lastIndex = 0;
    return null;
  }

  /** Indices (in `shard.marks`) of the shard's marks that match. */
  setMatches(shard: Shard): readonly number[] {
    if (shard.set !== null) {
      try {
        return shard.set.match(this.bytes).map((i) => shard.marks[i] as number);
      } catch {
        // "RE2.Set matching failed: out of memory": fall back to each mark's own re2 below.
      }
    }
    return shard.marks;
  }

  private byteOffset(unit: number): number {
    if (unit === 0) return 0;
    const bytes = this.bytes;
    const text = this.text;
    if (bytes.length === text.length) return unit; // ASCII
    if (this.offsets === null) {
      // A few non-ASCII characters in a long text (a name in a manifest): find them natively and
      // count around them, instead of a pass over every code unit (~0.4 ms per 50 KB).
      if ((bytes.length - text.length) * SPARSE_SHARE < text.length) this.offsets = sparseOffsets(text);
      else {
        const dense = utf8Offsets(text);
        this.offsets = (u) => dense[u] as number;
      }
    }
    return this.offsets(unit);
  }
}

/** Below one extra UTF-8 byte per this many code units, byte offsets are found the sparse way. */
const SPARSE_SHARE = 16;

/** Runs of non-ASCII code units. */
const NON_ASCII = /[\u0080-\uffff]+/g;

/**
 * Code unit -> byte offset in `text` as UTF-8, as `utf8Offsets` gives it (a low surrogate of a pair
 * maps to its pair's start), from the runs of non-ASCII code units alone. Exported for its test.
 */
export function sparseOffsets(text: string): (unit: number) => number {
  const from: number[] = [];
  const to: number[] = [];
  const before: number[] = []; // extra bytes (bytes minus code units) before each run
  let extra = 0;
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(text); m !== null; m = NON_ASCII.exec(text)) {
    from.push(m.index);
    to.push(m.index + m[0].length);
    before.push(extra);
    for (let i = m.index; i < m.index + m[0].length; i++) extra += extraBytes(text, i);
  }
  const runs = from.length;
  const at = (unit: number): number => {
    // The last run starting at or before `unit`.
    let lo = 0;
    let hi = runs - 1;
    let r = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((from[mid] as number) <= unit) {
        r = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (r === -1) return unit;
    if (unit >= (to[r] as number)) return unit + (r + 1 < runs ? (before[r + 1] as number) : extra);
    if (isLowSurrogate(text.charCodeAt(unit)) && isHighSurrogate(text.charCodeAt(unit - 1)))
      return at(unit - 1);
    let e = before[r] as number;
    for (let i = from[r] as number; i < unit; i++) e += extraBytes(text, i);
    return unit + e;
  };
  return at;
}

/** UTF-8 bytes of code unit i less one (a pair's high surrogate takes the pair's four, its low none). */
function extraBytes(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 0;
  if (c < 0x800) return 1;
  if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) return 3;
  if (isLowSurrogate(c) && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) return -1;
  return 2;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Longest text (code units) whose bytes and offsets go to the shared scratch buffers below. Parts are
 * converted one at a time and only read before the next part is, so one buffer serves every matcher
 * on the thread; reusing it keeps a large message's bytes from being allocated and freed per part,
 * which interleaved with long-lived re2 objects fragments the native heap (RSS grows, issue 3).
 */
const SCRATCH_UNITS = 1 << 20;
let scratchBytes = Buffer.allocUnsafeSlow(0);
let scratchOffsets = new Uint32Array(0);

/** `text` as UTF-8 (as `Buffer.from` makes it), valid until the next call. */
function utf8Bytes(text: string): Buffer {
  if (text.length > SCRATCH_UNITS) return Buffer.from(text, 'utf8');
  const need = text.length * 3; // a code unit takes at most 3 bytes (a pair takes 4 for two)
  if (scratchBytes.length < need)
    scratchBytes = Buffer.allocUnsafeSlow(
      Math.min(SCRATCH_UNITS * 3, Math.max(need, scratchBytes.length * 2, 1 << 16)),
    );
  return scratchBytes.subarray(0, scratchBytes.write(text, 0, 'utf8'));
}

/**
 * Byte offset of each code unit (a low surrogate of a pair maps to its pair's start), valid until the
 * next call. Exported for the test of `sparseOffsets`.
 */
export function utf8Offsets(text: string): Uint32Array {
  let offsets: Uint32Array;
  if (text.length > SCRATCH_UNITS) offsets = new Uint32Array(text.length + 1);
  else {
    if (scratchOffsets.length < text.length + 1)
      scratchOffsets = new Uint32Array(
        Math.min(SCRATCH_UNITS + 1, Math.max(text.length + 1, scratchOffsets.length * 2, 1 << 14)),
      );
    offsets = scratchOffsets;
  }
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        offsets[i + 1] = bytes;
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  offsets[text.length] = bytes;
  return offsets;
}
