/**
 * The shape of a Lesson (§9) as the authority may check it: the envelope only. `value` must be a
 * JSON object, and nothing more is asked of it here: its keys belong to the learnable (§9, §10.1).
 */
import { DomainError } from '../errors.ts';
import { canonicalJson, isPlainObject } from '../json.ts';
import type { Learnable, LessonValue } from '../learnables/index.ts';
import type { Lesson } from './lesson.ts';

/** Longest entry name accepted, in characters. */
export const MAX_ENTRY_NAME_CHARS = 200;
/** Longest `taughtBy` accepted, in characters. */
export const MAX_TAUGHT_BY_CHARS = 320;
/** Longest `reason` accepted, in characters. */
export const MAX_REASON_CHARS = 2_000;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface CheckedLesson {
  readonly learnable: Learnable;
  readonly collection: string;
  readonly entry: string;
  /** A plain-JSON copy of the value (what is stored in the history). */
  readonly value: LessonValue;
  readonly taughtBy: string;
  readonly reason: string | null;
}

/** A `taughtBy` problem, or null when it is usable. */
export function taughtByProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') {
    return 'taughtBy is missing: give the person who taught this (e.g. "dana@warehouse.example")';
  }
  if (raw.length > MAX_TAUGHT_BY_CHARS || CONTROL.test(raw)) {
    return `taughtBy must be one line of at most ${MAX_TAUGHT_BY_CHARS} characters naming the person`;
  }
  return null;
}

/**
 * An entry-name problem, or null when it is usable. Names are data (issue 12.3): any text is a name
 * (`__proto__`, `constructor`, right-to-left scripts, emoji) except an empty one, one with leading
 * or trailing spaces, one longer than MAX_ENTRY_NAME_CHARS, or one holding a control character
 * (NUL, a line break): those could not be shown, typed or compared as what they are.
 */
export function entryNameProblem(entry: unknown): string | null {
  if (typeof entry !== 'string' || entry.trim() === '') {
    return 'entry is missing: name the entry to teach (e.g. "northgate")';
  }
  if (entry !== entry.trim() || entry.length > MAX_ENTRY_NAME_CHARS || CONTROL.test(entry)) {
    return `entry "${entry.slice(0, 60)}" must be one line of at most ${MAX_ENTRY_NAME_CHARS} characters, without control characters or leading or trailing spaces`;
  }
  return null;
}

export function reasonProblem(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') return 'reason must be text, in the person\u2019s words';
  if (raw.length > MAX_REASON_CHARS) return `reason is longer than ${MAX_REASON_CHARS} characters`;
  return null;
}

/**
 * Check a lesson's envelope and find its learnable. Throws LESSON_MALFORMED naming every bad
 * field, or COLLECTION_UNKNOWN listing the declared collections.
 */
export function checkLesson(raw: unknown, learnables: readonly Learnable[]): CheckedLesson {
  if (!isPlainObject(raw)) {
    throw new DomainError(
      'LESSON_MALFORMED',
      'The lesson must be an object with collection, entry, value, taughtBy and (optionally) reason.',
      { details: { fields: ['collection', 'entry', 'value', 'taughtBy'] } },
    );
  }
  const bad: { field: string; problem: string }[] = [];
  const { collection, entry, value, taughtBy, reason } = raw as Partial<Record<keyof Lesson, unknown>>;
  if (typeof collection !== 'string' || collection.trim() === '') {
    bad.push({ field: 'collection', problem: 'collection is missing: name one of the declared collections' });
  }
  const ep = entryNameProblem(entry);
  if (ep !== null) bad.push({ field: 'entry', problem: ep });
  let plainValue: LessonValue | undefined;
  if (!isPlainObject(value)) {
    bad.push({
      field: 'value',
      problem: `value must be an object (the lesson fields the collection declares), not ${value === undefined ? 'missing' : Array.isArray(value) ? 'a list' : typeof value}`,
    });
  } else {
    try {
      plainValue = JSON.parse(canonicalJson(value)) as LessonValue;
    } catch {
      bad.push({
        field: 'value',
        problem: 'value must hold plain JSON (text, numbers, true/false, lists, objects)',
      });
    }
  }
  const tb = taughtByProblem(taughtBy);
  if (tb !== null) bad.push({ field: 'taughtBy', problem: tb });
  const rp = reasonProblem(reason);
  if (rp !== null) bad.push({ field: 'reason', problem: rp });
  if (bad.length > 0) {
    throw new DomainError(
      'LESSON_MALFORMED',
      `The lesson cannot be read: ${bad.map((b) => b.problem).join('; ')}.`,
      {
        details: { fields: bad.map((b) => b.field) },
      },
    );
  }
  const name = collection as string;
  const learnable = learnables.find((l) => l.collection === name);
  if (learnable === undefined) throw collectionUnknown(name, learnables);
  return {
    learnable,
    collection: name,
    entry: entry as string,
    value: plainValue as LessonValue,
    taughtBy: (taughtBy as string).trim(),
    reason: typeof reason === 'string' && reason.trim() !== '' ? reason : null,
  };
}

export function collectionUnknown(name: string, learnables: readonly Learnable[]): DomainError {
  const declared = learnables.map((l) => l.collection);
  return new DomainError(
    'COLLECTION_UNKNOWN',
    `There is no collection "${name}": this agent declares ${declared.map((d) => `"${d}"`).join(', ')}.`,
    { details: { collection: name, declared } },
  );
}
