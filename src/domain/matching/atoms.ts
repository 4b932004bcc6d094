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
import { leanParse } from './lean-parse.ts';

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

/**
 * Whether `text` is non-empty folded ASCII: code units up to 0x7f, none of them A-Z (what
 * foldCodeUnit leaves as it is). An automaton key must be; one native test, not a loop.
 */
export function isFoldedAscii(text: string): boolean {
  return FOLDED_ASCII.test(text);
}
// eslint-disable-next-line no-control-regex -- every ASCII code unit but A-Z, NUL included
const FOLDED_ASCII = /^[\x00-\x40\x5b-\x7f]+$/;

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

interface Info extends Bounds {
  /** Every string this node can match (folded, distinct), or null when unknown or too many. */
  readonly exact: readonly string[] | null;
  /** A valid atom set for this node (every match contains one), or null. */
  readonly atoms: readonly string[] | null;
}

/** An atom set with the bounds that go with it. */
interface Candidate extends Bounds {
  readonly atoms: readonly string[];
}

/**
 * After an atom occurrence, a match holds a run of `min` to `max` characters of one class (the
 * folded ASCII `mask`), then the folded ASCII `literal`, whose first character is not in the class:
 * `norgate\s+motors` holds whitespace, then "motors". The run therefore takes every class character
 * that follows the occurrence, and the literal comes right after them, which the matcher checks
 * before it confirms (a non-ASCII character in the run ends the check, in the hit's favour).
 */
interface Gap {
  readonly mask: Mask;
  readonly min: number;
  readonly max: number;
  readonly literal: string;
}

/**
 * Folded ASCII code units (see {@link foldCodeUnit}) as a 128-bit set in four 32-bit words, or
 * null for "any": what one character of a pattern can match, as far as ASCII text is concerned.
 * Non-ASCII text is never judged by a mask (under re2's folding only KELVIN SIGN and LONG S meet
 * ASCII, and the matcher lets every non-ASCII code unit through).
 */
type Mask = readonly [number, number, number, number] | null;

/**
 * What a match holds next to an atom occurrence, inside the node the candidate was found in: the
 * code units the neighbouring character can be (`mask`), and `open` when the match may have no
 * character there within the node (then whatever surrounds the node decides, and a whole match may
 * start or end at the occurrence). A hit whose neighbour in the text is outside the mask cannot be
 * that occurrence of any match: the matcher drops it before confirming (§13.3, exact: a filter
 * that only drops hits no match can use).
 */
interface Context {
  readonly mask: Mask;
  readonly open: boolean;
}

/** The first (or last) code unit of a node's matches, and whether a match can be empty. */
interface Edge {
  readonly mask: Mask;
  readonly nullable: boolean;
}

const NO_CODES: Mask = [0, 0, 0, 0];
/** Nothing known: any code unit, or none. */
const FREE: Context = { mask: null, open: true };
/** The occurrence is the node's whole match: only what surrounds the node decides. */
const OUTSIDE: Context = { mask: NO_CODES, open: true };
const EMPTY_EDGE: Edge = { mask: NO_CODES, nullable: true };
const ANY_EDGE: Edge = { mask: null, nullable: true };

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
const ANY: Info = info(null, null);
const EMPTY: Info = info([''], null);
const DIGITS: readonly string[] = '0123456789'.split('');
/** One-character exact infos for ASCII, shared (the walk makes one per literal character). */
const ASCII_INFO: readonly Info[] = Array.from({ length: 128 }, (_, c) =>
  info([String.fromCharCode(foldCodeUnit(c))], null),
);

/** What the matcher needs to know about a regex source, from one parse. */
export interface SourceAnalysis {
  /** See {@link literalAtoms}. */
  readonly atoms: readonly string[] | null;
  /**
   * With atoms: the most UTF-16 code units a match can run before the start of the first atom
   * occurrence it contains (each character counted as two), or null when unbounded. A match then
   * starts within that distance before some atom hit.
   */
  readonly maxPrefix: number | null;
  /**
   * With atoms: the most UTF-16 code units a match can run after the end of that atom occurrence
   * (each character counted as two), or null when unbounded.
   */
  readonly maxSuffix: number | null;
  /**
   * With atoms: false when the part of a match before that atom occurrence can never hold a
   * {@link STOP_CHARACTERS stop character} (a match then starts after the last one before the hit).
   */
  readonly prefixStops: boolean;
  /** With atoms: false when the part of a match after that occurrence can never hold a stop character. */
  readonly suffixStops: boolean;
  /**
   * Folded ASCII literals (each {@link acceptable} as an atom) that every match contains: the runs of
   * plain characters in a pattern that is one sequence (`acme\s+motors` needs "acme" and "motors").
   * A text without one of them cannot match, whichever atom hit.
   */
  readonly required: readonly string[];
  /**
   * With atoms: the ASCII code units (a 128-entry table, 1 = allowed, both cases set) that can stand
   * just before that atom occurrence in a text holding a match, or null when any can (or none, at the
   * text's start). A non-ASCII code unit there is always allowed.
   */
  readonly before: Uint8Array | null;
  /** With atoms: the same for the code unit just after that occurrence. */
  readonly after: Uint8Array | null;
  /**
   * With atoms, or null: a run of characters from `run` (a table like `after`), `min` to `max` long
   * (max may be Infinity), then the folded ASCII `literal`, follow that occurrence in every match;
   * the literal's first character is not in `run`, so the run is every such character after it.
   */
  readonly gap: {
    readonly run: Uint8Array;
    readonly min: number;
    readonly max: number;
    readonly literal: string;
  } | null;
}

/**
 * Whitespace that ends a token: [\t\n\v\f\r ]. A pattern part that cannot match any of them (an
 * address's local part, a word) cannot run across one, which bounds a match without a length bound.
 */
export const STOP_CHARACTERS = '\t\n\v\f\r ';

/** Whether code unit `c` is one of {@link STOP_CHARACTERS}. */
export function isStopCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

const NO_ANALYSIS: SourceAnalysis = {
  atoms: null,
  maxPrefix: null,
  maxSuffix: null,
  prefixStops: true,
  suffixStops: true,
  required: [],
  before: null,
  after: null,
  gap: null,
};

/**
 * Atoms and longest match of `source` from one parse; both null when it cannot be parsed. Equal
 * context tables are shared through `tables` (a runtime's `contextTables`; a map of its own by
 * default): the compile keys its rows by table identity.
 */
export function analyseSource(source: string, tables: Map<string, Uint8Array> = new Map()): SourceAnalysis {
  const pattern = leanParse(source) ?? parseWithRegexpp(source);
  return pattern === null ? NO_ANALYSIS : analysePattern(pattern, tables);
}

/** regexpp's tree of `source` in unicode mode, or null when it is not a valid pattern. */
export function parseWithRegexpp(source: string): AST.Pattern | null {
  try {
    // A parser per call: it holds state while it parses, and only a rare source gets here.
    return new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: true });
  } catch {
    return null;
  }
}

/** `analyseSource` on a parsed pattern (from `leanParse` or regexpp: the same tree). */
export function analysePattern(
  pattern: AST.Pattern,
  tables: Map<string, Uint8Array> = new Map(),
): SourceAnalysis {
  const info = alternation(pattern.alternatives);
  let chosen = best([own(info), whole(info)]);
  if (chosen !== null) chosen = minimal(chosen);
  return {
    atoms: chosen === null ? null : chosen.atoms,
    maxPrefix: chosen !== null && Number.isFinite(chosen.prefix) ? chosen.prefix : null,
    maxSuffix: chosen !== null && Number.isFinite(chosen.suffix) ? chosen.suffix : null,
    prefixStops: chosen?.prefixStops ?? true,
    suffixStops: chosen?.suffixStops ?? true,
    required: requiredLiterals(pattern),
    before: chosen === null ? null : contextTable(chosen.before, tables),
    after: chosen === null ? null : contextTable(chosen.after, tables),
    gap:
      chosen?.gap == null
        ? null
        : {
            run: contextTable({ mask: chosen.gap.mask, open: false }, tables) as Uint8Array,
            min: chosen.gap.min,
            max: chosen.gap.max,
            literal: chosen.gap.literal,
          },
  };
}

/**
 * A context as the matcher's table over raw ASCII code units (both cases of a folded letter), or
 * null when it allows every code unit: when it is open the match may start or end at the
 * occurrence, so the text there may hold anything.
 */
function contextTable(context: Context, contextTables: Map<string, Uint8Array>): Uint8Array | null {
  const mask = context.mask;
  if (context.open || mask === null) return null;
  const key = `${mask[0]},${mask[1]},${mask[2]},${mask[3]}`;
  let table = contextTables.get(key);
  if (table === undefined) {
    table = new Uint8Array(128);
    for (let c = 0; c < 128; c++) if (hasCode(mask, foldCodeUnit(c))) table[c] = 1;
    contextTables.set(key, table);
  }
  return table;
}

function hasCode(mask: Mask, c: number): boolean {
  return mask === null || ((mask[c >> 5] as number) & (1 << (c & 31))) !== 0;
}

function withCode(mask: Mask, c: number): Mask {
  if (mask === null) return null;
  const out: [number, number, number, number] = [mask[0], mask[1], mask[2], mask[3]];
  out[c >> 5] = (out[c >> 5] as number) | (1 << (c & 31));
  return out;
}

function unionMask(a: Mask, b: Mask): Mask {
  if (a === null || b === null) return null;
  if (a === NO_CODES) return b;
  if (b === NO_CODES) return a;
  return [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]];
}

function unionContext(a: Context, b: Context): Context {
  return { mask: unionMask(a.mask, b.mask), open: a.open || b.open };
}

/** `context` seen from the enclosing sequence, where `edge` (what lies beyond the node) follows it. */
function extendContext(context: Context, edge: Edge): Context {
  return context.open ? { mask: unionMask(context.mask, edge.mask), open: edge.nullable } : context;
}

/** The folded ASCII code units one pattern character can match. */
function characterMask(value: number): Mask {
  const folded = foldCodeUnit(value); // KELVIN SIGN and LONG S meet k and s; nothing else meets ASCII
  return folded < 0x80 ? (CODE_MASKS[folded] as Mask) : NO_CODES;
}

function rangeMask(mask: Mask, from: number, to: number): Mask {
  if (mask === null) return null;
  const out: [number, number, number, number] = [mask[0], mask[1], mask[2], mask[3]];
  const set = (c: number): void => {
    out[c >> 5] = (out[c >> 5] as number) | (1 << (c & 31));
  };
  for (let c = from; c <= Math.min(to, 0x7f); c++) set(foldCodeUnit(c));
  if (from <= 0x212a && 0x212a <= to) set(0x6b);
  if (from <= 0x017f && 0x017f <= to) set(0x73);
  return out;
}

/** The mask of each folded ASCII code unit alone. */
const CODE_MASKS: readonly Mask[] = Array.from({ length: 128 }, (_, c) => withCode(NO_CODES, c));

const DIGIT_MASK = rangeMask(NO_CODES, 0x30, 0x39);
const SPACE_MASK = withCode(rangeMask(NO_CODES, 9, 13), 32);
const WORD_MASK = withCode(rangeMask(rangeMask(DIGIT_MASK, 0x41, 0x5a), 0x61, 0x7a), 0x5f);
/** Every ASCII code unit but the digits (`\D`) and but the whitespace (`\S`). */
const NOT_DIGIT_MASK = complement(DIGIT_MASK);
const NOT_SPACE_MASK = complement(SPACE_MASK);

function complement(mask: Mask): Mask {
  if (mask === null) return NO_CODES;
  return [~mask[0], ~mask[1], ~mask[2], ~mask[3]];
}

/** What `\d`, `\s` and the like can match; null (any) when unsure. */
function setMask(set: AST.CharacterSet): Mask {
  switch (set.kind) {
    case 'digit':
      return set.negate ? NOT_DIGIT_MASK : DIGIT_MASK;
    case 'space':
      return set.negate ? NOT_SPACE_MASK : SPACE_MASK;
    case 'word':
      return set.negate ? null : WORD_MASK;
    default:
      return null;
  }
}

/** The first (`last` false) or last code unit a match of `element` can have. */
function edgeOf(element: AST.Element, last: boolean): Edge {
  switch (element.type) {
    case 'Character':
      return { mask: characterMask(element.value), nullable: false };
    case 'Assertion':
      return EMPTY_EDGE; // zero-width: the next character consumed is beyond it
    case 'Group':
    case 'CapturingGroup': {
      let mask: Mask = NO_CODES;
      let nullable = false;
      for (const a of element.alternatives) {
        const e = edgeOfRun(a.elements, last ? a.elements.length - 1 : 0, last);
        mask = unionMask(mask, e.mask);
        nullable ||= e.nullable;
      }
      return { mask, nullable };
    }
    case 'Quantifier': {
      if (element.max === 0) return EMPTY_EDGE;
      const e = edgeOf(element.element, last);
      return { mask: e.mask, nullable: e.nullable || element.min === 0 };
    }
    case 'CharacterClass': {
      if (element.negate || element.unicodeSets) return { mask: null, nullable: false };
      let mask: Mask = NO_CODES;
      for (const e of element.elements) {
        if (e.type === 'Character') mask = unionMask(mask, characterMask(e.value));
        else if (e.type === 'CharacterClassRange') mask = rangeMask(mask, e.min.value, e.max.value);
        else if (e.type === 'CharacterSet') mask = unionMask(mask, setMask(e));
        else mask = null;
        if (mask === null) break;
      }
      return { mask, nullable: false };
    }
    case 'CharacterSet':
      return { mask: setMask(element), nullable: false };
    default:
      return ANY_EDGE;
  }
}

/** The Gap of a run that ends just before `elements[index]`, or null. */
function gapAt(elements: readonly AST.Element[], index: number): Gap | null {
  const e = elements[index];
  if (e === undefined || e.type !== 'Quantifier' || e.max < 1) return null;
  const inner = e.element;
  if (inner.type !== 'Character' && inner.type !== 'CharacterClass' && inner.type !== 'CharacterSet')
    return null;
  const run = edgeOf(inner, false);
  if (run.mask === null || run.nullable) return null;
  let literal = '';
  for (let i = index + 1; i < elements.length; i++) {
    const c = elements[i] as AST.Element;
    if (c.type !== 'Character' || c.value >= 0x80) break;
    literal += String.fromCharCode(foldCodeUnit(c.value));
  }
  if (literal === '' || hasCode(run.mask, literal.charCodeAt(0))) return null;
  return { mask: run.mask, min: e.min, max: e.max, literal };
}

/**
 * The first code unit of what `elements[from..]` match (`last` false), or the last one of what
 * `elements[..from]` match (`last` true); nullable when all of them can match nothing.
 */
function edgeOfRun(elements: readonly AST.Element[], from: number, last: boolean): Edge {
  let mask: Mask = NO_CODES;
  for (let i = from; last ? i >= 0 : i < elements.length; i += last ? -1 : 1) {
    const e = edgeOf(elements[i] as AST.Element, last);
    mask = unionMask(mask, e.mask);
    if (!e.nullable || mask === null) return { mask, nullable: mask === null };
  }
  return { mask, nullable: true };
}

/** See {@link SourceAnalysis.required}. */
function requiredLiterals(pattern: AST.Pattern): readonly string[] {
  if (pattern.alternatives.length !== 1) return [];
  const out: string[] = [];
  let run = '';
  const end = (): void => {
    if (acceptable(run) && !out.includes(run)) out.push(run);
    run = '';
  };
  for (const element of (pattern.alternatives[0] as AST.Alternative).elements) {
    // A plain ASCII character matches itself (any case, Kelvin sign and long s included under
    // folding, as foldCodeUnit maps them); anything else ends the run.
    if (element.type === 'Character' && element.value < 0x80)
      run += String.fromCharCode(foldCodeUnit(element.value));
    else end();
  }
  end();
  return out;
}

/**
 * The literal atoms of `source` (see the module comment), or null when the pattern has no such set
 * or cannot be parsed as a JS unicode-mode pattern (then the caller must run it without a prefilter).
 */
export function literalAtoms(source: string): readonly string[] | null {
  return analyseSource(source).atoms;
}

/**
 * The literal a pattern stands for when it has no metacharacters once escapes are undone and is
 * ASCII only (then the prefilter's hit is already re2's answer), else null.
 */
export function plainLiteral(source: string): string | null {
  if (!PLAIN_LITERAL.test(source)) return null;
  // ASCII only, so toLowerCase is foldCodeUnit (and gives a flat string, cheap to hash and sort).
  return (source.includes('\\') ? source.replace(/\\(.)/g, '$1') : source).toLowerCase();
}

/**
 * A plain literal's source: ASCII characters other than the metacharacters `^$.*+?()[]{}|` and the
 * backslash, or a backslash before a punctuation character that stands for itself. One native test,
 * not a loop over code units: a compile reads every literal mark's source, mostly before the JIT
 * has warmed (atoms.test.ts holds the loop it replaced and proves them equal).
 */
const PLAIN_LITERAL = /^(?:[^\\^$.*+?()[\]{}|\x80-\uffff]|\\[\^$\\.*+?()[\]{}|/\-@#:,'"!%&=<>`~ ;_])+$/;

function validSet(set: readonly string[] | null): readonly string[] | null {
  if (set === null || set.length === 0) return null;
  for (const a of set) if (!acceptable(a)) return null;
  return set;
}

function acceptable(atom: string): boolean {
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
function minimal(candidate: Candidate): Candidate {
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
function own(info: Info): Candidate | null {
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
function whole(info: Info): Candidate | null {
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
function best(candidates: readonly (Candidate | null)[]): Candidate | null {
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

function info(exact: readonly string[] | null, chosen: Candidate | null): Info {
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

function alternation(alternatives: readonly AST.Alternative[]): Info {
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

/** Unicode properties (`\\p{…}`) that hold no stop character. */
const STOP_FREE_PROPERTIES = new Set(
  'L Letter Lu Ll Lt Lm Lo LC N Number Nd Nl No Alphabetic Alpha M Mark P Punctuation S Symbol'.split(' '),
);

/** Whether `element` can match (or contain) a stop character; true when unsure. */
function canStop(element: AST.Element): boolean {
  switch (element.type) {
    case 'Assertion':
      return false;
    case 'Character':
      return isStopCode(element.value);
    case 'Group':
    case 'CapturingGroup':
      return element.alternatives.some((a) => a.elements.some(canStop));
    case 'Quantifier':
      return element.max > 0 && canStop(element.element);
    case 'CharacterSet':
      return setCanStop(element);
    case 'CharacterClass': {
      if (element.unicodeSets) return true;
      // A class can match a stop character when one is in it (or, negated, one is not in it).
      const members: readonly AST.CharacterClassElement[] = element.elements;
      for (let c = 9; c <= 32; c = c === 13 ? 32 : c + 1) {
        let inClass = false;
        for (const e of members) {
          if (e.type === 'Character') inClass = e.value === c;
          else if (e.type === 'CharacterClassRange') inClass = e.min.value <= c && c <= e.max.value;
          else if (e.type === 'CharacterSet') inClass = setHolds(e, c);
          else return true;
          if (inClass) break;
        }
        if (inClass !== element.negate) return true;
      }
      return false;
    }
    default:
      return true;
  }
}

function setCanStop(set: AST.CharacterSet): boolean {
  for (let c = 9; c <= 32; c = c === 13 ? 32 : c + 1) if (setHolds(set, c)) return true;
  return false;
}

/** Whether a character set (`.`, `\\d`, `\\s`, `\\w`, `\\p{…}`) holds the stop character `c`; true when unsure. */
function setHolds(set: AST.CharacterSet, c: number): boolean {
  switch (set.kind) {
    case 'any':
      return c !== 10 && c !== 13; // re2 `.` without 's' matches everything but \n (and we say \r too, to be safe)
    case 'digit':
    case 'word':
      return set.negate; // \d and \w hold none; \D and \W hold them all
    case 'space':
      return !set.negate;
    case 'property': {
      if (set.strings) return true;
      const name = set.value ?? set.key;
      const free = set.value === null || set.key === 'General_Category' || set.key === 'gc';
      const holds = !(free && STOP_FREE_PROPERTIES.has(name));
      return set.negate ? true : holds;
    }
    default:
      return true;
  }
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
