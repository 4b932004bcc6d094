/**
 * What one pattern character, or the text next to an atom occurrence, can be: folded ASCII code
 * units as 128-bit masks (`Mask`), contexts and edges built from them, and the 128-entry tables the
 * compiled matcher reads (§13.3: a hit whose neighbour is outside the mask cannot be a match's).
 *
 * Owns: the masks and their algebra. Does not own: walking a pattern (pattern-walk.ts).
 */
import type { AST } from '@eslint-community/regexpp';
import { foldCodeUnit } from './fold.ts';

/**
 * Folded ASCII code units (see {@link foldCodeUnit}) as a 128-bit set in four 32-bit words, or
 * null for "any": what one character of a pattern can match, as far as ASCII text is concerned.
 * Non-ASCII text is never judged by a mask (under re2's folding only KELVIN SIGN and LONG S meet
 * ASCII, and the matcher lets every non-ASCII code unit through).
 */
export type Mask = readonly [number, number, number, number] | null;

/**
 * What a match holds next to an atom occurrence, inside the node the candidate was found in: the
 * code units the neighbouring character can be (`mask`), and `open` when the match may have no
 * character there within the node (then whatever surrounds the node decides, and a whole match may
 * start or end at the occurrence). A hit whose neighbour in the text is outside the mask cannot be
 * that occurrence of any match: the matcher drops it before confirming (§13.3, exact: a filter
 * that only drops hits no match can use).
 */
export interface Context {
  readonly mask: Mask;
  readonly open: boolean;
}

/** The first (or last) code unit of a node's matches, and whether a match can be empty. */
export interface Edge {
  readonly mask: Mask;
  readonly nullable: boolean;
}

export const NO_CODES: Mask = [0, 0, 0, 0];

/** Nothing known: any code unit, or none. */
export const FREE: Context = { mask: null, open: true };

/** The occurrence is the node's whole match: only what surrounds the node decides. */
export const OUTSIDE: Context = { mask: NO_CODES, open: true };

export const EMPTY_EDGE: Edge = { mask: NO_CODES, nullable: true };

export const ANY_EDGE: Edge = { mask: null, nullable: true };

/**
 * A context as the matcher's table over raw ASCII code units (both cases of a folded letter), or
 * null when it allows every code unit: when it is open the match may start or end at the
 * occurrence, so the text there may hold anything.
 */
export function contextTable(context: Context, contextTables: Map<string, Uint8Array>): Uint8Array | null {
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

export function hasCode(mask: Mask, c: number): boolean {
  return mask === null || ((mask[c >> 5] as number) & (1 << (c & 31))) !== 0;
}

function withCode(mask: Mask, c: number): Mask {
  if (mask === null) return null;
  const out: [number, number, number, number] = [mask[0], mask[1], mask[2], mask[3]];
  out[c >> 5] = (out[c >> 5] as number) | (1 << (c & 31));
  return out;
}

export function unionMask(a: Mask, b: Mask): Mask {
  if (a === null || b === null) return null;
  if (a === NO_CODES) return b;
  if (b === NO_CODES) return a;
  return [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]];
}

export function unionContext(a: Context, b: Context): Context {
  return { mask: unionMask(a.mask, b.mask), open: a.open || b.open };
}

/** `context` seen from the enclosing sequence, where `edge` (what lies beyond the node) follows it. */
export function extendContext(context: Context, edge: Edge): Context {
  return context.open ? { mask: unionMask(context.mask, edge.mask), open: edge.nullable } : context;
}

/** The folded ASCII code units one pattern character can match. */
export function characterMask(value: number): Mask {
  const folded = foldCodeUnit(value); // KELVIN SIGN and LONG S meet k and s; nothing else meets ASCII
  return folded < 0x80 ? (CODE_MASKS[folded] as Mask) : NO_CODES;
}

export function rangeMask(mask: Mask, from: number, to: number): Mask {
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
export function setMask(set: AST.CharacterSet): Mask {
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
