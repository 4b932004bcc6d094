// Invariant: the automaton reports exactly the occurrences a naive folded substring search finds (§13.3).
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/matching-corpus.ts';
import { buildAhoCorasick } from './aho-corasick.ts';
import { foldCodeUnit } from './fold.ts';

function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(foldCodeUnit(text.charCodeAt(i)));
  return out;
}

function naive(keys: readonly string[], text: string): string[] {
  const folded = fold(text);
  const hits: string[] = [];
  for (let end = 0; end < folded.length; end++) {
    keys.forEach((k, i) => {
      if (end + 1 >= k.length && folded.slice(end + 1 - k.length, end + 1) === k) hits.push(`${i}@${end}`);
    });
  }
  return hits;
}

function scan(keys: readonly string[], text: string, maxRowCells?: number): string[] {
  const ac = buildAhoCorasick(keys, maxRowCells === undefined ? {} : { maxRowCells });
  const hits: string[] = [];
  ac.scan(text, (k, end) => hits.push(`${k}@${end}`));
  return hits;
}

/** `len` characters of `alphabet`, each chosen by `rand(alphabet.length)`. */
function randomWord(rand: (n: number) => number, alphabet: string, len: number): string {
  return Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join('');
}

const sortHits = (h: string[]): string[] => [...h].sort();

describe('buildAhoCorasick', () => {
  it('finds overlapping keys, keys inside keys and duplicates, in end order', () => {
    const keys = ['he', 'she', 'his', 'hers', 'she', 'e'];
    const hits = scan(keys, 'ushers and HIS SHE');
    expect(sortHits(hits)).toEqual(sortHits(naive(keys, 'ushers and HIS SHE')));
    const ends = hits.map((h) => Number(h.split('@')[1]));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
  });

  it('folds the text the way re2 (?i) folds ASCII keys: Kelvin sign and long s included', () => {
    expect(scan(['ask'], 'AS\u212A')).toEqual(['0@2']);
    expect(scan(['ask'], 'a\u017Fk')).toEqual(['0@2']);
    expect(scan(['ask'], 'aśk ask\u0130')).toEqual(['0@6']);
  });

  it('refuses keys that are not folded ASCII', () => {
    expect(() => buildAhoCorasick(['ABC'])).toThrow();
    expect(() => buildAhoCorasick(['müller'])).toThrow();
    expect(() => buildAhoCorasick([''])).toThrow();
  });

  it('matches a naive search on random keys and texts', () => {
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = (len: number): string => randomWord(rand, 'abcAB-.1é\u212A\u017Fk s', len);
    for (let round = 0; round < 200; round++) {
      const keys = Array.from({ length: 1 + rand(30) }, () =>
        fold(word(1 + rand(5))).replace(/[^ -~]/g, 'x'),
      );
      const text = word(rand(200));
      expect(sortHits(scan(keys, text))).toEqual(sortHits(naive(keys, text)));
      // Few full rows: most steps go through child lists and failure links.
      expect(sortHits(scan(keys, text, 30))).toEqual(sortHits(naive(keys, text)));
    }
  });

  it('hits() reports what scan() reports, in the same order, across calls', () => {
    const keys = ['he', 'she', 'his', 'hers', 'she', 'e'];
    const ac = buildAhoCorasick(keys, { maxRowCells: 20 });
    for (const text of ['ushers and HIS SHE', 'hehehe'.repeat(100), '']) {
      const viaScan: string[] = [];
      ac.scan(text, (k, end) => viaScan.push(`${k}@${end}`));
      const list = ac.hits(text);
      const viaHits = Array.from({ length: list.count }, (_, i) => `${list.keys[i]}@${list.ends[i]}`);
      expect(viaHits).toEqual(viaScan);
    }
  });

  it('one automaton scanning many texts agrees with a naive search, whatever share of its nodes has a full row', () => {
    // Every text below is scanned by the same automaton (its hit buffers are reused), with one full
    // row (every other node steps through its child list and failure links), rows for part of the
    // nodes, and rows for every node.
    const rnd = seededRandom(7);
    const rand = (n: number): number => Math.floor(rnd() * n);
    const word = (len: number): string => randomWord(rand, 'abcab-.1é\u212A\u017Fks ', len);
    for (let round = 0; round < 20; round++) {
      const keys = Array.from({ length: 5 + rand(60) }, () =>
        fold(word(1 + rand(7))).replace(/[^ -~]/g, 'x'),
      );
      const automata = [1, 40, 400, 1_000_000].map((cells) => buildAhoCorasick(keys, { maxRowCells: cells }));
      for (let t = 0; t < 40; t++) {
        const text = word(rand(300));
        const expected = naive(keys, text);
        for (const ac of automata) {
          const list = ac.hits(text);
          const hits = Array.from({ length: list.count }, (_, i) => `${list.keys[i]}@${list.ends[i]}`);
          expect(sortHits(hits)).toEqual(sortHits(expected));
          const ends = hits.map((h) => Number(h.split('@')[1]));
          expect(ends).toEqual([...ends].sort((a, b) => a - b));
        }
      }
    }
  });
});
