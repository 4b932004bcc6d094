// Invariant: the suggestions for a name nobody has are the entries within a typo of it, by name or label, nearest first, and the distance is Levenshtein's (issue 12.3).
import { describe, expect, it } from 'vitest';
import { levenshtein, MAX_SUGGESTIONS, nearestEntries } from './nearest-entries.ts';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['northgat', 'northgate', 1],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['🚚a', '🚚b', 1],
  ])('measures %s → %s as %i edits', (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
    expect(levenshtein(b, a)).toBe(d);
  });

  it('stops early past the limit, answering limit + 1', () => {
    expect(levenshtein('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
    expect(levenshtein('a', 'abcdef', 2)).toBe(3);
  });
});

describe('nearestEntries', () => {
  const entries = [
    { entry: 'northgate', label: 'Northgate Motors Ltd' },
    { entry: 'gulftrade', label: 'Gulftrade' },
    { entry: 'alhamra', label: 'Al Hamra Trading' },
  ];

  it('finds a typo of a name, and of a label, case-insensitively', () => {
    expect(nearestEntries('northgat', entries)).toEqual([entries[0]]);
    expect(nearestEntries('AL HAMRA TRADNG', entries)).toEqual([entries[2]]);
  });

  it('suggests nothing for a name far from every entry', () => {
    expect(nearestEntries('harbourline', entries)).toEqual([]);
  });

  it('names at most a few, nearest first', () => {
    const many = ['ab1', 'ab22', 'ab', 'abc', 'abcd'].map((e) => ({ entry: e, label: e }));
    const near = nearestEntries('ab', many);
    expect(near.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    expect(near[0]!.entry).toBe('ab');
  });
});
