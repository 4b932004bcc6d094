/**
 * How deep a JSON text nests, found by one pass over its bytes before anything parses it, so a
 * hostile body (a data part nested 3,000 deep) is refused in words instead of overflowing the stack
 * of whatever walks the parsed value later. Owns only the scan; the transports decide the
 * bound (MAX_JSON_DEPTH) and the answer. Invalid JSON scans like JSON and is left for the parser.
 */

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when `text` (UTF-8 bytes of JSON) opens more than `maxDepth` objects/arrays inside each other.
 * Brackets inside strings do not count. Stops at the first level past the bound: O(n), no allocation.
 * A string is skipped by searching for its closing quote (native `indexOf`), not byte by byte: a
 * mail's base64 is one 33 MB string, and the byte loop spent ~100 ms on it.
 */
export function jsonDeeperThan(text: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1 when none does. */
function closingQuote(text: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    // A quote is escaped when an odd run of backslashes stands right before it.
    let backslashes = 0;
    while (text[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
