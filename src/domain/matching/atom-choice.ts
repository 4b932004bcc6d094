/**
 * Choosing a pattern node's atom set (§13.3): what a node knows (`Info`: its exact strings, an
 * atom set and the bounds around it), which atoms are acceptable (long enough, not only digits
 * unless long), and, among valid sets, the cheapest to run (common words and short atoms hit
 * often).
 *
 * Owns: the node information and the choice. Does not own: walking the tree (pattern-walk.ts).
 */
import { foldCodeUnit, isStopCode } from './fold.ts';
import { type Mask, type Context, FREE, OUTSIDE } from './char-mask.ts';

/** Shortest atom the prefilter accepts (characters). */
export const MIN_ATOM_LENGTH = 4;

/** Shortest atom made only of digits (characters). */
const MIN_DIGIT_ATOM_LENGTH = 6;

/** Largest exact string set kept while walking a pattern (as in RE2's prefilter). */
export const MAX_EXACT = 16;

/** Where an atom occurrence sits in a match, and what surrounds it (see Info and Candidate). */
interface Bounds {
  /**
   * With atoms: the most code units a match of this node can run before the start of the
   * occurrence of an atom it contains (Infinity when unbounded).
   */
  readonly prefix: number;
  /** With atoms: the most code units a match runs after the end of that occurrence. */
  readonly suffix: number;
  /** With atoms: whether the text before that occurrence (in the match) can hold a stop character. */
  readonly prefixStops: boolean;
  /** With atoms: whether the text after that occurrence can hold a stop character. */
  readonly suffixStops: boolean;
  /** With atoms: the code unit just before that occurrence (see Context). */
  readonly before: Context;
  /** With atoms: the code unit just after that occurrence. */
  readonly after: Context;
  /** With atoms: what follows the occurrence inside its own sequence, when it is a run and a literal (see Gap). */
  readonly gap: Gap | null;
}

export interface Info extends Bounds {
  /** Every string this node can match (folded, distinct), or null when unknown or too many. */
  readonly exact: readonly string[] | null;
  /** A valid atom set for this node (every match contains one), or null. */
  readonly atoms: readonly string[] | null;
}

/** An atom set with the bounds that go with it. */
export interface Candidate extends Bounds {
  readonly atoms: readonly string[];
}

/**
 * After an atom occurrence, a match holds a run of `min` to `max` characters of one class (the
 * folded ASCII `mask`), then the folded ASCII `literal`, whose first character is not in the class:
 * `norgate\s+motors` holds whitespace, then "motors". The run therefore takes every class character
 * that follows the occurrence, and the literal comes right after them, which the matcher checks
 * before it confirms (a non-ASCII character in the run ends the check, in the hit's favour).
 */
export interface Gap {
  readonly mask: Mask;
  readonly min: number;
  readonly max: number;
  readonly literal: string;
}

/** No bounds: what a node without atoms carries. */
const UNBOUNDED: Bounds = {
  prefix: Infinity,
  suffix: Infinity,
  prefixStops: true,
  suffixStops: true,
  before: FREE,
  after: FREE,
  gap: null,
};

const UNBOUNDED_CANDIDATE: Candidate = { atoms: [], ...UNBOUNDED };

export const ANY: Info = info(null, null);

export const EMPTY: Info = info([''], null);

export const DIGITS: readonly string[] = '0123456789'.split('');

/** One-character exact infos for ASCII, shared (the walk makes one per literal character). */
export const ASCII_INFO: readonly Info[] = Array.from({ length: 128 }, (_, c) =>
  info([String.fromCharCode(foldCodeUnit(c))], null),
);

export function validSet(set: readonly string[] | null): readonly string[] | null {
  if (set === null || set.length === 0) return null;
  for (const a of set) if (!acceptable(a)) return null;
  return set;
}

export function acceptable(atom: string): boolean {
  if (atom.length < MIN_ATOM_LENGTH) return false;
  if (atom.length >= MIN_DIGIT_ATOM_LENGTH) return true;
  for (let i = 0; i < atom.length; i++) {
    const c = atom.charCodeAt(i);
    if (c < 48 || c > 57) return true;
  }
  return false;
}

/**
 * Drops atoms that contain another atom of the set (the shorter one already covers them). The
 * occurrence of the shorter atom may sit anywhere inside the longer one, so the bounds widen by the
 * difference in length on both sides, and a stop character in the dropped text counts on both sides.
 */
export function minimal(candidate: Candidate): Candidate {
  const atoms = candidate.atoms;
  if (atoms.length === 1) return candidate;
  const sorted = [...new Set(atoms)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const kept: string[] = [];
  let slack = 0;
  let stops = false;
  for (const a of sorted) {
    const inside = kept.find((k) => a.includes(k));
    if (inside === undefined) {
      kept.push(a);
      continue;
    }
    slack = Math.max(slack, a.length - inside.length);
    for (let i = 0; i < a.length; i++) if (isStopCode(a.charCodeAt(i))) stops = true;
  }
  const dropped = kept.length < sorted.length;
  return {
    atoms: kept,
    prefix: candidate.prefix + 2 * slack,
    suffix: candidate.suffix + 2 * slack,
    prefixStops: candidate.prefixStops || stops,
    suffixStops: candidate.suffixStops || stops,
    // A kept atom may sit anywhere inside a dropped one: its neighbours are anything.
    before: dropped ? FREE : candidate.before,
    after: dropped ? FREE : candidate.after,
    gap: dropped ? null : candidate.gap,
  };
}

/**
 * Words common in business mail. An atom that is one of them (optionally with a separator) hits on
 * most messages, so it counts as a short one: a pattern's specific text is preferred over them
 * (`acme[_-]?statement` is looked for as "acmestatement", "acme_statement", "acme-statement").
 */
const COMMON_WORDS = new Set(
  (
    'statement invoice invoices order orders booking shipment shipments container containers freight cargo ' +
    'motors logistics trading transport shipping delivery customer customers account payment reference ' +
    'please attached regards thanks thank number vessel arrival departure manifest report notice ' +
    'example mail email info support service services office group limited company international global'
  ).split(' '),
);

const COMMON_MIN = Math.min(...[...COMMON_WORDS].map((w) => w.length));

const COMMON_MAX = Math.max(...[...COMMON_WORDS].map((w) => w.length));

/** 2 ** -(i / 2), for atom costs. */
const POWERS = Float64Array.from({ length: 512 }, (_, i) => 2 ** -(i / 2));

/** Expected cost of a set: the sum of each atom's chance to appear by accident (lower is better). */
function cost(atoms: readonly string[]): number {
  let total = 0;
  for (const a of atoms) total += atomCost(a);
  return total;
}

/** [\s_.-], trimmed off an atom before it is looked up among the common words. */
function isTrimCode(c: number): boolean {
  return c === 95 || c === 46 || c === 45 || (c >= 9 && c <= 13) || c === 32;
}

function atomCost(a: string): number {
  let from = 0;
  let to = a.length;
  while (from < to && isTrimCode(a.charCodeAt(from))) from++;
  while (to > from && isTrimCode(a.charCodeAt(to - 1))) to--;
  const length = to - from;
  if (
    length >= COMMON_MIN &&
    length <= COMMON_MAX &&
    COMMON_WORDS.has(from === 0 && to === a.length ? a : a.slice(from, to))
  )
    return 2 ** -12;
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    bits += c >= 97 && c <= 122 ? 4 : c >= 48 && c <= 57 ? 2.5 : 3;
  }
  // Each atom also costs a slot in the automaton: a few more atoms are worth it only when rarer.
  // bits is a multiple of 0.5: the table holds the same numbers as 2 ** -bits.
  const half = bits * 2;
  return (half < POWERS.length ? (POWERS[half] as number) : 2 ** -bits) + 2 ** -48;
}

/** A node's own atom candidate. */
export function own(info: Info): Candidate | null {
  return info.atoms === null
    ? null
    : {
        atoms: info.atoms,
        prefix: info.prefix,
        suffix: info.suffix,
        prefixStops: info.prefixStops,
        suffixStops: info.suffixStops,
        before: info.before,
        after: info.after,
        gap: info.gap,
      };
}

/** A node's exact strings as a candidate: each occurrence starts where the node's match starts. */
export function whole(info: Info): Candidate | null {
  const atoms = validSet(info.exact);
  return atoms === null
    ? null
    : {
        atoms,
        prefix: 0,
        suffix: 0,
        prefixStops: false,
        suffixStops: false,
        before: OUTSIDE,
        after: OUTSIDE,
        gap: null,
      };
}

/** The cheapest candidate; one with a bounded prefix is preferred unless far more common. */
export function best(candidates: readonly (Candidate | null)[]): Candidate | null {
  let chosen: Candidate | null = null;
  let chosenCost = Infinity;
  for (const c of candidates) {
    if (c === null) continue;
    const k = cost(c.atoms) * (Number.isFinite(c.prefix) ? 1 : 256);
    if (k < chosenCost) {
      chosen = c;
      chosenCost = k;
    }
  }
  return chosen;
}

export function info(exact: readonly string[] | null, chosen: Candidate | null): Info {
  // Spelled out, not spread: one object shape for every Info keeps the walk's code fast.
  const c = chosen ?? UNBOUNDED_CANDIDATE;
  return {
    exact,
    atoms: chosen === null ? null : chosen.atoms,
    prefix: c.prefix,
    suffix: c.suffix,
    prefixStops: c.prefixStops,
    suffixStops: c.suffixStops,
    before: c.before,
    after: c.after,
    gap: c.gap,
  };
}
