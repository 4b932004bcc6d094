/**
 * The kinds reading (§11): what kind of message this is, under the same rule and margin as customers
 * (read-marked.ts, as the kinds learnable's `how` states). "Reads as a pre-alert, on 'Pre-alert' in
 * the subject"; unsettled: "Still cannot tell what kind of message this is: nothing matched."
 */
import type { EntryContent, Learnable, LearnableSettings } from '../learnables/learnable.ts';
import { MAIL_PARTS } from '../mail/mail-message.ts';
import type { MarkHit } from './definition-marks.ts';
import { displayText } from './literal-pattern.ts';
import {
  listAnd,
  partWords,
  readMarkedCollection,
  type ReadingWords,
  type ResolvePerson,
} from './read-marked.ts';
import type { CollectionReading } from './reading.ts';

/** "Pre-alert" -> "a pre-alert", "Invoice" -> "an invoice", "POD" -> "a POD". */
export function kindName(label: string): string {
  const noun = /^\p{Lu}\p{Ll}/u.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function onWhat(hits: readonly MarkHit[]): string {
  const seen = new Set<string>();
  const phrases: string[] = [];
  for (const part of MAIL_PARTS) {
    for (const h of hits) {
      if (h.part !== part) continue;
      const phrase = `'${displayText(h.text)}' in ${partWords(part)}`;
      if (!seen.has(phrase.toLowerCase())) {
        seen.add(phrase.toLowerCase());
        phrases.push(phrase);
      }
    }
  }
  return listAnd(phrases);
}

export const KIND_WORDS: ReadingWords = {
  cannotTell: 'Still cannot tell what kind of message this is',
  settled: (label: string, hits: readonly MarkHit[]) => `Reads as ${kindName(label)}, on ${onWhat(hits)}`,
  name: kindName,
};

export function readKinds(input: {
  readonly learnable: Learnable;
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly hits: readonly MarkHit[];
  readonly settings: LearnableSettings;
  readonly resolvePerson: ResolvePerson;
}): CollectionReading {
  return readMarkedCollection({ ...input, words: KIND_WORDS });
}
