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
});
