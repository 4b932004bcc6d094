/**
 * Literal atoms of a mark's re2 source, for the FilteredRE2-style prefilter (§13.3).
 *
 * `literalAtoms(source)` returns a set of lower-case ASCII strings, each at least
 * {@link MIN_ATOM_LENGTH} characters, such that every match of the pattern (run case-insensitively,
 * flags 'iu') contains at least one of them once the text is folded with {@link foldCodeUnit}; or
 * null when no such set can be proven. It owns nothing else: it does not match, and it does not
 * decide whether a mark without atoms is acceptable (the learnable does, at absorption).
 *
 * Atoms are ASCII only on purpose. Under re2's case folding the only non-ASCII characters that fold
 * to ASCII are U+212A KELVIN SIGN (k) and U+017F LATIN SMALL LETTER LONG S (s); `foldCodeUnit`
 * maps exactly those, so "folded text contains the atom" is exact for ASCII atoms without any
 * Unicode case tables (a non-ASCII letter such as "ü" simply ends a literal run).
 *
 * Atom sets made only of digits must be at least {@link MIN_DIGIT_ATOM_LENGTH} long: four-digit
 * atoms hit on nearly every number in a message, so a regex with only those is cheaper in an
 * RE2.Set shard than confirmed on every hit.
 */
import { RegExpParser } from '@eslint-community/regexpp';
import type { AST } from '@eslint-community/regexpp';

/** Shortest atom the prefilter accepts (characters). */
export const MIN_ATOM_LENGTH = 4;
/** Shortest atom made only of digits (characters). */
export const MIN_DIGIT_ATOM_LENGTH = 6;
/** Largest exact string set kept while walking a pattern (as in RE2's prefilter). */
const MAX_EXACT = 16;
/** Largest character class expanded into an exact set. */
const MAX_CLASS = 10;
/** Largest fixed repeat count expanded into a concatenation. */
const MAX_REPEAT = 8;

/**
 * re2 case folding restricted to what ASCII atoms need: A-Z to a-z, KELVIN SIGN to k, LONG S to s;
 * every other code unit is returned unchanged (so folded text has the same length as the text).
 */
export function foldCodeUnit(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c === 0x212a) return 107; // K (Kelvin) folds with k in re2 (?i)
  if (c === 0x017f) return 115; // ſ folds with s in re2 (?i)
  return c;
}

interface Info {
  /** Every string this node can match (folded), or null when unknown or too many. */
  readonly exact: ReadonlySet<string> | null;
  /** A valid atom set for this node (every match contains one), or null. */
  readonly atoms: readonly string[] | null;
}

const ANY: Info = { exact: null, atoms: null };
const EMPTY: Info = { exact: new Set(['']), atoms: null };

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * The literal atoms of `source` (see the module comment), or null when the pattern has no such set
 * or cannot be parsed as a JS unicode-mode pattern (then the caller must run it without a prefilter).
 */
export function literalAtoms(source: string): readonly string[] | null {
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch {
    return null;
  }
  const info = alternation(pattern.alternatives);
  return best([info.atoms, validSet(info.exact)]);
}

/**
 * The literal a pattern stands for when it has no metacharacters once escapes are undone and is
 * ASCII only (then the prefilter's hit is already re2's answer), else null.
 */
export function plainLiteral(source: string): string | null {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    let c = source.charCodeAt(i);
    if (c > 0x7f) return null;
    const ch = source[i] as string;
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || !/^[\^$\\.*+?()[\]{}|/\-@#:,'"!%&=<>`~ ;_]$/.test(next)) return null;
      c = next.charCodeAt(0);
      i++;
    } else if ('^$.*+?()[]{}|'.includes(ch)) {
      return null;
    }
    out += String.fromCharCode(foldCodeUnit(c));
  }
  return out === '' ? null : out;
}

function validSet(set: ReadonlySet<string> | null): readonly string[] | null {
  if (set === null || set.size === 0) return null;
  const list = [...set];
  return list.every(acceptable) ? minimal(list) : null;
}

function acceptable(atom: string): boolean {
  if (atom.length < MIN_ATOM_LENGTH) return false;
  return /\D/.test(atom) || atom.length >= MIN_DIGIT_ATOM_LENGTH;
}

/** Drops atoms that contain another atom of the set (the shorter one already covers them). */
function minimal(atoms: readonly string[]): readonly string[] {
  const sorted = [...new Set(atoms)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const kept: string[] = [];
  for (const a of sorted) if (!kept.some((k) => a.includes(k))) kept.push(a);
  return kept;
}

/** Expected cost of a set: the sum of each atom's chance to appear by accident (lower is better). */
function cost(atoms: readonly string[]): number {
  let total = 0;
  for (const a of atoms) {
    let bits = 0;
    for (let i = 0; i < a.length; i++) {
      const c = a.charCodeAt(i);
      bits += c >= 97 && c <= 122 ? 4 : c >= 48 && c <= 57 ? 2.5 : 3;
    }
    // Each atom also costs a slot in the automaton and a check per hit.
    total += 2 ** -bits + 2 ** -32;
  }
  return total;
}

function best(candidates: readonly (readonly string[] | null)[]): readonly string[] | null {
  let chosen: readonly string[] | null = null;
  let chosenCost = Infinity;
  for (const c of candidates) {
    if (c === null) continue;
    const k = cost(c);
    if (k < chosenCost) {
      chosen = c;
      chosenCost = k;
    }
  }
  return chosen;
}

function alternation(alternatives: readonly AST.Alternative[]): Info {
  const infos = alternatives.map((a) => sequence(a.elements));
  let exact: Set<string> | null = new Set();
  for (const info of infos) {
    if (info.exact === null || exact === null) {
      exact = null;
      continue;
    }
    for (const s of info.exact) exact.add(s);
    if (exact.size > MAX_EXACT) exact = null;
  }
  // One atom set per branch: every match goes through one branch.
  const atoms: string[] = [];
  for (const info of infos) {
    const branch = best([info.atoms, validSet(info.exact)]);
    if (branch === null) return { exact, atoms: null };
    atoms.push(...branch);
  }
  return { exact, atoms: minimal(atoms) };
}

function sequence(elements: readonly AST.Element[]): Info {
  const candidates: (readonly string[] | null)[] = [];
  // `run`: cross product of consecutive exact elements; `plain`: consecutive single strings.
  let run: Set<string> | null = new Set(['']);
  let plain = '';
  let whole: Set<string> | null = new Set(['']);

  const closeRun = (): void => {
    candidates.push(validSet(run));
    run = new Set(['']);
  };
  const closePlain = (): void => {
    if (plain !== '') candidates.push(validSet(new Set([plain])));
    plain = '';
  };

  for (const info of elements.flatMap(expand)) {
    candidates.push(info.atoms);
    const exact = info.exact;
    if (exact === null) {
      closeRun();
      closePlain();
      whole = null;
      continue;
    }
    if (exact.size === 1) {
      for (const only of exact) plain += only;
    } else {
      closePlain();
    }
    const next = product(run, exact);
    if (next === null) {
      // Too many strings: keep the run so far as a candidate, start a new one with this element.
      candidates.push(validSet(run));
      run = new Set(exact);
    } else {
      run = next;
    }
    whole = whole === null ? null : product(whole, exact);
  }
  closeRun();
  closePlain();
  return { exact: whole, atoms: best(candidates) };
}

function product(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> | null {
  if (left.size * right.size > MAX_EXACT) return null;
  const out = new Set<string>();
  for (const a of left) for (const b of right) out.add(a + b);
  return out;
}

/** An element's info; a small fixed repeat (`\d{3}`, `x{2}`) becomes that many copies. */
function expand(element: AST.Element): Info[] {
  if (
    element.type === 'Quantifier' &&
    element.min === element.max &&
    element.min >= 1 &&
    element.min <= MAX_REPEAT
  ) {
    const inner = node(element.element);
    if (inner.exact !== null) return Array.from({ length: element.min }, () => inner);
  }
  return [node(element)];
}

function node(element: AST.Element): Info {
  switch (element.type) {
    case 'Character':
      return character(element.value);
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
      if (element.kind === 'digit' && !element.negate) return { exact: digits(), atoms: null };
      return ANY;
    default:
      return ANY;
  }
}

function quantifier(q: AST.Quantifier): Info {
  const inner = node(q.element);
  if (q.min === 0) {
    if (q.max === 1 && inner.exact !== null && inner.exact.size < MAX_EXACT) {
      return { exact: new Set(['', ...inner.exact]), atoms: null };
    }
    return ANY;
  }
  // At least one repetition: whatever every match of the element contains, every match contains.
  return { exact: null, atoms: best([inner.atoms, validSet(inner.exact)]) };
}

function character(codePoint: number): Info {
  if (codePoint > 0x7f) return ANY;
  return { exact: new Set([String.fromCharCode(foldCodeUnit(codePoint))]), atoms: null };
}

function digits(): Set<string> {
  return new Set('0123456789');
}

function characterClass(cls: AST.CharacterClass): Info {
  if (cls.negate) return ANY;
  const out = new Set<string>();
  for (const e of cls.elements) {
    if (e.type === 'Character') {
      if (e.value > 0x7f) return ANY;
      out.add(String.fromCharCode(foldCodeUnit(e.value)));
    } else if (e.type === 'CharacterClassRange') {
      if (e.max.value > 0x7f || e.max.value - e.min.value >= MAX_CLASS) return ANY;
      for (let c = e.min.value; c <= e.max.value; c++) out.add(String.fromCharCode(foldCodeUnit(c)));
    } else if (e.type === 'CharacterSet' && e.kind === 'digit' && !e.negate) {
      for (const d of digits()) out.add(d);
    } else {
      return ANY;
    }
    if (out.size > MAX_CLASS) return ANY;
  }
  return out.size === 0 ? ANY : { exact: out, atoms: null };
}

/**
 * The most UTF-16 code units one match of `source` can span (each character counted as two, so an
 * astral or case-folded character never breaks the bound), or null when unbounded or unparseable.
 * The matcher uses it to start re2's search shortly before the first atom hit, without changing the
 * answer.
 */
export function maxMatchLength(source: string): number | null {
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch {
    return null;
  }
  const n = longestAlternation(pattern.alternatives);
  return Number.isFinite(n) ? n : null;
}

function longestAlternation(alternatives: readonly AST.Alternative[]): number {
  let max = 0;
  for (const a of alternatives) {
    let sum = 0;
    for (const e of a.elements) sum += longest(e);
    if (sum > max) max = sum;
  }
  return max;
}

function longest(element: AST.Element): number {
  switch (element.type) {
    case 'Assertion':
      return 0;
    case 'Group':
    case 'CapturingGroup':
      return longestAlternation(element.alternatives);
    case 'Quantifier': {
      if (element.max === 0) return 0;
      const inner = longest(element.element);
      return inner === 0 ? 0 : element.max * inner;
    }
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
      return 2;
    default:
      return Infinity;
  }
}
