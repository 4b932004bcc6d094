/**
 * A suggested cue (§8): the evidence looked for in the part it was found in, as a person would
 * type it when the learnable bounds it the same way (../plain-mark.ts), else its anchored
 * source. Kinds never look at the sender: the triage side offers kinds evidence only from the
 * subject or body (a `from` would be refused by the learnable, and the suggestion dropped).
 */
import type { LessonValue } from '../learnable.ts';
import { plainOf } from '../plain-mark.ts';
import type { SuggestionEvidence } from '../suggest.ts';

export function kindSuggestionValue(evidence: SuggestionEvidence): LessonValue {
  return { cue: plainOf(evidence.source, evidence.part) ?? evidence.source, where: evidence.part };
}
