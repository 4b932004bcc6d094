/** jsonDeeperThan counts nesting outside strings only, and stops at the first level past the bound. */
import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from './json-depth.ts';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');

describe('jsonDeeperThan', () => {
  it('finds a body nested 3,000 deep past a bound of 64', () => {
    expect(jsonDeeperThan(bytes('['.repeat(3000) + ']'.repeat(3000)), 64)).toBe(true);
    expect(jsonDeeperThan(bytes(`{"a":${'{"b":'.repeat(3000)}1${'}'.repeat(3001)}`), 64)).toBe(true);
  });

  it('accepts nesting up to the bound exactly', () => {
    expect(jsonDeeperThan(bytes('['.repeat(64) + ']'.repeat(64)), 64)).toBe(false);
    expect(jsonDeeperThan(bytes('['.repeat(65) + ']'.repeat(65)), 64)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const s = JSON.stringify({ text: '[[[[{{{{\\"[[[[' + '['.repeat(500) });
    expect(jsonDeeperThan(bytes(s), 2)).toBe(false);
  });

  it('reads siblings as the same level', () => {
    expect(jsonDeeperThan(bytes(JSON.stringify(Array.from({ length: 1000 }, () => [[1]]))), 3)).toBe(false);
  });

  it('ends a string at a quote after an even run of backslashes, not after an odd one', () => {
    // "a\\" closes the string (an escaped backslash): the brackets after it count.
    expect(jsonDeeperThan(bytes('["a\\\\",[[[]]]]'), 3)).toBe(true);
    // "a\\\"[[[[" keeps the string open past the escaped quote: those brackets do not count.
    expect(jsonDeeperThan(bytes('["a\\\\\\"[[[[",1]'), 3)).toBe(false);
  });

  it('reads an unterminated string as the end of the text', () => {
    expect(jsonDeeperThan(bytes('[["[[[[[['), 3)).toBe(false);
    expect(jsonDeeperThan(bytes('[[[["'), 3)).toBe(true);
  });

  it('agrees with a byte-by-byte scan on random text of brackets, quotes and backslashes', () => {
    const byteScan = (text: Uint8Array, maxDepth: number): boolean => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = String.fromCharCode(text[i]!);
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '[' || c === '{') {
          if (++depth > maxDepth) return true;
        } else if (c === ']' || c === '}') depth--;
      }
      return false;
    };
    const alphabet = '[]{}"\\a,';
    let seed = 29;
    const next = (): number => {
      // xorshift32: every bit varies, so short texts mix all eight characters.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let n = 0; n < 5000; n++) {
      const text = bytes(
        Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join(''),
      );
      const bound = next() % 5;
      expect(jsonDeeperThan(text, bound), Buffer.from(text).toString()).toBe(byteScan(text, bound));
    }
  });
});
