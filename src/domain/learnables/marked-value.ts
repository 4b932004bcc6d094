/**
 * The lesson value of a marked learnable (customers, kinds): `{ <text>, where, label }` in that
 * learnable's vocabulary, judged for the person who typed it (§10.1) and phrased for audit (§10.4).
 *
 * Owns: parsing a value into its mark and label, and the phrase of what it teaches. Does not own:
 * judging the pattern itself (pattern.ts), the stored entry (marked-content.ts), or absorbing.
 */
import { isPlainObject } from '../json.ts';
import type { LearnableDescriptor, LearnableSettings, LessonField, LessonValue } from './learnable.ts';
import { judgePattern, type PatternRules } from './pattern.ts';
import { boundPlain } from './plain-mark.ts';
import { describeType, hasControlCharacter, listWords, unknownKeysRefusal } from './value-shape.ts';

/** Longest entry label accepted, in characters. */
const MAX_LABEL_CHARS = 200;

export const LABEL_KEY = 'label';
export const WHERE_KEY = 'where';
/**
 * §13.1: the choice a person makes when a lesson would change how mail already read is
 * filed. Only the lesson (and so the history) holds it; the stored entry never does.
 */
export const ALREADY_READ_KEY = 'alreadyRead';
/** Its choices: refuse (the default) or re-file what it matches. */
export const ALREADY_READ_CHOICES = ['refuse', 're-file'] as const;

/** §6.3: the lesson field of ALREADY_READ_KEY, declared on the card so any client renders it blind. */
export function alreadyReadField(entryNoun: string): LessonField {
  return {
    name: ALREADY_READ_KEY,
    label: 'If this would change mail already read',
    kind: 'choice',
    choices: [...ALREADY_READ_CHOICES],
    default: 'refuse',
    help: `Before a lesson is kept it is tried on the mail already read. 'refuse' keeps nothing when mail already filed under another ${entryNoun} would change; choose 're-file' only when those messages were filed wrongly.`,
  };
}

/** What one marked learnable calls things: the keys, choices and words of its collection. */
export interface MarkedVocabulary {
  readonly collection: string;
  readonly entryNoun: string;
  /** Lesson-value key of the text to match ("pattern", "cue"). */
  readonly textKey: string;
  /** Content key of the list of marks ("marks", "cues"). */
  readonly listKey: string;
  /** Permitted `where` values, in declaration order; 'any' means every part. */
  readonly whereChoices: readonly string[];
  readonly defaultWhere: string;
  readonly patternRules: PatternRules;
  /** The §10.4 phrase for one mark, e.g. `matches 'x' in the from`. */
  phraseMark(text: string, where: string): string;
  /** A label for a new entry taught without one, from its name (import only; a taught lesson must name it). */
  labelFromName(entryName: string): string;
  /** The label of the lesson field that names a new entry (its `label` field, §6.3). */
  readonly newEntryField: string;
  /** What the person should type, for "nothing to learn" refusals. */
  readonly nothingToLearn: string;
  descriptor(settings: LearnableSettings): LearnableDescriptor;
}

/** A judged value: the mark it adds (when it has text) and the label it gives (when named). */
export interface ParsedValue {
  readonly text?: string;
  readonly where: string;
  readonly label?: string;
  /** The person chose to re-file mail already read that the mark changes. */
  readonly refile?: true;
}

/** §10.1: judge a value; the reason is for the person who typed it. */
export function parseMarkedValue(v: MarkedVocabulary, value: LessonValue): ParsedValue | { refused: string } {
  const valueKeys = [v.textKey, WHERE_KEY, LABEL_KEY, ALREADY_READ_KEY];
  if (!isPlainObject(value))
    return { refused: `A ${v.entryNoun} lesson must be an object with ${listWords(valueKeys)}.` };
  const unknown = unknownKeysRefusal(
    value,
    valueKeys,
    `${v.entryNoun} lesson`,
    `the fields are ${listWords(valueKeys)}`,
  );
  if (unknown !== null) return { refused: unknown };
  const rawText = value[v.textKey];
  const rawWhere = value[WHERE_KEY];
  const rawLabel = value[LABEL_KEY];
  const rawAlreadyRead = value[ALREADY_READ_KEY];
  for (const [key, raw] of [
    [v.textKey, rawText],
    [WHERE_KEY, rawWhere],
    [LABEL_KEY, rawLabel],
    [ALREADY_READ_KEY, rawAlreadyRead],
  ] as const) {
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      return { refused: `"${key}" must be text, not ${describeType(raw)}.` };
    }
  }
  const refile = alreadyReadChoice(rawAlreadyRead as string | null | undefined); // text or nothing: checked above
  if (typeof refile === 'string') return { refused: refile };
  const label = typeof rawLabel === 'string' && rawLabel.trim() !== '' ? rawLabel.trim() : undefined;
  if (label !== undefined) {
    if (label.length > MAX_LABEL_CHARS) {
      return {
        refused: `The ${v.entryNoun}'s name is ${label.length} characters long; the limit is ${MAX_LABEL_CHARS}.`,
      };
    }
    if (hasControlCharacter(label)) {
      return {
        refused: `The ${v.entryNoun}'s name "${label}" contains a line break or control character; type it on one line.`,
      };
    }
  }
  const text = typeof rawText === 'string' ? rawText : undefined;
  // A client renders every field (§6.3), so a label-only lesson arrives with an empty text box.
  if (text === undefined || (text.trim() === '' && label !== undefined)) {
    if (label === undefined) return { refused: v.nothingToLearn };
    return { where: v.defaultWhere, label, ...refile };
  }
  const whereText =
    typeof rawWhere === 'string' && rawWhere.trim() !== '' ? rawWhere.trim().toLowerCase() : v.defaultWhere;
  if (!v.whereChoices.includes(whereText)) {
    return {
      refused: `"${String(rawWhere)}" is not a place to look; choose one of ${listWords(v.whereChoices)}.`,
    };
  }
  const verdict = judgePattern(text, v.patternRules, undefined, (typed) => boundPlain(typed, whereText));
  if (!verdict.ok) return { refused: verdict.reason };
  return label === undefined
    ? { text: verdict.source, where: whereText, ...refile }
    : { text: verdict.source, where: whereText, label, ...refile };
}

/** `{ refile: true }` for 're-file', `{}` for 'refuse' or nothing, or the refusal of another value. */
function alreadyReadChoice(raw: string | null | undefined): { refile?: true } | string {
  if (raw === undefined || raw === null) return {};
  const choice = raw.trim().toLowerCase();
  if (choice === '' || choice === 'refuse') return {};
  if (choice === 're-file') return { refile: true };
  return `"${raw}" is not a choice for mail already read; choose "refuse" (the default) or "re-file".`;
}

/** §10.4: what a judged value teaches, in the learnable's words. */
export function phraseMarkedValue(v: MarkedVocabulary, p: ParsedValue): string {
  const parts: string[] = [];
  if (p.text !== undefined) parts.push(v.phraseMark(p.text, p.where));
  if (p.label !== undefined) parts.push(`is called '${p.label}'`);
  return parts.join(', and ');
}
