/**
 * Plain literal marks, optionally between `\\b` anchors: their first automaton hit where the anchors
 * hold is re2's own match (§13.3), so they need no confirming re2.
 *
 * Owns: recognising such a source and checking re2's ASCII `\\b` around a hit. Does not own: what a
 * plain literal is (plain-literal.ts, below) or finding hits (aho-corasick.ts).
 */
import { plainLiteral } from './plain-literal.ts';

const BOUNDARY_BEFORE = 1;
const BOUNDARY_AFTER = 2;

/**
 * A plain literal (see `plainLiteral`), optionally between `\b` anchors (`\bnorgate\b`, the
 * `words` shape of literal-pattern.ts): then the literal's first hit where those hold is re2's match.
 */
export function boundedLiteral(source: string): { literal: string | null; boundary: number } {
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
export function atBoundaries(text: string, from: number, to: number, boundary: number): boolean {
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
