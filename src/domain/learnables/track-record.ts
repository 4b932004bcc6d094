/**
 * The track record of a mark, weighed rather than read as a verdict (docs/learning.md,
 * "The track record"): every mark (a sender's address or domain, a kind's cue) counts the messages
 * that carried it and were finally read or answered as its entry (for it) or as another (against
 * it). The person's lesson is prior evidence worth `lessonWeight` agreeing messages. A mark decides
 * alone while the lower end of the 95 % Wilson interval on its precision stays at or above the
 * learnable's threshold. So one answer against it among forty for it leaves it deciding, three
 * against among five silence it, and answers for it after a silence bring it back.
 *
 * The one place the rule and its numbers live; each learnable states it in its `how` with
 * `trackRecordHow`. Owns: the arithmetic and its words. Does not own: the counts (the corpus
 * store's trigger keeps them) or which messages a mark's record holds (each learnable's keys).
 */
import type { Carried } from './learnable.ts';

/** What one mark's record says: messages for it, and against it, since it was taught. */
export interface Tally {
  readonly agreeing: number;
  readonly against: number;
}

/**
 * A mark's tally from what its record carried per entry: messages read or answered as `entry` for
 * it; against it, those read or answered as any other entry whose last message came after the
 * mark was taught (mail before the lesson was weighed by the lesson check, §13.1). With the other
 * entries, for the sentence that names them.
 */
export function tallyFor(
  carried: ReadonlyMap<string, Carried> | undefined,
  entry: string,
  taughtAt: string,
): Tally & { readonly others: [string, Carried][] } {
  const others = [...(carried ?? new Map<string, Carried>())].filter(
    ([other, c]) => other !== entry && c.lastAt > taughtAt,
  );
  return {
    agreeing: carried?.get(entry)?.messages ?? 0,
    against: others.reduce((n, [, c]) => n + c.messages, 0),
    others,
  };
}

export const TRACK_RECORD = {
  /** The lesson counts as this many messages for its mark. */
  lessonWeight: 3,
  /** z of a two-sided 95 % interval. */
  z: 1.96,
} as const;

/**
 * The lower end of the 95 % Wilson score interval on the mark's precision, its lesson counted as
 * `lessonWeight` messages for it.
 */
export function precisionLowerBound(t: Tally): number {
  const { z } = TRACK_RECORD;
  const good = t.agreeing + TRACK_RECORD.lessonWeight;
  const n = good + t.against;
  const p = good / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre - margin) / (1 + z2 / n);
}

/** Whether a mark with this record decides alone under `minPrecision` (a learnable's threshold). */
export function decidesAlone(t: Tally, minPrecision: number): boolean {
  return t.against === 0 || precisionLowerBound(t) >= minPrecision;
}

/** The rule in words for a learnable's `how` (§6.2): `what` is the mark ("A cue"), `entry` its entry ("its kind"). */
export function trackRecordHow(what: string, entry: string, minPrecision: number): string {
  return (
    `${what} decides alone only while its track record shows it right with confidence: the lesson counts as ` +
    `${TRACK_RECORD.lessonWeight} messages for it, each message since that carried it and was read or answered as ${entry} counts for it, ` +
    `and each read or answered as another counts against it; while the lower end of the 95 % Wilson interval on how often it is right ` +
    `stays at ${Math.round(minPrecision * 100)} % or more it decides, otherwise such a reading asks, naming both. ` +
    `One answer against it among forty for it leaves it deciding, three against among five do not, and answers for it (confirming it again included) bring it back.`
  );
}
