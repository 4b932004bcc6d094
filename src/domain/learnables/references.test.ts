// Invariant: a reference is found whole, every segment included, and its pattern matches it and nothing longer (§8, §13.1).
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { findReferences, isReference } from './references.ts';
import { escapeRe2, tokenPattern, displayText } from './literal-pattern.ts';
import { literalAtoms } from '../matching/index.ts';

const re = (source: string): RE2 => new RE2(source, 'iu');

describe('findReferences', () => {
  it('takes PA-2026-0901 whole, never PA-2026 (§8)', () => {
    expect(findReferences('Pre-alert PA-2026-0901 for you').map((r) => r.text)).toEqual(['PA-2026-0901']);
  });

  it('takes every segment of HBL/2026/00412/A, letters and digits alike (§8)', () => {
    expect(findReferences('Your HBL/2026/00412/A, thanks').map((r) => r.text)).toEqual(['HBL/2026/00412/A']);
  });

  it('keeps trailing letter segments and ignores trailing punctuation', () => {
    expect(findReferences('refs: NVMA-2026-1234. And SHP20260901!').map((r) => r.text)).toEqual([
      'NVMA-2026-1234',
      'SHP20260901',
    ]);
  });

  it('does not take dates, times, flight numbers, plain numbers or words', () => {
    expect(findReferences('On 2026-09-01 at 10:42, flight EK123, 412 kg, order 55120, pre-alert')).toEqual(
      [],
    );
    expect(isReference('14/09')).toBe(false);
    expect(isReference('01/09/2026')).toBe(false);
  });

  it('reports each reference once', () => {
    expect(findReferences('PA-2026-0901 and again pa-2026-0901').map((r) => r.text)).toEqual([
      'PA-2026-0901',
    ]);
  });
});

describe('tokenPattern', () => {
  it('matches the reference where it stands, and never inside a longer reference (§13.1)', () => {
    const r = re(tokenPattern('PA-2026-0901', 'reference'));
    for (const yes of [
      'PA-2026-0901',
      'Pre-alert PA-2026-0901',
      '(PA-2026-0901)',
      'ref:PA-2026-0901.',
      'pa-2026-0901\nnext',
      'x PA-2026-0901, y',
    ])
      expect(r.test(yes), yes).toBe(true);
    for (const no of [
      'PA-2026-09012',
      'PA-2026-0901-7',
      'PA-2026-0901/A',
      'XPA-2026-0901',
      'X-PA-2026-0901',
      'PA-2026-0901A',
      'PA-2026-090',
      'PA-2026',
    ])
      expect(r.test(no), no).toBe(false);
  });

  it('escapes dots so an address matches only itself (§13.1)', () => {
    const r = re(tokenPattern('billing@origin.example', 'address'));
    expect(r.test('Billing Desk <billing@origin.example>')).toBe(true);
    expect(r.test('billing@origin.example')).toBe(true);
    for (const no of [
      'billing@originXexample',
      'xbilling@origin.example',
      'a.billing@origin.example',
      'billing@origin.example.org',
      'billing@origin.example-x.com',
    ])
      expect(r.test(no), no).toBe(false);
  });

  it('bounds names at letters of any script', () => {
    expect(re(tokenPattern('Gulftrade', 'words')).test('for Gulftrade, ref')).toBe(true);
    expect(re(tokenPattern('Gulftrade', 'words')).test('Gulftraders')).toBe(false);
    // A name in a script re2's \b cannot bound stays a plain literal (what the prefilter needs).
    expect(tokenPattern('شركة الحمراء', 'words')).toBe('شركة الحمراء');
    expect(re(tokenPattern('شركة الحمراء', 'words')).test('نيابة عن شركة الحمراء للتجارة')).toBe(true);
  });

  it('leaves a literal the prefilter can use (at least four characters)', () => {
    expect(literalAtoms(tokenPattern('PA-2026-0901', 'reference'))).not.toBeNull();
    expect(literalAtoms(tokenPattern('billing@origin.example', 'address'))).not.toBeNull();
  });

  it('escapes every re2 metacharacter', () => {
    const text = 'a.b*c+d?e(f)g[h]i{j}k|l^m$n\\o';
    expect(re(escapeRe2(text)).test(text)).toBe(true);
    expect(re(escapeRe2('a.b')).test('axb')).toBe(false);
  });

  it('shows the matched text without the anchor character', () => {
    expect(displayText(' PA-2026-0901.')).toBe('PA-2026-0901');
    expect(displayText('<billing@origin.example>')).toBe('billing@origin.example');
  });
});
