/**
 * A kind's cue decides only as far as its track record allows (issue 39,
 * ../../../../../shared/notes/track-record.md): the words a kind question offers as a cue are kept as
 * the message's record keys (`cue:` and the words, lower-cased), so the corpus counts what the mail
 * carrying them was finally read or answered as. A reading that rests on cues alone is read again
 * with that record (one indexed read, shared with the sender's), and once mail carrying every one of
 * the winner's cues was read or answered as another kind after the cue was taught, a person has
 * contradicted it: the reading asks, naming both kinds and the one-step way to take the lesson back.
 *
 * Owns: the keys, the objection and its sentence, as the kinds `how` states it. Does not own:
 * keeping the record (the corpus store's trigger) or fetching it (triage).
 */
import type { Carried, Learnable, ReadInput } from '../learnable.ts';
import type { MailMessage } from '../../mail/index.ts';
import { displayText } from '../literal-pattern.ts';
import { listAnd, type Candidate, type CollectionReading, type MarkEvidence } from '../read-marked.ts';
import { subjectPhraseEvidence } from './evidence.ts';
import { subjectSpeaksForMessage } from './inherited-subject.ts';
import { newTextPhraseEvidence } from './new-text-evidence.ts';
import { labelOf } from '../suggest.ts';
import { decidesAlone, trackRecordHow } from '../track-record.ts';

/**
 * The lower bound a cue's precision must keep to decide alone (track-record.ts). Calibrated on the
 * training stream and the bench world (docs/learning.md): a wrong kind costs a re-read, not a misfile.
 */
export const CUE_MIN_PRECISION = 0.75;

/** Sentence in the kinds `how` for this rule, true to it (§6.2). */
export const CUE_RECORD_HOW = trackRecordHow('A cue', 'its kind', CUE_MIN_PRECISION);

const CUE_KEY = 'cue:';

/** The message's cue keys: the words a kind question about it would offer, as `cue:pod`. */
export function cueKeys(message: MailMessage): string[] {
  const evidence = subjectSpeaksForMessage(message)
    ? subjectPhraseEvidence(message)
    : newTextPhraseEvidence(message);
  return [...new Set(evidence.map((e) => keyOf(e.text)))];
}

function keyOf(text: string): string {
  return `${CUE_KEY}${displayText(text).toLowerCase()}`;
}

/** Whether a settled reading rests on cues the message's record keys cover (triage then reads the record). */
export function restsOnCues(report: CollectionReading, input: ReadInput): boolean {
  const winner = report.candidates.find((c) => c.name === report.winner);
  if (winner === undefined) return false;
  const keys = new Set(cueKeys(input.message));
  return winner.evidence.some((e) => keys.has(keyOf(e.text)));
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
    const carried = input.record.byKey.get(keyOf(e.text))?.get(learnable.collection);
    const others = [...(carried ?? new Map<string, Carried>())].filter(
      ([entry, c]) => entry !== winner.name && c.lastAt > e.taughtAt,
    );
    const tally = {
      agreeing: carried?.get(winner.name)?.messages ?? 0,
      against: others.reduce((n, [, c]) => n + c.messages, 0),
    };
    if (decidesAlone(tally, CUE_MIN_PRECISION)) return null; // this cue still stands
    first ??= { e, others };
  }
  return first === null ? null : sentence(winner, first.e, first.others, input, learnable);
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
