/**
 * A suggested customer mark (§8): the evidence looked for only in the part it was found in
 * (narrower is safer; a customer's own full name anywhere in the new text), as a person would type it when the learnable bounds it the same way
 * (../plain-mark.ts), else its anchored source. The customers vocabulary lives here, not
 * in src/domain/triage.
 */
import type { LessonValue } from '../learnable.ts';
import { plainOf } from '../plain-mark.ts';
import type { SuggestionEvidence } from '../suggest.ts';

export function customerSuggestionValue(evidence: SuggestionEvidence): LessonValue {
  return {
    pattern: plainOf(evidence.source, evidence.part) ?? evidence.source,
    where: evidence.where ?? evidence.part,
  };
}
