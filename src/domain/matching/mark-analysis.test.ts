// Invariant: a compile from kept analyses is the compile from sources (§13.3): the stored form
// round-trips, a row that does not decode is analysed again, and rows of another analysis are
// never read (the fingerprint below forces ANALYSER_VERSION to change with the analysis).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededRandom, syntheticMarks, syntheticMessage } from '../../../bench/matching-corpus.ts';
import { analyseSource } from './atoms.ts';
import { plainLiteral } from './plain-literal.ts';
import { compileMatcher, type StoredAnalyses } from './compile-matcher.ts';
import { ANALYSER_VERSION, decodeAnalysis, encodeAnalysis, regexAnalysis } from './mark-analysis.ts';
import type { MarkHit } from './matcher.ts';
import { createNaiveMatcher } from './naive-matcher.ts';
import { EVERYDAY_PATTERNS } from '../../../test/support/patterns.ts';

/** Hand-written shapes (every context and gap kind) plus the benchmark directory's regex marks. */
const HAND_WRITTEN = [
  ...EVERYDAY_PATTERNS,
  'acme(?=ltd)corp',
  'gulf\\s*trade\\s+\\(uae\\)',
  'ref[:#]?\\s{0,3}NM\\d{6}',
  '[A-Z]{2}-\\d{4}',
  '(a|b)+',
];

function referenceSources(): string[] {
  const synthetic = syntheticMarks(20_000, 1)
    .map((m) => m.source)
    .filter((s) => plainLiteral(s) === null);
  return [...new Set([...HAND_WRITTEN, ...synthetic])];
}

const show = (hits: readonly MarkHit[]): string[] =>
  hits.map((h) => `${h.mark.source} | ${h.part} | ${h.text}`);

describe('kept mark analyses (mark-analysis.ts, §13.3)', () => {
  const sources = referenceSources();

  it('decodes what it encodes, for every reference source', () => {
    expect(sources.length).toBeGreaterThan(5_000);
    for (const s of sources) {
      const a = regexAnalysis(analyseSource(s));
      expect(decodeAnalysis(encodeAnalysis(a)), s).toEqual(a);
    }
  });

  it('changes ANALYSER_VERSION whenever the analysis changes (kept rows of the old one are never read)', () => {
    const hash = createHash('sha256');
    for (const s of sources) hash.update(`${s}\u0000${encodeAnalysis(regexAnalysis(analyseSource(s)))}\n`);
    const fingerprint = hash.digest('hex').slice(0, 12);
    expect(
      ANALYSER_VERSION.endsWith(fingerprint),
      `The analysis of the reference sources changed (fingerprint ${fingerprint}): rows kept by the old analyser would be read as if current. Set ANALYSER_VERSION in mark-analysis.ts to a new "aN-${fingerprint}".`,
    ).toBe(true);
  });

  it('refuses text that is not an analysis, rather than trusting it', () => {
    const good = JSON.parse(encodeAnalysis(regexAnalysis(analyseSource('norgate\\s+motors')))) as unknown[];
    const variant = (i: number, v: unknown): string => JSON.stringify(good.map((x, j) => (j === i ? v : x)));
    expect(decodeAnalysis(JSON.stringify(good))).not.toBeNull();
    for (const bad of [
      '',
      'not json',
      '{}',
      JSON.stringify(good.slice(0, 7)),
      variant(0, ['Norgate']), // not folded: the automaton would refuse it
      variant(0, ['nörgate']),
      variant(0, []),
      variant(0, ['']),
      variant(1, -2),
      variant(2, 1.5),
      variant(3, 4),
      variant(4, 'motors'),
      variant(5, 'zz'),
      variant(6, '0'.repeat(31)),
      variant(7, ['ff'.repeat(16), 1, 2]),
      variant(7, ['ff'.repeat(16), -1, 2, 'motors']),
      variant(7, ['ff'.repeat(16), 1, 2, 'Motors']),
    ])
      expect(decodeAnalysis(bad), bad).toBeNull();
  });

  it("compiles from kept analyses to the naive oracle's answers, analysing nothing they hold", () => {
    const marks = syntheticMarks(3_000, 5);
    const known = new Map<string, string>();
    for (const m of marks)
      if (plainLiteral(m.source) === null)
        known.set(m.source, encodeAnalysis(regexAnalysis(analyseSource(m.source))));
    // The compile's runtime is its own, as after a restart: nothing analysed above is remembered.
    const analysed: string[] = [];
    const stored: StoredAnalyses = { known, onAnalysed: (s) => analysed.push(s) };
    const compiled = compileMatcher(marks, { stored });
    expect(analysed).toEqual([]);
    const naive = createNaiveMatcher(marks);
    const rnd = seededRandom(99);
    for (let i = 0; i < 60; i++) {
      const m = syntheticMessage(rnd, marks, 1500, i);
      expect(show(compiled.match(m))).toEqual(show(naive.match(m)));
    }
  });

  it('analyses again, and hands back to be kept, a source whose row is missing or damaged', () => {
    const marks = syntheticMarks(2_000, 6);
    const regex = [...new Set(marks.map((m) => m.source).filter((s) => plainLiteral(s) === null))];
    const known = new Map<string, string>();
    for (const s of regex) known.set(s, encodeAnalysis(regexAnalysis(analyseSource(s))));
    const [missing, damaged, wrongShape] = regex;
    known.delete(missing!);
    known.set(damaged!, '[');
    known.set(wrongShape!, '[null,0,0,0,[],null,null]');
    // The compile's runtime is its own: nothing analysed above is remembered.
    const made = new Map<string, string>();
    const compiled = compileMatcher(marks, { stored: { known, onAnalysed: (s, t) => made.set(s, t) } });
    expect([...made.keys()].sort()).toEqual([missing!, damaged!, wrongShape!].sort());
    for (const [s, t] of made) expect(decodeAnalysis(t)).toEqual(regexAnalysis(analyseSource(s)));
    const naive = createNaiveMatcher(marks);
    const rnd = seededRandom(98);
    for (let i = 0; i < 40; i++) {
      const m = syntheticMessage(rnd, marks, 1500, i);
      expect(show(compiled.match(m))).toEqual(show(naive.match(m)));
    }
  });
});
