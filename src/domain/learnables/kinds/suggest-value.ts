/**
 * A suggested cue (§8): the evidence's anchored source, looked for in the part it was found in.
 * Kinds never look at the sender: the triage side offers kinds evidence only from the subject or
 * body (a `from` would be refused by the learnable, and the suggestion dropped).
 */
import type { LessonValue } from '../learnable.ts';
import type { SuggestionEvidence } from '../suggest.ts';

export function kindSuggestionValue(evidence: SuggestionEvidence): LessonValue {
  return { cue: evidence.source, where: evidence.part };
}
