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
import { foldCodeUnit } from './fold.ts';
import { contextTable } from './char-mask.ts';
import { acceptable, best, minimal, own, whole } from './atom-choice.ts';
import { alternation } from './pattern-walk.ts';
import { leanParse } from './lean-parse.ts';

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
