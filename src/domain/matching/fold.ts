/**
 * re2's case folding as far as ASCII atoms need it, and the stop characters (§13.3).
 *
 * Under re2's case folding the only non-ASCII characters that fold to ASCII are U+212A KELVIN SIGN
 * (k) and U+017F LATIN SMALL LETTER LONG S (s); `foldCodeUnit` maps exactly those, so "folded text
 * contains the atom" is exact for ASCII atoms without any Unicode case tables.
 *
 * Owns: folding a code unit, what an automaton key may be, what ends a token. Nothing else.
 */
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

/**
 * Whitespace that ends a token: [\t\n\v\f\r ]. A pattern part that cannot match any of them (an
 * address's local part, a word) cannot run across one, which bounds a match without a length bound.
 */
export const STOP_CHARACTERS = '\t\n\v\f\r ';

/** Whether code unit `c` is one of {@link STOP_CHARACTERS}. */
export function isStopCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
