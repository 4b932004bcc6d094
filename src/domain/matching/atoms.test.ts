// Invariant: every match of a pattern (re2, 'iu') contains one of its literal atoms once folded (§13.3).
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/matching-corpus.ts';
import { analyseSource, literalAtoms } from './atoms.ts';
import { foldCodeUnit } from './fold.ts';
import { plainLiteral } from './plain-literal.ts';

function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(foldCodeUnit(text.charCodeAt(i)));
  return out;
}

const sorted = (atoms: readonly string[] | null): string[] | null =>
  atoms === null ? null : [...atoms].sort();

describe('literalAtoms (§13.3)', () => {
  it.each([
    ['XYZ-20\\d{2}-\\d{4}', ['xyz-20']],
    ['word\\s+motors', ['word']], // 'motors' is a common mail word,
    ['billing@origin\\.example', ['billing@origin.example']],
    ['PA-2026-0901', ['pa-2026-0901']],
    ['[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example', ['dom.example']],
    ['\\bword\\b', ['word']],
    ['word[_-]?statement[_-]?\\d{4,8}\\.pdf', ['wordstatement', 'word-statement', 'word_statement']],
    ['[a-z]+@x\\.io', ['@x.io']],
    ['northgate|gulftrade', ['gulftrade', 'northgate']],
    ['(?:north|south)gate motors', ['northgate motors', 'southgate motors']],
    ['Northgate Motors Ltd', ['northgate motors ltd']],
    ['müller gmbh', ['ller gmbh']],
    ['a(bcd|bce)f', ['abcdf', 'abcef']],
    ['x{3}yz', ['xxxyz']],
    [
      'INV\\d{2}',
      ['inv00', 'inv01', 'inv02', 'inv03', 'inv04', 'inv05', 'inv06', 'inv07', 'inv08', 'inv09'].slice(0, 0),
    ],
    ['(?:acme|globex)[\\s-]+(?:freight|cargo)', ['acme', 'globex']],
    ['ORDER #?\\d+', ['order ']],
    ['(?=abcd)x', null],
  ])('finds the atoms of %s', (source, expected) => {
    const atoms = literalAtoms(source);
    if (source === 'INV\\d{2}') {
      // "inv" × \d × \d = 100 strings: the 10 four-character prefixes are the set.
      expect(atoms?.length).toBe(10);
      expect(atoms?.every((a) => /^inv\d$/.test(a))).toBe(true);
      return;
    }
    expect(sorted(atoms)).toEqual(expected === null ? null : [...expected].sort());
  });

  it.each([
    '\\d{4}',
    '(?:inv|invoice)[\\s#:-]*123\\d{3}', // only four-digit runs: cheaper in a Set shard
    '\\d{6}',
    'abc',
    '[a-z]+',
    '.*',
    'a|bcdef',
    '(?:abcd)?x',
    '(?P<name>abcd)', // not JS syntax: no prefilter, never a wrong one
    '[^abcd]efg',
    '\\w+@\\w+',
    '日本郵便',
  ])('returns null when no atom set exists: %s', (source) => {
    expect(literalAtoms(source)).toBeNull();
  });

  it('every atom has at least four characters and is lower-case', () => {
    for (const s of ['ABCD|EFGH', 'XYZ-20\\d{2}-\\d{4}', 'Word\\s+MOTORS', 'INV\\d{6}']) {
      for (const a of literalAtoms(s) ?? []) {
        expect(a.length).toBeGreaterThanOrEqual(4);
        expect(a).toBe(a.toLowerCase());
      }
    }
  });

  it('is sound: each re2 match contains an atom of its pattern, Kelvin sign and long s included', () => {
    const patterns = [
      'XYZ-20\\d{2}-\\d{4}',
      'word\\s+motors',
      'ask\\s+desk',
      '[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example',
      'word[_-]?statement[_-]?\\d{4,8}\\.pdf',
      '(?:north|south)gate motors',
      'INV\\d{6}',
      'ab(?:cd)?ef',
      'müller gmbh',
    ];
    const texts = [
      'xyz-2031-0042 and Xyz-2099-1234',
      'WORD   Motors, word\tmotors',
      'AS\u212A DESK and a\u017Fk desk',
      'jo.doe@mail.DOM.example, x@dom.example',
      'WORD_STATEMENT_2024.PDF word-statement-12345678.pdf',
      'NORTHGATE MOTORS southGate Motors',
      'inv123456 INV000001',
      'abef ABCDEF',
      'MÜLLER GMBH',
      'none of it',
    ];
    let checked = 0;
    for (const p of patterns) {
      const atoms = literalAtoms(p);
      expect(atoms).not.toBeNull();
      const re = new RE2(p, 'giu');
      for (const t of texts) {
        for (const m of t.matchAll(re)) {
          checked++;
          const folded = fold(m[0]);
          expect(
            atoms?.some((a) => folded.includes(a)),
            `${p} on ${m[0]}`,
          ).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
  });
});

describe('plainLiteral', () => {
  it('undoes escapes of metacharacters and folds case', () => {
    expect(plainLiteral('billing@origin\\.example')).toBe('billing@origin.example');
    expect(plainLiteral('PA-2026-0901')).toBe('pa-2026-0901');
    expect(plainLiteral('a\\+b\\(c\\)')).toBe('a+b(c)');
  });
  it('is null for anything re2 would read as more than a literal, or for non-ASCII text', () => {
    for (const s of ['a.b', 'a\\db', 'a|b', '(ab)', 'a?', 'müller', 'a\\', '\\bword', '']) {
      expect(plainLiteral(s)).toBeNull();
    }
  });
});

/** plainLiteral as a loop over code units, as it was written before its one native test. */
function plainLiteralByLoop(source: string): string | null {
  const meta = '^$.*+?()[]{}|';
  const escapable = '^$\\.*+?()[]{}|/-@#:,\'"!%&=<>`~ ;_';
  if (source.length === 0) return null;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c.charCodeAt(0) > 0x7f || meta.includes(c)) return null;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || !escapable.includes(next)) return null;
      out += next;
      i++;
    } else out += c;
  }
  return out.toLowerCase();
}

describe('plainLiteral against a loop over code units', () => {
  it('agrees on every one- and two-character source over ASCII and a few other code units', () => {
    const units = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), 'é', '\u212A', '\uD83D'];
    let checked = 0;
    for (const a of units) {
      expect(plainLiteral(a)).toBe(plainLiteralByLoop(a));
      for (const b of units) {
        expect(plainLiteral(a + b)).toBe(plainLiteralByLoop(a + b));
        checked++;
      }
    }
    expect(checked).toBe(131 * 131);
  });
  it('agrees on random sources full of escapes and metacharacters', () => {
    const rnd = seededRandom(7);
    const rand = (n: number): number => Math.floor(rnd() * n);
    const alphabet = 'aZ9@.-_ \\\\\\^$*+?()[]{}|/#:,\'"!%&=<>`~;é\u212A';
    let literals = 0;
    for (let round = 0; round < 20_000; round++) {
      const source = Array.from({ length: rand(12) }, () => alphabet[rand(alphabet.length)]).join('');
      const expected = plainLiteralByLoop(source);
      expect(plainLiteral(source)).toBe(expected);
      if (expected !== null) literals++;
    }
    expect(literals).toBeGreaterThan(500); // both answers are well represented
  });
});

/** The ASCII characters a context table allows, as a string. */
const allowed = (table: Uint8Array | null): string | null =>
  table === null
    ? null
    : [...table.keys()]
        .filter((c) => table[c] === 1)
        .map((c) => String.fromCharCode(c))
        .join('');

describe('analyseSource: what stands next to the atom (§13.3)', () => {
  it('names the characters just before and after the atom occurrence, both cases', () => {
    const email = analyseSource('[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example');
    expect(allowed(email.before)).toBe('.@');
    expect(email.after).toBeNull(); // a match ends with the atom: anything may follow
    expect(allowed(analyseSource('XYZ-20\\d{2}-\\d{4}').after)).toBe('0123456789');
    expect(allowed(analyseSource('norgate\\s+motors').after)).toBe('\t\n\v\f\r ');
    expect(allowed(analyseSource('[xy]+[ab]cdefg').before)).toBe('XYxy');
    expect(allowed(analyseSource('Rinefal Łódź').after)).toBe(''); // Ł meets no ASCII letter under folding
    expect(allowed(analyseSource('abcd\u212Ax').after)).toBe('Kk'); // KELVIN SIGN folds with k
  });

  it('leaves a side free whenever the match may start or end there, or the atom may move', () => {
    for (const source of [
      'abcd\\s*', // the run may be empty: the match may end with the atom
      '(?:abcd)+', // the atom is the whole repeat
      'abcdx?', // abcdx contains abcd: the kept atom may sit anywhere in it
      '\\babcd\\b', // assertions consume nothing
      '(?:abcd|efgh)ij|klmn', // one branch ends with its atom
    ])
      expect(analyseSource(source).after, source).toBeNull();
    expect(analyseSource('x?abcdefg\\d').before).toBeNull();
    expect(analyseSource('(?:a|bc)defgh').before).toBeNull(); // the run is the whole match so far
  });

  it('names a run and the literal after it when the literal cannot extend the run', () => {
    expect(analyseSource('norgate\\s+motors').gap).toMatchObject({
      min: 1,
      max: Infinity,
      literal: 'motors',
    });
    expect(analyseSource('acme[\\s_-]{1,3}Motors').gap).toMatchObject({ min: 1, max: 3, literal: 'motors' });
    expect(analyseSource('acme\\s*motors').gap).toMatchObject({ min: 0, literal: 'motors' });
    expect(analyseSource('acme\\w+motors').gap).toBeNull(); // "motors" could be part of the run
    expect(analyseSource('acme\\s+').gap).toBeNull(); // nothing after the run
    expect(analyseSource('acme\\s+\\d').gap).toBeNull(); // not a literal
  });
});

describe('analyseSource', () => {
  it('names the literals every match must contain, folded, only from a single sequence (§13.3)', () => {
    expect(analyseSource('Acme\\s+MOTORS[_-]?\\d{4}\\.pdf').required).toEqual(['acme', 'motors', '.pdf']);
    expect(analyseSource('abc\\s+defg').required).toEqual(['defg']); // "abc" is too short an atom
    expect(analyseSource('1234\\s+123456').required).toEqual(['123456']); // digits need six
    expect(analyseSource('acme|motors').required).toEqual([]); // either alone may match
    expect(analyseSource('(?:acme)?motors').required).toEqual(['motors']);
    expect(analyseSource('müllerstr\\s+x').required).toEqual(['llerstr']);
  });
  it('bounds how far a match runs before its first atom (two units a character)', () => {
    expect(analyseSource('norgate\\s+motors')).toMatchObject({
      atoms: ['norgate'],
      maxPrefix: 0,
      maxSuffix: null,
      prefixStops: false,
      suffixStops: true,
      required: ['norgate', 'motors'],
    });
    expect(analyseSource('(?:x|y)?abcd\\s+')).toMatchObject({ atoms: ['abcd'], maxPrefix: 2 });
    expect(analyseSource('XYZ-20\\d{2}-\\d{4}')).toMatchObject({ maxPrefix: 0 });
    expect(analyseSource('[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example')).toMatchObject({
      maxPrefix: null,
    });
    expect(analyseSource('(?P<x>abcd)')).toMatchObject({ atoms: null, maxPrefix: null });
  });

  it('bounds how far a match runs after its atom, and says which sides can hold whitespace', () => {
    expect(analyseSource('XYZ-20\\d{2}-\\d{4}')).toMatchObject({ maxSuffix: 14, suffixStops: false });
    expect(analyseSource('a(?:bcde){2,3}f')).toMatchObject({ atoms: ['bcde'], maxPrefix: 2, maxSuffix: 18 });
    // No length bound before the atom, but no whitespace either: a match starts after the last one.
    expect(analyseSource('[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example')).toMatchObject({
      maxPrefix: null,
      prefixStops: false,
      maxSuffix: 0,
      suffixStops: false,
    });
    expect(analyseSource('\\w+ abcd\\S+')).toMatchObject({ prefixStops: false, suffixStops: false });
    expect(analyseSource('[^ ]+@dom\\.ex')).toMatchObject({ prefixStops: true }); // [^ ] holds a tab
    expect(analyseSource('.+@dom\\.ex')).toMatchObject({ prefixStops: true });
    expect(analyseSource('\\p{L}+@dom\\.ex')).toMatchObject({ prefixStops: false });
    expect(analyseSource('[\\s\\w]+@dom\\.ex')).toMatchObject({ prefixStops: true });
    expect(analyseSource('abcd\\s')).toMatchObject({ maxSuffix: 2, suffixStops: true });
    // Atoms that contain a shorter atom are dropped: the bounds widen by what they held.
    expect(analyseSource('word[_-]?statement[_-]?\\d{4,8}\\.pdf')).toMatchObject({
      maxPrefix: 2,
      maxSuffix: 26,
    });
  });

  it('is sound on the bounds: no match runs further from its atom than they allow', () => {
    const cases: [string, string][] = [
      ['[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example', 'mail me: jo.doe@mail.DOM.example, x@dom.example'],
      ['\\w+ abcd\\S+', 'foo_bar ABCD-zz and x abcdq'],
      ['word[_-]?statement[_-]?\\d{4,8}\\.pdf', 'WORD_STATEMENT_2024.PDF word-statement-12345678.pdf'],
      ['a(?:bcde){2,3}f', 'abcdebcdef abcdebcdebcdef'],
    ];
    let checked = 0;
    for (const [p, t] of cases) {
      const a = analyseSource(p);
      const re = new RE2(p, 'giu');
      for (const m of t.matchAll(re)) {
        const folded = fold(m[0]);
        const ok = (a.atoms ?? []).some((atom) => {
          for (let at = folded.indexOf(atom); at !== -1; at = folded.indexOf(atom, at + 1)) {
            const before = m[0].slice(0, at);
            const after = m[0].slice(at + atom.length);
            if (a.maxPrefix !== null && before.length * 2 > a.maxPrefix) continue;
            if (a.maxSuffix !== null && after.length * 2 > a.maxSuffix) continue;
            if (!a.prefixStops && /[\t\n\v\f\r ]/.test(before)) continue;
            if (!a.suffixStops && /[\t\n\v\f\r ]/.test(after)) continue;
            return true;
          }
          return false;
        });
        expect(ok, `${p} on ${m[0]}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(6);
  });
});
