/**
 * The compiled matcher for one definition version (§13.3): a FilteredRE2-style literal prefilter.
 *
 * - One Aho-Corasick automaton over case-folded UTF-16 text holds every plain literal mark and the
 *   literal atoms (`literalAtoms`) of every regex mark; each part of a message is scanned once.
 * - A plain ASCII literal's first hit is already re2's answer (same leftmost match, same case folding:
 *   see `foldCodeUnit`), so it needs no confirmation.
 * - A regex mark whose atom hit is confirmed by its own re2 (compiled lazily, LRU-bounded), searching
 *   from the last position where a match containing that hit could start; that search returns
 *   exactly what re2 returns on the whole part.
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
import { buildAhoCorasick } from './aho-corasick.ts';
import { analyseSource, plainLiteral } from './atoms.ts';
import type { IndexedMark, MarkHit, Matcher } from './matcher.ts';

/** Most patterns per RE2.Set (a shard-size sweep on this machine found ~1k best). */
export const SET_SHARD_SIZE = 1000;
/** Most confirming re2 objects kept compiled per matcher. */
export const CONFIRM_CACHE_SIZE = 8192;

const KIND_LITERAL = 0;
const KIND_ATOMS = 1;
const KIND_SET = 2;

export interface CompileOptions {
  /** Patterns per RE2.Set shard; default {@link SET_SHARD_SIZE}. */
  readonly setShardSize?: number;
  /** Confirming re2 objects kept compiled; default {@link CONFIRM_CACHE_SIZE}. */
  readonly confirmCacheSize?: number;
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
}

/** An RE2.Set (its type is not exported by name from 're2'). */
type ShardSet = ReturnType<typeof RE2.Set>;

interface Shard {
  readonly set: ShardSet | null;
  readonly marks: readonly number[];
}

/** Compiles `marks` into a matcher whose cost grows far slower than the number of marks (§13.3). */
export function compileMatcher(marks: readonly IndexedMark[], options: CompileOptions = {}): CompiledMatcher {
  const shardSize = options.setShardSize ?? SET_SHARD_SIZE;
  const n = marks.length;
  const kind = new Uint8Array(n);
  const partMask = new Uint8Array(n);
  const literalLength = new Int32Array(n);
  const reach = new Int32Array(n); // longest match in code units, -1 when unbounded
  const lead = new Int32Array(n); // most code units a match runs before its first atom, -1 when unbounded
  const keyIndex = new Map<string, number>();
  const keys: string[] = [];
  const keyMarks: number[][] = [];
  const setMarksByPart: number[][] = MAIL_PARTS.map(() => []);
  const analysed = new Map<
    string,
    { literal: string | null; atoms: readonly string[] | null; reach: number; lead: number }
  >();
  let literalMarks = 0;
  let atomMarks = 0;
  let setMarks = 0;

  const addKey = (key: string, mark: number): void => {
    let k = keyIndex.get(key);
    if (k === undefined) {
      k = keys.length;
      keyIndex.set(key, k);
      keys.push(key);
      keyMarks.push([]);
    }
    (keyMarks[k] as number[]).push(mark);
  };

  for (let m = 0; m < n; m++) {
    const mark = marks[m] as IndexedMark;
    let mask = 0;
    MAIL_PARTS.forEach((part, i) => {
      if (mark.parts.includes(part)) mask |= 1 << i;
    });
    partMask[m] = mask;
    let a = analysed.get(mark.source);
    if (a === undefined) {
      const literal = plainLiteral(mark.source);
      const analysis = literal === null ? analyseSource(mark.source) : null;
      const atoms = analysis?.atoms ?? null;
      a = {
        literal,
        atoms,
        reach: atoms === null ? -1 : (analysis?.maxLength ?? -1),
        lead: atoms === null ? -1 : (analysis?.maxPrefix ?? -1),
      };
      analysed.set(mark.source, a);
    }
    if (a.literal !== null) {
      kind[m] = KIND_LITERAL;
      literalLength[m] = a.literal.length;
      addKey(a.literal, m);
      literalMarks++;
    } else if (a.atoms !== null) {
      kind[m] = KIND_ATOMS;
      reach[m] = a.reach;
      lead[m] = a.lead;
      for (const atom of a.atoms) addKey(atom, m);
      atomMarks++;
    } else {
      kind[m] = KIND_SET;
      MAIL_PARTS.forEach((_, i) => {
        if ((mask & (1 << i)) !== 0) (setMarksByPart[i] as number[]).push(m);
      });
      setMarks++;
    }
  }

  const automaton = buildAhoCorasick(keys);
  // Flatten key -> marks into two arrays (start offsets and mark ids).
  const keyStart = new Int32Array(keys.length + 1);
  let total = 0;
  keyMarks.forEach((list, k) => {
    keyStart[k] = total;
    total += list.length;
  });
  keyStart[keys.length] = total;
  const keyMark = new Int32Array(total);
  keyMarks.forEach((list, k) => keyMark.set(list, keyStart[k]));

  const shardsByPart: Shard[][] = setMarksByPart.map((list) => buildShards(marks, list, shardSize));
  const confirm = createRegexCache(options.confirmCacheSize ?? CONFIRM_CACHE_SIZE, 'giu');
  const confirmSticky = createRegexCache(options.confirmCacheSize ?? CONFIRM_CACHE_SIZE, 'iuy');
  const keyLength = Int32Array.from(keys, (k) => k.length);

  // Per-(message, part) bookkeeping without allocating per mark: a mark is "seen" in the current part
  // when its stamp equals the part's stamp.
  const seen = new Uint32Array(n);
  const slot = new Int32Array(n); // a candidate mark's index in the current part's candidate list
  let stamp = 0;

  return {
    markCount: n,
    stats: {
      literalMarks,
      atomMarks,
      setMarks,
      keys: keys.length,
      automatonNodes: automaton.nodeCount,
      setShards: shardsByPart.reduce((sum, s) => sum + s.length, 0),
    },
    match(message: MailMessage): readonly MarkHit[] {
      const found: { m: number; p: number; text: string }[] = [];
      MAIL_PARTS.forEach((part, p) => {
        const text = partText(message, part);
        const bit = 1 << p;
        stamp = stamp === 0xffffffff ? 1 : stamp + 1;
        if (stamp === 1) seen.fill(0);
        const current = stamp;
        const candidates: number[] = []; // regex marks with an atom hit in this part, in first-hit order
        const hitEnds: number[][] = []; // per candidate: every atom hit end (or start, see below)
        automaton.scan(text, (key, end) => {
          for (let i = keyStart[key] as number, to = keyStart[key + 1] as number; i < to; i++) {
            const m = keyMark[i] as number;
            if ((partMask[m]! & bit) === 0) continue;
            if (seen[m] === current) {
              // A bounded regex is confirmed around every hit, one with a bounded lead just before
              // every hit's start; the others need only the first.
              if (kind[m] === KIND_ATOMS) {
                const ends = hitEnds[slot[m]!] as number[];
                if (reach[m]! >= 0) {
                  if (ends[ends.length - 1] !== end) ends.push(end);
                } else if (lead[m]! >= 0) {
                  ends.push(end + 1 - keyLength[key]!);
                }
              }
              continue;
            }
            seen[m] = current;
            if (kind[m] === KIND_LITERAL) {
              found.push({ m, p, text: text.slice(end + 1 - literalLength[m]!, end + 1) });
            } else {
              slot[m] = candidates.length;
              candidates.push(m);
              hitEnds.push([reach[m]! < 0 && lead[m]! >= 0 ? end + 1 - keyLength[key]! : end]);
            }
          }
        });
        const shards = shardsByPart[p] as Shard[];
        if (candidates.length === 0 && shards.length === 0) return;
        const subject = new Subject(text);
        candidates.forEach((m, c) => {
          const source = (marks[m] as IndexedMark).source;
          const r = reach[m] as number;
          const l = lead[m] as number;
          const hit =
            r >= 0
              ? subject.execAround(confirm(source), hitEnds[c] as number[], r)
              : l >= 0
                ? subject.execAt(confirmSticky(source), hitEnds[c] as number[], l)
                : subject.exec(confirm(source), 0);
          if (hit !== null) found.push({ m, p, text: hit });
        });
        for (const shard of shards) {
          for (const m of subject.setMatches(shard)) {
            const hit = subject.exec(confirm((marks[m] as IndexedMark).source), 0);
            if (hit !== null) found.push({ m, p, text: hit });
          }
        }
      });
      found.sort((a, b) => a.m - b.m || a.p - b.p);
      return found.map(({ m, p, text }) => ({
        mark: marks[m] as IndexedMark,
        part: MAIL_PARTS[p] as MailPart,
        text,
      }));
    },
  };
}

function buildShards(marks: readonly IndexedMark[], list: readonly number[], size: number): Shard[] {
  const shards: Shard[] = [];
  for (let i = 0; i < list.length; i += size) shards.push(...shard(marks, list.slice(i, i + size)));
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
 * An LRU of compiled re2 objects by source. Flags are 'iu' plus 'g' (a search may start at
 * lastIndex) or 'y' (a match must start at lastIndex); neither changes what matches where.
 */
function createRegexCache(capacity: number, flags: 'giu' | 'iuy'): (source: string) => RE2 {
  const cache = new Map<string, RE2>();
  return (source) => {
    let re = cache.get(source);
    if (re !== undefined) {
      cache.delete(source);
      cache.set(source, re);
      return re;
    }
    re = new RE2(source, flags);
    cache.set(source, re);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    return re;
  };
}

/**
 * One part's text as re2 sees it: UTF-8 bytes made once, so confirmations do not convert the string
 * again (node-re2 caches only the last string per regex), with code-unit to byte offsets when needed.
 */
class Subject {
  private readonly bytes: Buffer;
  private offsets: Uint32Array | null = null;

  constructor(private readonly text: string) {
    this.bytes = Buffer.from(text, 'utf8');
  }

  /** re2's leftmost match at or after code unit `from`, as text, or null. */
  exec(re: RE2, from: number): string | null {
    re.lastIndex = this.byteOffset(from);
    const m = re.exec(this.bytes);
    re.lastIndex = 0;
    return m === null ? null : m[0].toString('utf8');
  }

  /**
   * re2's leftmost match in the whole text, for a regex whose matches span at most `reach` code units
   * and each contain an atom occurrence ending at one of `ends` (increasing).
   *
   * Every match lies in the window [end + 1 - reach, end + reach] of one of its atom hits, so re2
   * runs only on those windows (merged, in order), each cut two code units wider on both sides so
   * that `\b`, `^` and `$` see their real neighbours inside the window. A match found inside the
   * window proper is a match of the whole text, and the first window holding one holds the leftmost;
   * anything found at a cut edge is set aside for one exact search of the whole text from that window.
   */
  execAround(re: RE2, ends: readonly number[], reach: number): string | null {
    const length = this.text.length;
    let i = 0;
    while (i < ends.length) {
      const start = Math.max(0, (ends[i] as number) + 1 - reach);
      let stop = Math.min(length, (ends[i] as number) + reach);
      i++;
      while (i < ends.length && (ends[i] as number) + 1 - reach <= stop) {
        stop = Math.min(length, (ends[i] as number) + reach);
        i++;
      }
      // Two code units of context each side: a cut inside a surrogate pair loses at most one.
      const cutFromUnit = Math.max(0, start - 2);
      const cutToUnit = Math.min(length, stop + 3);
      if (cutFromUnit === 0 && cutToUnit === length) return this.exec(re, 0);
      const cutFrom = this.byteOffset(cutFromUnit);
      const cutTo = this.byteOffset(cutToUnit);
      re.lastIndex = 0;
      const m = re.exec(this.bytes.subarray(cutFrom, cutTo));
      if (m === null) continue;
      const matchFrom = cutFrom + m.index;
      const matchTo = matchFrom + m[0].length;
      const inside =
        (cutFromUnit === 0 || matchFrom >= this.byteOffset(start)) &&
        (cutToUnit === length || matchTo <= this.byteOffset(Math.min(length, stop + 1)));
      return inside ? m[0].toString('utf8') : this.exec(re, start);
    }
    return null;
  }

  /**
   * re2's leftmost match in the whole text, for a regex whose matches start at most `lead` code units
   * before the start of an atom occurrence they contain, `starts` being every atom hit's start: the
   * leftmost position in those ranges where an anchored ('y') match exists starts the leftmost match.
   */
  execAt(re: RE2, starts: number[], lead: number): string | null {
    starts.sort((a, b) => a - b);
    let next = 0; // first position not tried yet
    for (const h of starts) {
      for (let at = Math.max(next, h - lead, 0); at <= h; at++) {
        const byte = this.byteOffset(at);
        if (at > 0 && byte === this.byteOffset(at - 1)) continue; // inside a surrogate pair
        re.lastIndex = byte;
        const m = re.exec(this.bytes);
        if (m !== null) {
          re.lastIndex = 0;
          return m[0].toString('utf8');
        }
      }
      next = Math.max(next, h + 1);
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
    if (this.bytes.length === this.text.length) return unit; // ASCII
    this.offsets ??= utf8Offsets(this.text);
    return this.offsets[unit] as number;
  }
}

/** Byte offset of each code unit (a low surrogate of a pair maps to its pair's start). */
function utf8Offsets(text: string): Uint32Array {
  const offsets = new Uint32Array(text.length + 1);
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
