/**
 * The `customers` learnable (§6.1's example): which customer a message belongs to. Each customer
 * carries a label ("Northgate Motors Ltd") and marks `{ pattern, where }`, text that gives the
 * customer away, each looked for in one part of the message.
 *
 * Owns: the customer vocabulary (lesson fields, wording of `describes` and `how`, §6.2, §10.4).
 * The bookkeeping is shared with kinds (../marked-entries.ts); the patterns are judged by
 * ../pattern.ts. Scoring a message is src/domain/triage/'s, and must follow `how` word for word.
 */
import { namedEntries } from './label-index.ts';
import type { LearnableDescriptor, LearnableSettings } from '../learnable.ts';
import { createMarkedLearnable, markScoringHow } from '../marked-entries.ts';
import { alreadyReadField } from '../marked-value.ts';
import { PLAIN_OR_PATTERN_HELP, shownMark } from '../plain-mark.ts';
import { EARNED_SCOPE_HOW } from '../earned-scope.ts';
import { customersReader } from './reader.ts';
import { COLLEAGUE_FORWARD_HOW, NEW_TEXT_HOW, QUOTED_WHERE_WORDS } from '../set-aside.ts';
import { WEAK_EVIDENCE_HOW } from './objections.ts';
import { WIDE_MARK_HOW } from './wide-marks.ts';
import { familyKeys, TRACK_RECORD_HOW } from './track-record.ts';

/** The label field's label: how a lesson names a new entry (issue 12.3). */
export const CUSTOMER_NEW_ENTRY_FIELD = "Customer's name, only for a new customer";

/** `where` choices for a customer mark, in declaration order (§6.1). */
export const CUSTOMER_WHERE = ['from', 'subject', 'body', 'attachments', 'any', 'quoted'] as const;

/**
 * Issue 14's additions to the rule, as reader.ts applies them (strengths: `customerMarkStrength`;
 * sibling names: `insideSiblingName`).
 */
export const CUSTOMER_STRENGTHS_HOW =
  "A mark that matches in the subject, body or attachments (a reference, a name) is stronger than one that matches in the sender's address, " +
  'because a sender may write for others: when another customer matches a stronger mark than any of the leader’s, nothing is claimed and the reading names both. ' +
  "A mark whose text stands inside another customer's longer name in the same part (Acme Trading inside Acme Trading & Contracting) scores nothing. " +
  WEAK_EVIDENCE_HOW +
  ' ' +
  WIDE_MARK_HOW +
  ' ' +
  TRACK_RECORD_HOW;

/** §6.2 `how`, generated from the rule the reader applies and its real margin. */
export function customersHow(settings: LearnableSettings): string {
  const scoring = markScoringHow(
    { intro: 'Each customer carries marks - text that gives them away', mark: 'mark', holder: 'customer' },
    settings,
  );
  // The strengths of evidence, then the new text (../set-aside.ts).
  return `${scoring} ${CUSTOMER_STRENGTHS_HOW} ${NEW_TEXT_HOW} ${COLLEAGUE_FORWARD_HOW} ${EARNED_SCOPE_HOW}`;
}

export function customersDescriptor(settings: LearnableSettings): LearnableDescriptor {
  return {
    collection: 'customers',
    entry: 'customer',
    skills: ['triage_inbound', 'recheck_message'],
    teaches: 'which customer a message belongs to',
    how: customersHow(settings),
    decidedBy: 'rules',
    lessonFields: [
      {
        name: 'pattern',
        label: 'Text that gives it away',
        kind: 'text',
        help: `An address, a domain, a reference or a name, typed as you see it (billing@origin.example, PA-2026-0901): it matches whole, never inside a longer address or reference. At least four letters or digits. ${PLAIN_OR_PATTERN_HELP}`,
      },
      {
        name: 'where',
        label: 'Where to look for it',
        kind: 'choice',
        choices: [...CUSTOMER_WHERE],
        default: 'from',
        help: "Narrower is safer. 'body' is what the sender wrote, without quoted or forwarded text; 'any' matches the whole message but that; 'quoted' only the quoted and forwarded text.",
      },
      {
        name: 'label',
        label: CUSTOMER_NEW_ENTRY_FIELD,
        kind: 'text',
        help: 'How readings name the customer, e.g. Northgate Motors Ltd. Leave it empty for a customer you already have.',
      },
      alreadyReadField('customer'),
    ],
  };
}

/** `northgate` -> "Northgate", `al-hamra` -> "Al Hamra". */
export function customerLabelFromName(entryName: string): string {
  const words = entryName.split(/[-_.\s]+/).filter((w) => w !== '');
  if (words.length === 0) return entryName;
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** §10.4: "matches 'billing@origin.example' in the from", or "matches the pattern '…' in the body". */
export function phraseCustomerMark(pattern: string, where: string): string {
  const shown = shownMark(pattern, where);
  return where === 'any'
    ? `matches ${shown} anywhere in the message`
    : `matches ${shown} in ${where === 'quoted' ? QUOTED_WHERE_WORDS : `the ${where}`}`;
}

export function createCustomersLearnable(): ReturnType<typeof createMarkedLearnable> {
  const learnable = createMarkedLearnable({
    collection: 'customers',
    entryNoun: 'customer',
    textKey: 'pattern',
    listKey: 'marks',
    whereChoices: CUSTOMER_WHERE,
    defaultWhere: 'from',
    patternRules: {
      noun: 'pattern',
      maxSampleShare: 0.25,
      refuseFreightWords: true,
      onlyIn: "only this customer's mail contains",
      example: 'like an address or a reference',
    },
    phraseMark: phraseCustomerMark,
    labelFromName: customerLabelFromName,
    nothingToLearn:
      "Nothing to learn: type the text that gives the customer away (an address or a reference), or the customer's name for a new customer.",
    newEntryField: CUSTOMER_NEW_ENTRY_FIELD,
    descriptor: customersDescriptor,
  });
  return {
    ...learnable,
    reader: customersReader(learnable),
    recordKeys: familyKeys,
    namesIn: (text, entries) => namedEntries(learnable, entries, text).map((n) => n.text),
  };
}
