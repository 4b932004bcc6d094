/**
 * The walk over a parsed pattern (§13.3): for each node its `Info` (atom-choice.ts), through
 * alternations, sequences (`SequenceWalk`: literal runs, their contexts and gaps), quantifiers and
 * character classes; and the longest match and stop analysis that bound where a match can lie
 * around an atom hit.
 *
 * Owns: the walk. Does not own: parsing (lean-parse.ts, regexpp), choosing among atom sets
 * (atom-choice.ts) or the analysis's shape (atoms.ts).
 */
import type { AST } from '@eslint-community/regexpp';
import { foldCodeUnit } from './fold.ts';
import { type Context, NO_CODES, OUTSIDE, unionMask, unionContext, extendContext } from './char-mask.ts';
import {
  MIN_ATOM_LENGTH,
  MAX_EXACT,
  type Info,
  type Candidate,
  ANY,
  EMPTY,
  DIGITS,
  ASCII_INFO,
  info,
  validSet,
  own,
  whole,
  best,
} from './atom-choice.ts';
import { canStop, edgeOf, edgeOfRun, gapAt, longest } from './pattern-bounds.ts';

/** Largest character class expanded into an exact set. */
const MAX_CLASS = 10;

/** Largest fixed repeat count expanded into a concatenation. */
const MAX_REPEAT = 8;

export function alternation(alternatives: readonly AST.Alternative[]): Info {
  if (alternatives.length === 1) return sequence((alternatives[0] as AST.Alternative).elements);
  const infos = alternatives.map((a) => sequence(a.elements));
  let exact: string[] | null = [];
  for (const i of infos) {
    if (i.exact === null || exact === null) {
      exact = null;
      continue;
    }
    for (const s of i.exact) if (!exact.includes(s)) exact.push(s);
    if (exact.length > MAX_EXACT) exact = null;
  }
  // One atom set per branch: every match goes through one branch.
  const atoms: string[] = [];
  let prefix = 0;
  let suffix = 0;
  let prefixStops = false;
  let suffixStops = false;
  let before: Context = { mask: NO_CODES, open: false };
  let after: Context = before;
  for (const i of infos) {
    const branch = best([own(i), whole(i)]);
    if (branch === null) return info(exact, null);
    atoms.push(...branch.atoms);
    prefix = Math.max(prefix, branch.prefix);
    suffix = Math.max(suffix, branch.suffix);
    prefixStops ||= branch.prefixStops;
    suffixStops ||= branch.suffixStops;
    before = unionContext(before, branch.before);
    after = unionContext(after, branch.after);
  }
  return info(exact, { atoms, prefix, suffix, prefixStops, suffixStops, before, after, gap: null });
}

/** The walk over one sequence: see {@link sequence}. */
class SequenceWalk {
  readonly candidates: Candidate[] = [];
  /** Where the walk is: the element visited, and whether an earlier copy of it was visited. */
  index = 0;
  mid = false;
  /** Whether a later copy of the element visited follows (a fixed repeat expanded). */
  more = false;
  runBefore: Context = OUTSIDE;
  plainBefore: Context = OUTSIDE;

  constructor(private readonly elements: readonly AST.Element[]) {}

  /** Moves to copy `copy` of `copies` of element `index` (`index` = the count: the end). */
  at(index: number, copy: number, copies: number): void {
    this.index = index;
    this.mid = copy > 0;
    this.more = copy < copies - 1;
  }

  /** What can stand before the current position, within the sequence. */
  private beforeHere(): Context {
    const e = edgeOfRun(this.elements, this.mid ? this.index : this.index - 1, true);
    return { mask: e.mask, open: e.nullable };
  }

  /** What can follow a run that ends at the current position, within the sequence. */
  private afterHere(): Context {
    const e = edgeOfRun(this.elements, this.index, false);
    return { mask: e.mask, open: e.nullable };
  }
  /** Cross product of the current run of consecutive exact elements, and where it starts. */
  run: string[] = [''];
  runStart = 0;
  runStartStops = false;
  /** The current run of single-string elements, and where it starts. */
  plain = '';
  plainStart = 0;
  plainStartStops = false;
  /** The cross product of every element, while all are exact and few. */
  whole: string[] | null = [''];
  /** Longest match of the elements visited so far (Infinity once one is unbounded). */
  offset = 0;
  /** Whether an element visited so far can match a stop character. */
  stops = false;
  /**
   * The bound after a run that ends before the element being visited: that element's and every
   * later element's longest match, and whether any of them can match a stop character.
   */
  suffix = 0;
  suffixStops = false;

  /** Sets the bounds of what follows the element about to be visited (see `suffix`). */
  before(suffix: number, suffixStops: boolean): void {
    this.suffix = suffix;
    this.suffixStops = suffixStops;
  }

  closeRun(): void {
    if (this.run.length > 1 || this.run[0] !== this.plain)
      this.candidate(validSet(this.run), this.runStart, this.runStartStops, this.runBefore);
    this.run = [''];
  }

  closePlain(): void {
    if (this.plain.length >= MIN_ATOM_LENGTH)
      this.candidate(validSet([this.plain]), this.plainStart, this.plainStartStops, this.plainBefore);
    this.plain = '';
  }

  candidate(atoms: readonly string[] | null, prefix: number, prefixStops: boolean, before: Context): void {
    if (atoms !== null)
      this.candidates.push({
        atoms,
        prefix,
        suffix: this.suffix,
        prefixStops,
        suffixStops: this.suffixStops,
        before,
        after: this.afterHere(),
        gap: this.mid ? null : gapAt(this.elements, this.index),
      });
  }

  private startRun(): void {
    this.runStart = this.offset;
    this.runStartStops = this.stops;
    this.runBefore = this.beforeHere();
  }

  /** Visits one element; `after` and `afterStops` describe the elements that follow it. */
  visit(info: Info, longestMatch: number, stops: boolean, after: number, afterStops: boolean): void {
    if (info.atoms !== null) {
      const beyond = edgeOfRun(this.elements, this.more ? this.index : this.index + 1, false);
      const before = edgeOfRun(this.elements, this.mid ? this.index : this.index - 1, true);
      this.candidates.push({
        atoms: info.atoms,
        prefix: this.offset + info.prefix,
        suffix: info.suffix + after,
        prefixStops: this.stops || info.prefixStops,
        suffixStops: info.suffixStops || afterStops,
        before: extendContext(info.before, before),
        after: extendContext(info.after, beyond),
        gap: info.gap, // inside the element's own sequence, so still true here
      });
    }
    const exact = info.exact;
    if (exact === null) {
      this.closeRun();
      this.closePlain();
      this.whole = null;
    } else if (exact.length === 1) {
      const only = exact[0] as string;
      if (only !== '') {
        if (this.plain === '') {
          this.plainStart = this.offset;
          this.plainStartStops = this.stops;
          this.plainBefore = this.beforeHere();
        }
        if (this.run.length === 1 && this.run[0] === '') this.startRun();
        this.plain += only;
        const run = this.run;
        for (let i = 0; i < run.length; i++) run[i] += only;
        const whole = this.whole;
        if (whole !== null) for (let i = 0; i < whole.length; i++) whole[i] += only;
      }
    } else {
      this.closePlain();
      if (this.run.length === 1 && this.run[0] === '') this.startRun();
      const next = product(this.run, exact);
      if (next === null) {
        // Too many strings: keep the run so far as a candidate, start a new one with this element.
        this.candidate(validSet(this.run), this.runStart, this.runStartStops, this.runBefore);
        this.run = exact.slice();
        this.startRun();
      } else {
        this.run = next;
      }
      this.whole = this.whole === null ? null : product(this.whole, exact);
    }
    this.offset += longestMatch;
    this.stops ||= stops;
  }
}

function sequence(elements: readonly AST.Element[]): Info {
  // What follows each element: the sum of the later elements' longest matches, and whether any of
  // them can match a stop character.
  const count = elements.length;
  const after = new Array<number>(count);
  const afterStops = new Array<boolean>(count);
  const lengths = new Array<number>(count);
  const stopping = new Array<boolean>(count);
  let tail = 0;
  let tailStops = false;
  for (let i = count - 1; i >= 0; i--) {
    after[i] = tail;
    afterStops[i] = tailStops;
    const e = elements[i] as AST.Element;
    const length = longest(e);
    const stops = canStop(e);
    lengths[i] = length;
    stopping[i] = stops;
    tail += length;
    tailStops ||= stops;
  }
  const walk = new SequenceWalk(elements);
  elements.forEach((element, i) => {
    const each = lengths[i] as number;
    const stops = stopping[i] as boolean;
    const rest = after[i] as number;
    const restStops = afterStops[i] as boolean;
    // A run closed while visiting this element ends at or before its end: bound it by all of it.
    walk.before(each + rest, stops || restStops);
    // A small fixed repeat of an exact element (`\d{3}`, `x{2}`) is that many copies.
    if (
      element.type === 'Quantifier' &&
      element.min === element.max &&
      element.min >= 1 &&
      element.min <= MAX_REPEAT
    ) {
      const inner = node(element.element);
      if (inner.exact !== null) {
        const one = longest(element.element);
        for (let k = 0; k < element.min; k++) {
          walk.at(i, k, element.min);
          walk.visit(inner, one, stops, one * (element.min - 1 - k) + rest, restStops);
        }
        return;
      }
    }
    walk.at(i, 0, 1);
    walk.visit(node(element), each, stops, rest, restStops);
  });
  walk.at(count, 0, 1);
  walk.before(0, false);
  walk.closeRun();
  walk.closePlain();
  return info(walk.whole, best(walk.candidates));
}

function product(left: readonly string[], right: readonly string[]): string[] | null {
  if (left.length * right.length > MAX_EXACT) return null;
  const out: string[] = [];
  for (const a of left) for (const b of right) if (!out.includes(a + b)) out.push(a + b);
  return out;
}

function node(element: AST.Element): Info {
  switch (element.type) {
    case 'Character':
      return element.value < 128 ? (ASCII_INFO[element.value] as Info) : ANY;
    case 'Assertion':
      // Zero-width: `^ $ \b \B` and lookarounds consume nothing of the match.
      return EMPTY;
    case 'Group':
    case 'CapturingGroup':
      return alternation(element.alternatives);
    case 'Quantifier':
      return quantifier(element);
    case 'CharacterClass':
      return characterClass(element);
    case 'CharacterSet':
      if (element.kind === 'digit' && !element.negate) return info(DIGITS, null);
      return ANY;
    default:
      return ANY;
  }
}

function quantifier(q: AST.Quantifier): Info {
  const inner = node(q.element);
  if (q.min === 0) {
    if (q.max === 1 && inner.exact !== null && inner.exact.length < MAX_EXACT) {
      return info(inner.exact.includes('') ? inner.exact : ['', ...inner.exact], null);
    }
    return ANY;
  }
  // At least one repetition: whatever every match of the element contains, every match contains,
  // and the first repetition's occurrence is as near the start as the element's own; after it come
  // the rest of that repetition and up to max - 1 more.
  const chosen = best([own(inner), whole(inner)]);
  if (chosen === null) return info(null, null);
  const more = q.max - 1;
  return info(null, {
    ...chosen,
    suffix: more === 0 ? chosen.suffix : chosen.suffix + more * longest(q.element),
    suffixStops: chosen.suffixStops || (more > 0 && canStop(q.element)),
    // The occurrence is in the first repetition: the next one may follow it.
    after:
      more > 0 && chosen.after.open
        ? { mask: unionMask(chosen.after.mask, edgeOf(q.element, false).mask), open: true }
        : chosen.after,
  });
}

function addFolded(out: string[], c: number): void {
  const s = String.fromCharCode(foldCodeUnit(c));
  if (!out.includes(s)) out.push(s);
}

function characterClass(cls: AST.CharacterClass): Info {
  if (cls.negate) return ANY;
  const out: string[] = [];
  for (const e of cls.elements) {
    if (e.type === 'Character') {
      if (e.value > 0x7f) return ANY;
      addFolded(out, e.value);
    } else if (e.type === 'CharacterClassRange') {
      if (e.max.value > 0x7f || e.max.value - e.min.value >= MAX_CLASS) return ANY;
      for (let c = e.min.value; c <= e.max.value; c++) addFolded(out, c);
    } else if (e.type === 'CharacterSet' && e.kind === 'digit' && !e.negate) {
      for (const d of DIGITS) if (!out.includes(d)) out.push(d);
    } else {
      return ANY;
    }
    if (out.length > MAX_CLASS) return ANY;
  }
  return out.length === 0 ? ANY : info(out, null);
}
