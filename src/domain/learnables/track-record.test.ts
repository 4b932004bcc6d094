// Invariant (issue 49, §13.1): a mark's track record is weighed, not read as a verdict: one answer against it among forty for it leaves it deciding, three against among five do not, one against right after teaching does not, a sender that writes for two in comparable numbers does not, a clerk who once forwarded a neighbour's mail does once her own has built up, and answers for it after a silence bring it back.
import { describe, expect, it } from 'vitest';
import { decidesAlone, precisionLowerBound, trackRecordHow, TRACK_RECORD } from './track-record.ts';
import { CUE_MIN_PRECISION } from './kinds/cue-record.ts';

const decides = (agreeing: number, against: number) => decidesAlone({ agreeing, against }, CUE_MIN_PRECISION);

describe('the track record, weighed (issue 49)', () => {
  it('decides with no answer against it, whatever else', () => {
    expect(decides(0, 0)).toBe(true);
    expect(decides(5, 0)).toBe(true);
  });

  it('keeps deciding with 1 answer against among 40 for', () => {
    expect(decides(40, 1)).toBe(true);
  });

  it('asks with 3 against among 5, and with 1 against right after teaching', () => {
    expect(decides(2, 3)).toBe(false);
    expect(decides(0, 1)).toBe(false);
  });

  it('asks for a sender writing for two in comparable numbers, however many', () => {
    for (const n of [3, 10, 40, 200]) expect(decides(n, n)).toBe(false);
    expect(decides(40, 20)).toBe(false);
  });

  it("decides for a clerk who once forwarded a neighbour's mail, once her own has built up", () => {
    expect(decides(3, 1)).toBe(false);
    expect(decides(30, 1)).toBe(true);
  });

  it('decides again once answers for it restore its record after a silence', () => {
    const silenced = { agreeing: 1, against: 1 };
    expect(decidesAlone(silenced, CUE_MIN_PRECISION)).toBe(false);
    const restored = [...Array(20).keys()].map((k) => silenced.agreeing + k + 1).find((n) => decides(n, 1));
    expect(restored).toBeDefined();
  });

  it('is the Wilson lower bound with the lesson counted as messages for the mark', () => {
    // 3 of 3 (a lesson alone) and 8 of 10, from published tables of the 95 % Wilson interval.
    expect(TRACK_RECORD.lessonWeight).toBe(3);
    expect(precisionLowerBound({ agreeing: 0, against: 0 })).toBeCloseTo(0.4385, 3);
    expect(precisionLowerBound({ agreeing: 5, against: 2 })).toBeCloseTo(0.4902, 3);
    expect(precisionLowerBound({ agreeing: 97, against: 3 })).toBeGreaterThan(
      precisionLowerBound({ agreeing: 7, against: 3 }),
    );
  });

  it('says the rule in words, with its numbers', () => {
    const how = trackRecordHow('A cue', 'its kind', 0.75);
    expect(how).toContain(`the lesson counts as ${TRACK_RECORD.lessonWeight} messages for it`);
    expect(how).toContain('95 % Wilson interval');
    expect(how).toContain('75 %');
  });
});
