/**
 * How far a match can run and where it can stop (§13.3): the first and last characters of a node's
 * matches (`edgeOf`), the gap (a run, then a literal) after an atom occurrence, whether a node can
 * match a stop character (`canStop`), and the longest match of a node (`longest`).
 *
 * Owns: those bounds, each a walk of its own over the tree. Does not own: atoms (pattern-walk.ts,
 * atom-choice.ts).
 */
import type { AST } from '@eslint-community/regexpp';
import type { Gap } from './atom-choice.ts';
import {
  ANY_EDGE,
  characterMask,
  EMPTY_EDGE,
  hasCode,
  NO_CODES,
  rangeMask,
  setMask,
  unionMask,
  type Edge,
  type Mask,
} from './char-mask.ts';
import { foldCodeUnit, isStopCode } from './fold.ts';

/** The first (`last` false) or last code unit a match of `element` can have. */
export function edgeOf(element: AST.Element, last: boolean): Edge {
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
export function gapAt(elements: readonly AST.Element[], index: number): Gap | null {
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
export function edgeOfRun(elements: readonly AST.Element[], from: number, last: boolean): Edge {
  let mask: Mask = NO_CODES;
  for (let i = from; last ? i >= 0 : i < elements.length; i += last ? -1 : 1) {
    const e = edgeOf(elements[i] as AST.Element, last);
    mask = unionMask(mask, e.mask);
    if (!e.nullable || mask === null) return { mask, nullable: mask === null };
  }
  return { mask, nullable: true };
}

/** Unicode properties (`\\p{…}`) that hold no stop character. */
const STOP_FREE_PROPERTIES = new Set(
  'L Letter Lu Ll Lt Lm Lo LC N Number Nd Nl No Alphabetic Alpha M Mark P Punctuation S Symbol'.split(' '),
);

/** Whether `element` can match (or contain) a stop character; true when unsure. */
export function canStop(element: AST.Element): boolean {
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

export function longest(element: AST.Element): number {
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
