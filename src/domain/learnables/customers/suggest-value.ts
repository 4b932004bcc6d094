/**
 * A suggested customer mark (§8): the evidence's anchored source, looked for only in the part it
 * was found in (narrower is safer). The customers vocabulary lives here, not in src/domain/triage.
 */
import type { LessonValue } from '../learnable.ts';
import type { SuggestionEvidence } from '../suggest.ts';

export function customerSuggestionValue(evidence: SuggestionEvidence): LessonValue {
  return { pattern: evidence.source, where: evidence.part };
}
