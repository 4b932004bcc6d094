/**
 * A small parser for the everyday part of a mark's regex syntax, building the same AST shape that
 * `@eslint-community/regexpp` builds in unicode mode, for the fields `atoms.ts` reads. Parsing is
 * most of a compile's cost at scale, and regexpp, a full validating parser, spends much
 * of it on what marks never use.
 *
 * It returns null, and the caller then asks regexpp, for anything it does not take on, and for
 * anything regexpp would refuse: lookarounds, named groups, modifiers, backreferences, `\p{…}`,
 * `\u…`, `\x…`, `\c…`, `\0`, identity escapes other than the syntax characters and `/`, a lone
 * `{`, `}` or `]`, a quantifier with nothing to repeat, and any class whose dashes are not plain
 * (first, last, or one range between two characters). So what it accepts, regexpp accepts, with the
 * same tree; `lean-parse.test.ts` compares the two on every mark of the benchmark and on random
 * patterns.
 */
import type { AST } from '@eslint-community/regexpp';

/** Largest repeat count taken on (regexpp's own limit is far above what a mark needs). */
const MAX_COUNT = 100_000;

const SYNTAX = new Set('^$\\.*+?()[]{}|'.split('').map((c) => c.charCodeAt(0)));
const SLASH = 0x2f;

type Node = Record<string, unknown>;

class Bail extends Error {}
const bail = new Bail();

/** The pattern's tree, or null when regexpp must decide (see the module comment). */
export function leanParse(source: string): AST.Pattern | null {
  try {
    const parser = new Lean(source);
    const alternatives = parser.disjunction();
    if (parser.at !== source.length) return null;
    return { type: 'Pattern', alternatives } as unknown as AST.Pattern;
  } catch (e) {
    if (e === bail) return null;
    throw e;
  }
}

class Lean {
  at = 0;
  constructor(private readonly source: string) {}

  private peek(): number {
    return this.at < this.source.length ? this.source.charCodeAt(this.at) : -1;
  }

  disjunction(): Node[] {
    const alternatives: Node[] = [this.alternative()];
    while (this.peek() === 0x7c /* | */) {
      this.at++;
      alternatives.push(this.alternative());
    }
    return alternatives;
  }

  private alternative(): Node {
    const elements: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === 0x7c || c === 0x29 /* ) */) break;
      const atom = this.term();
      elements.push(this.quantified(atom));
    }
    return { type: 'Alternative', elements };
  }

  /** One atom or assertion. */
  private term(): Node {
    const source = this.source;
    const c = this.peek();
    switch (c) {
      case 0x5e: // ^
        this.at++;
        return { type: 'Assertion', kind: 'start' };
      case 0x24: // $
        this.at++;
        return { type: 'Assertion', kind: 'end' };
      case 0x2e: // .
        this.at++;
        return { type: 'CharacterSet', kind: 'any' };
      case 0x28: {
        // (
        this.at++;
        let type = 'CapturingGroup';
        if (this.peek() === 0x3f /* ? */) {
          if (source.charCodeAt(this.at + 1) !== 0x3a /* : */) throw bail;
          this.at += 2;
          type = 'Group';
        }
        const alternatives = this.disjunction();
        if (this.peek() !== 0x29) throw bail;
        this.at++;
        return type === 'Group' ? { type, alternatives } : { type, name: null, alternatives, references: [] };
      }
      case 0x5b: // [
        return this.characterClass();
      case 0x5c: {
        // \
        const e = source.charCodeAt(this.at + 1);
        if (e === 0x62 /* b */ || e === 0x42 /* B */) {
          this.at += 2;
          return { type: 'Assertion', kind: 'word', negate: e === 0x42 };
        }
        return this.escape(false);
      }
      case 0x2a: // * + ? { } ] ) with nothing before them: regexpp refuses or reads them otherwise
      case 0x2b:
      case 0x3f:
      case 0x7b:
      case 0x7d:
      case 0x5d:
        throw bail;
      default: {
        const cp = source.codePointAt(this.at) as number;
        this.at += cp > 0xffff ? 2 : 1;
        return { type: 'Character', value: cp };
      }
    }
  }

  /** A quantifier after `atom`, if any. */
  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === 0x2a) [min, max] = [0, Infinity];
    else if (c === 0x2b) [min, max] = [1, Infinity];
    else if (c === 0x3f) [min, max] = [0, 1];
    else if (c === 0x7b) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at, this.at + 24));
      if (m === null) throw bail;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > MAX_COUNT || (max !== Infinity && (max > MAX_COUNT || max < min))) throw bail;
      this.at += m[0].length - 1;
    } else return atom;
    if (atom.type === 'Assertion') throw bail;
    this.at++;
    let greedy = true;
    if (this.peek() === 0x3f) {
      this.at++;
      greedy = false;
    }
    const next = this.peek();
    if (next === 0x2a || next === 0x2b || next === 0x3f || next === 0x7b) throw bail;
    return { type: 'Quantifier', min, max, greedy, element: atom };
  }

  /** An escape at `\`, outside a class or inside one (`inClass`). */
  private escape(inClass: boolean): Node {
    const e = this.source.charCodeAt(this.at + 1);
    this.at += 2;
    switch (e) {
      case 0x64: // d D s S w W
      case 0x44:
        return { type: 'CharacterSet', kind: 'digit', negate: e === 0x44 };
      case 0x73:
      case 0x53:
        return { type: 'CharacterSet', kind: 'space', negate: e === 0x53 };
      case 0x77:
      case 0x57:
        return { type: 'CharacterSet', kind: 'word', negate: e === 0x57 };
      case 0x74:
        return { type: 'Character', value: 9 };
      case 0x6e:
        return { type: 'Character', value: 10 };
      case 0x76:
        return { type: 'Character', value: 11 };
      case 0x66:
        return { type: 'Character', value: 12 };
      case 0x72:
        return { type: 'Character', value: 13 };
      default:
        if (SYNTAX.has(e) || e === SLASH || (inClass && e === 0x2d) /* - */)
          return { type: 'Character', value: e };
        throw bail;
    }
  }

  /** `[…]` or `[^…]`, with plain dashes only. */
  private characterClass(): Node {
    const source = this.source;
    this.at++;
    let negate = false;
    if (this.peek() === 0x5e) {
      negate = true;
      this.at++;
    }
    const elements: Node[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === -1) throw bail;
      if (c === 0x5d /* ] */) {
        this.at++;
        return { type: 'CharacterClass', negate, unicodeSets: false, elements };
      }
      if (c === 0x2d /* - */) {
        // A dash is plain only first or last; anywhere else regexpp decides.
        if (!first && source.charCodeAt(this.at + 1) !== 0x5d) throw bail;
        this.at++;
        elements.push({ type: 'Character', value: c });
        first = false;
        continue;
      }
      const atom = this.classAtom();
      first = false;
      if (this.peek() === 0x2d && source.charCodeAt(this.at + 1) !== 0x5d) {
        // A range: both ends single characters, in order.
        this.at++;
        if (this.peek() === 0x2d || this.peek() === -1) throw bail;
        const end = this.classAtom();
        if (atom.type !== 'Character' || end.type !== 'Character') throw bail;
        if ((atom.value as number) > (end.value as number)) throw bail;
        elements.push({ type: 'CharacterClassRange', min: atom, max: end });
        if (this.peek() === 0x2d && source.charCodeAt(this.at + 1) !== 0x5d) throw bail;
        continue;
      }
      elements.push(atom);
    }
  }

  private classAtom(): Node {
    const c = this.peek();
    if (c === 0x5c) {
      if (this.source.charCodeAt(this.at + 1) === 0x62 /* \b: backspace in a class */) {
        this.at += 2;
        return { type: 'Character', value: 8 };
      }
      return this.escape(true);
    }
    const cp = this.source.codePointAt(this.at) as number;
    this.at += cp > 0xffff ? 2 : 1;
    return { type: 'Character', value: cp };
  }
}
