/**
 * The `kinds` learnable: what kind of message it is (pre-alert, invoice, proof-of-delivery,
 * booking, customs-query, …). Each kind carries a label and cues `{ cue, where }`: words that mark
 * the kind, each looked for in one part of the message. A deliberately different vocabulary from
 * customers (cue, not pattern; no `from`; default `subject`), driven through the same code path.
 *
 * Owns: the kind vocabulary and its wording (§6.2, §10.4). Bookkeeping is ../marked-entries.ts;
 * cues are judged by ../pattern.ts, except that freight words ("invoice") are fine as cues: they
 * are exactly what tells one kind from another. Scoring is src/domain/triage/'s and follows `how`.
 */
import type { LearnableDescriptor, LearnableSettings, MarkHit } from '../learnable.ts';
import { createMarkedLearnable, markScoringHow } from '../marked-entries.ts';
import { alreadyReadField } from '../marked-value.ts';
import { PLAIN_OR_PATTERN_HELP, shownMark } from '../plain-mark.ts';
import { kindsReader } from './reader.ts';
import { NEW_TEXT_HOW, QUOTED_WHERE_WORDS } from '../set-aside.ts';
import { INHERITED_SUBJECT_HOW, subjectCueParts } from './inherited-subject.ts';
import { KIND_CUE_HOW } from './evidence.ts';
import { CARRIES_HOW } from '../suggest.ts';
import { CUE_RECORD_HOW, cueKeys } from './cue-record.ts';

/** The label field's label: how a lesson names a new entry (issue 12.3). */
export const KIND_NEW_ENTRY_FIELD = 'Name of the kind, only for a new kind';

/** `where` choices for a cue, in declaration order. The sender says whose, not what kind. */
export const KIND_WHERE = ['subject', 'body', 'attachments', 'any', 'quoted'] as const;

/** §6.2 `how`: the customers' rule applied to cues, with the same margin. */
export function kindsHow(settings: LearnableSettings): string {
  const scoring = markScoringHow(
    { intro: 'Each kind of message carries cues - words that mark it', mark: 'cue', holder: 'kind' },
    settings,
  );
  return `${scoring} ${NEW_TEXT_HOW} ${INHERITED_SUBJECT_HOW} ${KIND_CUE_HOW} ${CARRIES_HOW} ${CUE_RECORD_HOW}`; // issues 14, 39, 49
}

export function kindsDescriptor(settings: LearnableSettings): LearnableDescriptor {
  return {
    collection: 'kinds',
    entry: 'kind of message',
    skills: ['triage_inbound', 'recheck_message'],
    teaches: 'what kind of message it is',
    how: kindsHow(settings),
    decidedBy: 'rules',
    lessonFields: [
      {
        name: 'cue',
        label: 'Words that mark this kind of message',
        kind: 'text',
        help: `A word or phrase as you see it, such as pre-alert or proof of delivery: it matches as whole words. At least four letters or digits, or a two- or three-letter code such as POD. ${PLAIN_OR_PATTERN_HELP}`,
      },
      {
        name: 'where',
        label: 'Where to look for them',
        kind: 'choice',
        choices: [...KIND_WHERE],
        default: 'subject',
        help: "The subject is usually enough. 'body' is what the sender wrote, without quoted or forwarded text; 'any' looks in the whole message but that; 'quoted' only in the quoted and forwarded text.",
      },
      {
        name: 'label',
        label: KIND_NEW_ENTRY_FIELD,
        kind: 'text',
        help: 'How readings name it, e.g. Proof of delivery. Leave it empty for a kind you already have.',
      },
      alreadyReadField('kind'),
    ],
  };
}

/** `proof-of-delivery` -> "Proof of delivery". */
export function kindLabelFromName(entryName: string): string {
  const words = entryName.split(/[-_.\s]+/).filter((w) => w !== '');
  if (words.length === 0) return entryName;
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** §10.4: "is marked by 'pre-alert' in the subject", or "is marked by the pattern 'pre-?alert' …". */
export function phraseCue(cue: string, where: string): string {
  const shown = shownMark(cue, where);
  return where === 'any'
    ? `is marked by ${shown} anywhere in the message`
    : `is marked by ${shown} in ${where === 'quoted' ? QUOTED_WHERE_WORDS : `the ${where}`}`;
}

function ownHits(hits: readonly MarkHit[]): MarkHit[] {
  return hits.filter((h) => h.mark.collection === KINDS);
}

const KINDS = 'kinds';

export function createKindsLearnable(): ReturnType<typeof createMarkedLearnable> {
  const learnable = createMarkedLearnable({
    collection: KINDS,
    entryNoun: 'kind of message',
    textKey: 'cue',
    listKey: 'cues',
    whereChoices: KIND_WHERE,
    defaultWhere: 'subject',
    patternRules: {
      noun: 'cue',
      maxSampleShare: 0.5,
      refuseFreightWords: false,
      onlyIn: 'only this kind of message contains',
      example: "like 'pre-alert' or 'proof of delivery'",
      shortCodesAsWords: true,
    },
    phraseMark: phraseCue,
    labelFromName: kindLabelFromName,
    nothingToLearn:
      'Nothing to learn: type the words that mark this kind of message, or its name for a new kind.',
    newEntryField: KIND_NEW_ENTRY_FIELD,
    descriptor: kindsDescriptor,
  });
  return {
    ...learnable,
    // a subject cue is also looked for in the new text, for an inherited subject (inherited-subject.ts)
    marks: (entryName, content) =>
      learnable.marks(entryName, content).map((m) => ({ ...m, parts: subjectCueParts(m.where, m.parts) })),
    reader: kindsReader(learnable),
    recordKeys: (message, hits) => cueKeys(message, ownHits(hits)),
  };
}
