/**
 * A kind's cue decides as far as its track record allows (docs/learning.md, "The
 * track record"). The record's keys are made here, once: `cue:`, the part, and the words lower-cased
 * (`cue:subject:pod`), for the words a kind question about the message would offer and for every
 * cue that matched in the sender's own words for this message (not in an inherited subject, not in
 * quoted or forwarded text: those count neither for nor against it). A message that carries two
 * kinds' cues counts for one and against the other: measured, leaving it out (as if the other cue
 * explained the answer) took from the arbiter below the very records it weighs, and week-6 kind
 * questions on the training stream rose from 3.6 to 5.7 per hundred (docs/learning.md). The corpus
 * then counts what the mail carrying each was finally read or answered as.
 *
 * - A reading that rests on cues is read again with that record (one indexed read, shared with the
 *   sender's); it stands while one of the winner's cues still decides alone (track-record.ts), and
 *   asks otherwise, naming both kinds and the one-step way to take the lesson back.
 * - Two kinds' cues in one message: the kind whose cue's record is clearly stronger decides
 *   (`cueArbiter`); otherwise the reading asks, naming both.
 *
 * Owns: the keys, the objection, the arbiter and their sentences, as the kinds `how` states them.
 * Does not own: the rule's arithmetic (track-record.ts), keeping the record (the corpus store's
 * trigger) or fetching it (triage).
 */
import type { Carried, Learnable, MarkHit, ReadInput } from '../learnable.ts';
import type { MailMessage, MailPart } from '../../mail/index.ts';
import { displayText } from '../literal-pattern.ts';
import { listAnd, type Candidate, type CollectionReading, type MarkEvidence } from '../read-marked.ts';
import { subjectPhraseEvidence } from './evidence.ts';
import { subjectSpeaksForMessage } from './inherited-subject.ts';
import { newTextPhraseEvidence } from './new-text-evidence.ts';
import { labelOf } from '../suggest.ts';
import { decidesAlone, precisionLowerBound, tallyFor, trackRecordHow, type Tally } from '../track-record.ts';

/**
 * The lower bound a cue's precision must keep to decide alone (track-record.ts). Calibrated on the
 * training stream and the bench world (docs/learning.md): a wrong kind costs a re-read, not a misfile.
 */
export const CUE_MIN_PRECISION = 0.75;
/** How far below the leader's lower bound every other kind's must be for the leader to decide. */
export const CUE_CLEAR_LEAD = 0.25;

/** Sentences in the kinds `how` for these rules, true to them (§6.2). */
export const CUE_RECORD_HOW =
  `${trackRecordHow('A cue', 'its kind', CUE_MIN_PRECISION)} ` +
  `When two kinds' cues match one message and neither leads by the margin, the kind whose best cue's lower bound is at least ${Math.round(CUE_MIN_PRECISION * 100)} % ` +
  `and ${Math.round(CUE_CLEAR_LEAD * 100)} points above every other kind's decides; otherwise the reading asks, naming both. ` +
  `A cue in an inherited subject, or in quoted or forwarded text, counts neither for nor against it.`;

const CUE_KEY = 'cue:';

function keyOf(part: MailPart, text: string): string {
  return `${CUE_KEY}${part}:${displayText(text).toLowerCase()}`;
}

/**
 * The message's cue keys: the words a kind question about it would offer, and the words of each
 * of `hits` (the kinds' matched cues) that the sender wrote for this message.
 */
export function cueKeys(message: MailMessage, hits: readonly MarkHit[] = []): string[] {
  const { speaks, phrases } = phraseKeys(message);
  const keys = new Set(phrases);
  for (const h of hits) {
    if (h.part === 'quoted' || (h.part === 'subject' && !speaks)) continue;
    keys.add(keyOf(h.part, h.text));
  }
  return [...keys];
}

/**
 * The keys of the words a question would offer, and whether the subject speaks for the message:
 * worked out once per message (triage asks for them, then each read of the message does).
 */
function phraseKeys(message: MailMessage): { speaks: boolean; phrases: readonly string[] } {
  const known = PHRASE_KEYS.get(message);
  if (known !== undefined) return known;
  const speaks = subjectSpeaksForMessage(message);
  const evidence = speaks ? subjectPhraseEvidence(message) : newTextPhraseEvidence(message);
  const made = { speaks, phrases: evidence.map((e) => keyOf(e.part, e.text)) };
  PHRASE_KEYS.set(message, made);
  return made;
}

const PHRASE_KEYS = new WeakMap<MailMessage, { speaks: boolean; phrases: readonly string[] }>();

/** Whether a settled reading rests on cues the message's record keys cover (triage then reads the record). */
export function restsOnCues(report: CollectionReading, input: ReadInput): boolean {
  const winner = report.candidates.find((c) => c.name === report.winner);
  if (winner === undefined) return false;
  const keys = new Set(cueKeys(input.message, input.hits));
  return winner.evidence.some((e) => keys.has(keyOf(e.part, e.text)));
}

/** A cue's record for `entry`: messages read or answered as it, and as any other since it was taught. */
function tallyOf(
  e: MarkEvidence,
  entry: string,
  input: ReadInput,
  learnable: Learnable,
): Tally & { others: [string, Carried][] } {
  return tallyFor(
    input.record?.byKey.get(keyOf(e.part, e.text))?.get(learnable.collection),
    entry,
    e.taughtAt,
  );
}

/** The record's objection to a winner none of whose cues its record still lets decide alone, or null. */
export function cueObjection(
  report: CollectionReading,
  input: ReadInput,
  learnable: Learnable,
): string | null {
  const winner = report.candidates.find((c) => c.name === report.winner);
  if (winner === undefined || input.record === undefined || winner.evidence.length === 0) return null;
  let first: { e: MarkEvidence; others: [string, Carried][] } | null = null;
  for (const e of winner.evidence) {
    const tally = tallyOf(e, winner.name, input, learnable);
    if (decidesAlone(tally, CUE_MIN_PRECISION)) return null; // this cue still stands
    first ??= { e, others: tally.others };
  }
  return first === null ? null : sentence(winner, first.e, first.others, input, learnable);
}

/** A candidate's strongest cue: the lower bound of its precision, with its record. */
function strongest(
  c: Candidate,
  input: ReadInput,
  learnable: Learnable,
): { bound: number; e: MarkEvidence; tally: Tally } | null {
  let best: { bound: number; e: MarkEvidence; tally: Tally } | null = null;
  for (const e of c.evidence) {
    const tally = tallyOf(e, c.name, input, learnable);
    const bound = precisionLowerBound(tally);
    if (best === null || bound > best.bound) best = { bound, e, tally };
  }
  return best;
}

/**
 * Two kinds' cues in one message: the kind whose strongest cue's record is clearly the
 * stronger decides, as a settled report saying why; null when none is (the reading asks).
 */
export function cueArbiter(
  report: CollectionReading,
  input: ReadInput,
  learnable: Learnable,
  name: (label: string) => string,
): CollectionReading | null {
  if (input.record === undefined) return null;
  const ranked = report.candidates
    .filter((c) => c.evidence.length > 0)
    .map((c) => ({ c, s: strongest(c, input, learnable) }))
    .filter((x): x is { c: Candidate; s: NonNullable<typeof x.s> } => x.s !== null)
    .sort((a, b) => b.s.bound - a.s.bound);
  const [lead, ...rest] = ranked;
  if (lead === undefined || rest.length === 0 || lead.s.bound < CUE_MIN_PRECISION) return null;
  if (rest.some((r) => r.s.bound > lead.s.bound - CUE_CLEAR_LEAD)) return null;
  const record = (t: Tally) =>
    `${t.agreeing} message${t.agreeing === 1 ? '' : 's'} for it and ${t.against} against`;
  const others = rest.map((r) => `${name(r.c.label)} on '${displayText(r.s.e.text)}' (${record(r.s.tally)})`);
  return {
    ...report,
    settled: true,
    winner: lead.c.name,
    reads:
      `Reads as ${name(lead.c.label)}, on '${displayText(lead.s.e.text)}' in the ${lead.s.e.part} (${record(lead.s.tally)}); ` +
      `${listAnd(others)} matched too, with a clearly weaker record.`,
  };
}

function sentence(
  winner: Candidate,
  e: MarkEvidence,
  others: readonly (readonly [string, Carried])[],
  input: ReadInput,
  learnable: Learnable,
): string {
  const as = others.map(([entry, c]) => {
    const label = labelOf({ entries: input.entries, learnable }, entry);
    return `${label} (${c.messages} message${c.messages === 1 ? '' : 's'}, the last first seen on ${c.lastAt.slice(0, 10)})`;
  });
  return (
    `${winner.label} matches on '${displayText(e.text)}', but mail carrying those words since they were taught was read or answered as ${listAnd(as)}: ` +
    `its record no longer shows it right often enough to settle a kind alone. To take back that lesson, revert activation ${e.activation} (taught by ${e.taughtBy}).`
  );
}
