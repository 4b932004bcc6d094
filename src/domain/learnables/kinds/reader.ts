/**
 * The kinds reader (§11): what kind of message this is, under the same rule and margin as customers
 * (../read-marked.ts, as the kinds learnable's `how` states). "Reads as a pre-alert, on 'Pre-alert'
 * in the subject"; unsettled: "Still cannot tell what kind of message this is: nothing matched."
 * Shown as `kind`; suggests a cue from the subject (evidence.ts).
 */
import type { Learnable } from '../learnable.ts';
import { MAIL_PARTS, mailTextOf } from '../../mail/index.ts';
import { displayText } from '../literal-pattern.ts';
import { listAnd, markedReader, partWords, type ReadingWords } from '../read-marked.ts';
import type { MarkHit, Reader } from '../learnable.ts';
import { suggest, suggestInput } from '../suggest.ts';
import { subjectPhraseEvidence } from './evidence.ts';
import { newTextPhraseEvidence } from './new-text-evidence.ts';
import { cueArbiter, cueObjection, restsOnCues } from './cue-record.ts';
import { kindSuggestionValue } from './suggest-value.ts';
import { subjectSpeaksForMessage, weighInheritedSubject } from './inherited-subject.ts';

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
  question: "I can't tell what kind of message this is: what is it?",
  cannotTell: 'Still cannot tell what kind of message this is',
  settled: (label: string, hits: readonly MarkHit[]) => `Reads as ${kindName(label)}, on ${onWhat(hits)}`,
  name: kindName,
};

const NOTHING_FOUND =
  'I found no words in the subject that would mark this kind of message without marking others';
/** Why a reply gives no suggestion (new-text-evidence.ts). */
const REPLY_NOTHING =
  "the subject is inherited from the mail this one answers and the new text is about another reference, so the subject's words say what that mail was, not this one; and I found no words in the new text that would mark this kind without marking others: teach a cue from the new text with where 'body'";

export function kindsReader(learnable: Learnable): Reader {
  return markedReader({
    learnable,
    shownAs: 'kind',
    words: KIND_WORDS,
    weigh: weighInheritedSubject,
    // A cue decides only as far as its track record allows (cue-record.ts).
    objection: (report, input) => cueObjection(report, input, learnable),
    restsOnRecord: restsOnCues,
    // Two kinds' cues in one message; the clearly stronger record decides.
    arbiter: (report, input) => cueArbiter(report, input, learnable, kindName),
    suggest: (reading, l, context) =>
      suggest(
        suggestInput(reading, l, kindSuggestionValue, context),
        async (input) => {
          // A reply whose inherited subject is the earlier mail's offers its new text's words.
          const speaks = subjectSpeaksForMessage(input.message);
          const text = speaks ? input.message.subject : mailTextOf(input.message).newText;
          const named = await context.namedElsewhere(text);
          return speaks
            ? subjectPhraseEvidence(input.message, named)
            : newTextPhraseEvidence(input.message, named);
        },
        subjectSpeaksForMessage(context.message) ? NOTHING_FOUND : REPLY_NOTHING,
      ),
  });
}
