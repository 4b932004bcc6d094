/**
 * The authority's rule for a lesson that would re-file mail already read (§13.1): refused
 * in its learnable's words (§10.1) unless the value chooses to re-file; otherwise the counts the
 * LessonResult carries. Used where the lesson is absorbed (absorb.ts) and, in the split topology,
 * where the agent that holds the corpus checks it before forwarding (triage/lesson-check.ts).
 *
 * Owns: the refusal's shape and details. Does not own: finding the messages or their words.
 */
import { DomainError } from '../errors.ts';
import type { AlreadyRead, EntryContent, Learnable, LessonValue } from '../learnables/index.ts';
import type { LessonResult } from './lesson.ts';

/** The counts for the LessonResult, or the refusal thrown (LESSON_REFUSED). */
export function refileVerdict(
  learnable: Learnable,
  entry: string,
  current: EntryContent | undefined,
  value: LessonValue,
  read: AlreadyRead,
): NonNullable<LessonResult['alreadyRead']> {
  if (read.refiled > 0 && learnable.refiling?.allows(value) !== true) {
    throw refusedForMailRead(learnable, entry, current, read);
  }
  return summary(read);
}

/** §13.1: the counts a LessonResult carries. */
function summary(read: AlreadyRead): NonNullable<LessonResult['alreadyRead']> {
  return { matches: read.matches, total: read.total, refiled: read.refiled };
}

/** The refusal of a lesson that would re-file mail already read, in its learnable's words (§10.1). */
function refusedForMailRead(
  learnable: Learnable,
  entry: string,
  current: EntryContent | undefined,
  read: AlreadyRead,
): DomainError {
  const label =
    current !== undefined && learnable.label !== undefined ? learnable.label(entry, current) : entry;
  const reason =
    learnable.refiling?.refusal(label, read) ??
    `This lesson would change how ${read.refiled} message${read.refiled === 1 ? '' : 's'} already read ${read.refiled === 1 ? 'is' : 'are'} filed; nothing was learned.`;
  return new DomainError('LESSON_REFUSED', reason, {
    details: {
      collection: learnable.collection,
      entry,
      // The lesson field the person chooses to re-file in (the learnable's own name, as data).
      ...(learnable.refiling === undefined ? {} : { field: learnable.refiling.field }),
      alreadyRead: {
        ...summary(read),
        examples: read.examples.slice(0, 3).map((m) => ({
          key: m.key,
          subject: m.subject,
          date: m.date,
          was: m.was,
          becomes: m.becomes,
        })),
      },
    },
  });
}
