// Invariant: what leanParse accepts, regexpp accepts in unicode mode, with the same tree and the same
// analysis; everything else is left to regexpp (§13.3: the analysis drives an exact prefilter).
import { describe, expect, it } from 'vitest';
import { seededRandom, syntheticMarks } from '../../../bench/matching-corpus.ts';
import { analysePattern, parseWithRegexpp } from './atoms.ts';
import { plainLiteral } from './plain-literal.ts';
import { leanParse } from './lean-parse.ts';
import { EVERYDAY_PATTERNS } from '../../../test/support/patterns.ts';

/** The fields of a tree that analysis reads, as plain data. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node === null || typeof node !== 'object') return node;
  const n = node as Record<string, unknown>;
  const out: Record<string, unknown> = { type: n.type };
  for (const key of ['value', 'kind', 'negate', 'min', 'max', 'greedy', 'unicodeSets'])
    if (key in n) out[key] = typeof n[key] === 'object' ? shape(n[key]) : n[key];
  for (const key of ['alternatives', 'elements', 'element']) if (key in n) out[key] = shape(n[key]);
  if (n.type === 'Assertion' && n.kind !== 'word') delete out.negate;
  return out;
}

function agrees(source: string): boolean {
  const lean = leanParse(source);
  if (lean === null) return false;
  const full = parseWithRegexpp(source);
  expect(full, `regexpp refuses ${JSON.stringify(source)}, which leanParse took`).not.toBeNull();
  expect(shape(lean), source).toEqual(shape(full));
  expect(analysePattern(lean), source).toEqual(analysePattern(full!));
  return true;
}

describe('leanParse', () => {
  it('reads every regex mark of the benchmark directory as regexpp does', () => {
    // Plain literals never reach a parser (plainLiteral reads them, `\\-` included).
    const sources = new Set(
      syntheticMarks(20_000, 1)
        .map((m) => m.source)
        .filter((s) => plainLiteral(s) === null),
    );
    let taken = 0;
    for (const s of sources) if (agrees(s)) taken++;
    expect(taken).toBe(sources.size);
  });

  it.each(EVERYDAY_PATTERNS)('reads %s as regexpp does', (source) => {
    expect(agrees(source)).toBe(true);
  });

  it.each([
    '(?=abcd)x',
    '(?<name>abcd)',
    '(?i:abcd)',
    '\\p{L}+',
    '\\u0041',
    '\\x41',
    '(a)\\1',
    '\\-',
    'a{,3}',
    '{',
    'a]',
    '*a',
    'a**',
    '\\b+',
    '[a-\\d]',
    '[z-a]',
    '[a-c-e]',
    '[--x]', // regexpp reads a range from "-" to "x"
    '[ab--]',
    '(?P<x>abcd)',
  ])('leaves %s to regexpp', (source) => {
    expect(leanParse(source)).toBeNull();
  });

  it('never takes a pattern regexpp refuses, and agrees on all it takes (random patterns)', () => {
    const pieces = [
      'a',
      'B',
      'ü',
      '😀',
      '\ud800',
      '1',
      ' ',
      '@',
      '/',
      '-',
      '\\d',
      '\\W',
      '\\s',
      '\\b',
      '\\B',
      '\\.',
      '\\-',
      '\\/',
      '\\]',
      '\\x41',
      '\\u0041',
      '\\p{L}',
      '\\1',
      '\\0',
      '\\t',
      '\\q',
      '\\',
      '(',
      '(?:',
      '(?=',
      '(?<n>',
      ')',
      '|',
      '*',
      '+',
      '?',
      '{2}',
      '{2,}',
      '{2,3}',
      '{3,2}',
      '{',
      '}',
      '[',
      '[^',
      ']',
      '^',
      '$',
      '.',
      'a-z',
      '0-9',
      '_-',
    ];
    const rnd = seededRandom(20261201);
    let taken = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      let source = '';
      const n = 1 + Math.floor(rnd() * 10);
      for (let p = 0; p < n; p++) source += pieces[Math.floor(rnd() * pieces.length)];
      if (agrees(source)) taken++;
      else if (parseWithRegexpp(source) === null) refused++;
    }
    expect(taken).toBeGreaterThan(2_000);
    expect(refused).toBeGreaterThan(2_000);
  });
});
