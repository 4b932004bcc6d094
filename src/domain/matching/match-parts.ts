/**
 * Matching one message with a compiled plan (§13.3), part by part: the automaton's hits become
 * literal marks' hits at once and regex marks' candidates (after the neighbour and gap checks
 * drop hits no match can use); each candidate is confirmed by its own re2 on windows around its
 * hits; set shards name the marks without atoms that match. Hits come back in mark order, then
 * part order, as one re2 per mark gives them.
 *
 * Owns: the per-message loop and its bookkeeping (stamps, candidate and hit lists in flat arrays,
 * reused between messages). Does not own: the plan (mark-plan.ts), the automaton (aho-corasick.ts),
 * the re2 objects (confirm-cache.ts) or the text's bytes (subject.ts).
 */
import { MAIL_PARTS, partText, type MailMessage, type MailPart } from '../mail/index.ts';
import type { AhoCorasick } from './aho-corasick.ts';
import { foldCodeUnit } from './fold.ts';
import { atBoundaries } from './bounded-literal.ts';
import type { ConfirmCache } from './confirm-cache.ts';
import { CONFIRM_ANCHORED, CONFIRM_WHOLE, CONFIRM_WINDOW, KIND_LITERAL, type MarkPlan } from './mark-plan.ts';
import type { Mark, MarkHit } from './matcher.ts';
import type { Shard } from './set-shards.ts';
import { Subject, type Scratch } from './subject.ts';
import { grow } from './typed-arrays.ts';
import { STOP_SCAN_LIMIT, stopAfter, stopBefore, Windows } from './windows.ts';

/** Farthest a gap's run is followed before a hit is let through unchecked (code units). */
const GAP_SCAN_LIMIT = 64;

/**
 * Per-(message, part) bookkeeping without allocating per mark: a mark is "seen" in the current part
 * when its stamp equals the part's stamp; a candidate's hits are a linked list in flat arrays.
 */
class PartState {
  readonly seen: Uint32Array;
  /** A key hit in the current part. */
  readonly keySeen: Uint32Array;
  /** A candidate mark's index in the current part's candidate list. */
  readonly slot: Int32Array;
  stamp = 0;
  /** Regex marks with an atom hit in this part, in first-hit order. */
  candidates = 0;
  hits = 0;
  candidateMark = new Int32Array(64);
  firstHit = new Int32Array(64);
  lastHit = new Int32Array(64);
  hitStart = new Int32Array(256);
  hitEnd = new Int32Array(256);
  hitNext = new Int32Array(256);
  readonly windows = new Windows();

  constructor(marks: number, keys: number) {
    this.seen = new Uint32Array(marks);
    this.keySeen = new Uint32Array(keys);
    this.slot = new Int32Array(marks);
  }

  /** A new part: every mark and key unseen. */
  next(): number {
    this.stamp = this.stamp === 0xffffffff ? 1 : this.stamp + 1;
    if (this.stamp === 1) {
      this.seen.fill(0);
      this.keySeen.fill(0);
    }
    this.candidates = 0;
    this.hits = 0;
    return this.stamp;
  }

  /** Records hit [start, end] of mark m, a candidate in this part (made one if new). */
  addHit(m: number, start: number, end: number): void {
    let c: number;
    if (this.seen[m] === this.stamp) c = this.slot[m] as number;
    else {
      this.seen[m] = this.stamp;
      c = this.candidates++;
      if (c === this.candidateMark.length) {
        this.candidateMark = grow(this.candidateMark);
        this.firstHit = grow(this.firstHit);
        this.lastHit = grow(this.lastHit);
      }
      this.slot[m] = c;
      this.candidateMark[c] = m;
      this.firstHit[c] = -1;
    }
    const h = this.hits++;
    if (h === this.hitStart.length) {
      this.hitStart = grow(this.hitStart);
      this.hitEnd = grow(this.hitEnd);
      this.hitNext = grow(this.hitNext);
    }
    this.hitStart[h] = start;
    this.hitEnd[h] = end;
    this.hitNext[h] = -1;
    if (this.firstHit[c] === -1) this.firstHit[c] = h;
    else this.hitNext[this.lastHit[c] as number] = h;
    this.lastHit[c] = h;
  }
}

/** Hits found in a message, as (mark, part, text) in parallel lists. */
interface Found {
  readonly mark: number[];
  readonly part: number[];
  readonly text: string[];
}

/** The matcher's `match`: every mark that matches `message`, at most one hit per (mark, part). */
export function createMatch<M extends Mark>(
  marks: readonly M[],
  plan: MarkPlan,
  automaton: AhoCorasick,
  shardsByPart: readonly (readonly Shard[])[],
  confirm: ConfirmCache,
  scratch: Scratch,
): (message: MailMessage) => readonly MarkHit<M>[] {
  const state = new PartState(marks.length, plan.keyLength.length);
  return (message) => {
    const found: Found = { mark: [], part: [], text: [] };
    for (let p = 0; p < MAIL_PARTS.length; p++) {
      const text = partText(message, MAIL_PARTS[p] as MailPart);
      scanPart(plan, automaton, state, text, p, found);
      const shards = shardsByPart[p] as readonly Shard[];
      if (state.candidates === 0 && shards.length === 0) continue;
      const subject = new Subject(text, scratch);
      for (let c = 0; c < state.candidates; c++) {
        const m = state.candidateMark[c] as number;
        const hit = requiredPresent(plan, state, m)
          ? confirmCandidate(plan, state, confirm, subject, text, c)
          : null;
        if (hit !== null) record(found, m, p, hit);
      }
      for (const shard of shards) {
        for (const m of subject.setMatches(shard)) {
          const hit = subject.exec(confirm.searching(plan.sourceOf[m] as number), 0);
          if (hit !== null) record(found, m, p, hit);
        }
      }
    }
    return ordered(marks, found);
  };
}

function record(found: Found, m: number, p: number, text: string): void {
  found.mark.push(m);
  found.part.push(p);
  found.text.push(text);
}

/** Mark order, then part order (each (mark, part) is found once). */
function ordered<M extends Mark>(marks: readonly M[], found: Found): MarkHit<M>[] {
  const order = found.mark.map((_, i) => i);
  order.sort(
    (a, b) =>
      (found.mark[a] as number) - (found.mark[b] as number) ||
      (found.part[a] as number) - (found.part[b] as number),
  );
  return order.map((i) => ({
    mark: marks[found.mark[i] as number] as M,
    part: MAIL_PARTS[found.part[i] as number] as MailPart,
    text: found.text[i] as string,
  }));
}

/**
 * Part p's automaton hits: a literal mark's first hit (where its `\b` hold) is found at once; a
 * regex mark's hit that its neighbours allow is added to its candidate's hits.
 */
function scanPart(
  plan: MarkPlan,
  automaton: AhoCorasick,
  state: PartState,
  text: string,
  p: number,
  found: Found,
): void {
  const { keyStart, keyMark, keyLength, partMask, kind, boundary, literalLength, confirmHow } = plan;
  const current = state.next();
  const { seen, keySeen } = state;
  const bit = 1 << p;
  const hits = automaton.hits(text);
  const foundKeys = hits.keys;
  const foundEnds = hits.ends;
  for (let h = 0; h < hits.count; h++) {
    const key = foundKeys[h] as number;
    const end = foundEnds[h] as number;
    keySeen[key] = current;
    for (let i = keyStart[key] as number, to = keyStart[key + 1] as number; i < to; i++) {
      const m = keyMark[i] as number;
      if (((partMask[m] as number) & bit) === 0) continue;
      if (kind[m] === KIND_LITERAL) {
        if (seen[m] === current) continue;
        const length = literalLength[m] as number;
        const b = boundary[m] as number;
        if (b !== 0 && !atBoundaries(text, end + 1 - length, end, b)) continue;
        seen[m] = current;
        record(found, m, p, text.slice(end + 1 - length, end + 1));
        continue;
      }
      const start = end + 1 - (keyLength[key] as number);
      if (!neighboursAllow(plan, text, start, end, m)) continue;
      // Only the first hit matters when the whole part is searched anyway.
      if (seen[m] === current && confirmHow[m] === CONFIRM_WHOLE) continue;
      state.addHit(m, start, end);
    }
  }
}

/** Whether a hit [start, end] of mark m has neighbours a match can have (§13.3: exact, see atoms.ts). */
function neighboursAllow(plan: MarkPlan, text: string, start: number, end: number, m: number): boolean {
  const { contextTable } = plan;
  const br = plan.beforeRow[m] as number;
  if (br !== -1) {
    if (start === 0) return false;
    const u = text.charCodeAt(start - 1);
    if (u < 128 && contextTable[br * 128 + u] === 0) return false;
  }
  const ar = plan.afterRow[m] as number;
  if (ar !== -1) {
    if (end + 1 === text.length) return false;
    const u = text.charCodeAt(end + 1);
    if (u < 128 && contextTable[ar * 128 + u] === 0) return false;
  }
  return plan.gapRow[m] === -1 || gapHolds(plan, text, end + 1, m);
}

/** Whether mark m's gap (its run, then its literal) can start at `at` (see SourceAnalysis.gap). */
function gapHolds(plan: MarkPlan, text: string, at: number, m: number): boolean {
  const base = (plan.gapRow[m] as number) * 128;
  const max = plan.gapMax[m] as number;
  const length = text.length;
  const limit = Math.min(max, GAP_SCAN_LIMIT);
  let i = at;
  for (;;) {
    // Past the look-ahead: let it through; past the run's longest: no match has this run.
    if (i - at > limit) return i - at <= max;
    if (i === length) return false; // the literal cannot follow
    const u = text.charCodeAt(i);
    if (u >= 128) return true; // a run character re2 may fold or class differently: let it through
    if (plan.contextTable[base + u] === 0) break;
    i++;
  }
  if (i - at < (plan.gapMin[m] as number)) return false;
  const literal = plan.gapLiteral[m] as string;
  if (i + literal.length > length) return false;
  for (let j = 0; j < literal.length; j++)
    if (foldCodeUnit(text.charCodeAt(i + j)) !== literal.charCodeAt(j)) return false;
  return true;
}

/** Whether every literal mark m requires hit in the current part (a match needs them all). */
function requiredPresent(plan: MarkPlan, state: PartState, m: number): boolean {
  const { required } = plan;
  for (let r = plan.requiredFrom[m] as number, to = plan.requiredTo[m] as number; r < to; r++)
    if (state.keySeen[required[r] as number] !== state.stamp) return false;
  return true;
}

/** Candidate c's re2 answer on the part: on windows around its hits, anchored at them, or on the whole part. */
function confirmCandidate(
  plan: MarkPlan,
  state: PartState,
  confirm: ConfirmCache,
  subject: Subject,
  text: string,
  c: number,
): string | null {
  const m = state.candidateMark[c] as number;
  const source = plan.sourceOf[m] as number;
  const l = plan.lead[m] as number;
  const t = plan.trail[m] as number;
  const { windows, hitStart, hitEnd, hitNext } = state;
  switch (plan.confirmHow[m]) {
    case CONFIRM_WINDOW: {
      const freeBefore = plan.leadStops[m] === 0;
      windows.clear();
      for (let h = state.firstHit[c] as number; h !== -1; h = hitNext[h] as number) {
        const from = hitStart[h] as number;
        const to = hitEnd[h] as number;
        windows.add(
          l >= 0 ? from - l : freeBefore ? stopBefore(text, from) + 1 : 0,
          t >= 0 ? to + t : stopAfter(text, to) - 1,
        );
      }
      return subject.searchWindows(confirm.searching(source), windows);
    }
    case CONFIRM_ANCHORED: {
      windows.clear();
      let whole = false;
      for (let h = state.firstHit[c] as number; h !== -1; h = hitNext[h] as number) {
        const from = hitStart[h] as number;
        const start = l >= 0 ? from - l : stopBefore(text, from) + 1;
        // No stop within reach (a long token): trying every position would cost more than one
        // search of the whole part.
        if (start === 0 && l < 0 && from > STOP_SCAN_LIMIT) whole = true;
        windows.add(start, from);
      }
      return whole
        ? subject.exec(confirm.searching(source), 0)
        : subject.anchoredAt(confirm.anchored(source), windows);
    }
    default:
      return subject.exec(confirm.searching(source), 0);
  }
}
