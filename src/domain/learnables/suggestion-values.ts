/**
 * Turning evidence found in a message into a lesson value a learnable understands (§8 `suggested`).
 * The triage side finds the evidence (an address, a reference, a name) and its re2 source, already
 * escaped and anchored so it is no wider than the evidence (§13.1); only the learnable that owns the
 * vocabulary knows which keys hold it (§9), so each marked learnable has a builder in its own folder.
 *
 * Owns: the map from collection to builder. Learnables without one (mappings) get no suggestions.
 */
import type { LessonValue } from './learnable.ts';
import type { MailPart } from '../mail/mail-message.ts';
import { customerSuggestionValue } from './customers/suggest-value.ts';
import { kindSuggestionValue } from './kinds/suggest-value.ts';

/** What the triage side found, ready to be taught. */
export interface SuggestionEvidence {
  /** The text exactly as it appears in the message ("PA-2026-0901"). */
  readonly text: string;
  /** The re2 source matching that text and nothing wider (escaped and anchored). */
  readonly source: string;
  /** The part of the message it was found in, and the narrowest place to look for it. */
  readonly part: MailPart;
}

export type SuggestionValueBuilder = (evidence: SuggestionEvidence) => LessonValue;

const BUILDERS: Readonly<Record<string, SuggestionValueBuilder>> = {
  customers: customerSuggestionValue,
  kinds: kindSuggestionValue,
};

/** The builder for `collection`, or undefined when that learnable takes no suggestions. */
export function suggestionValueFor(collection: string): SuggestionValueBuilder | undefined {
  return Object.hasOwn(BUILDERS, collection) ? BUILDERS[collection] : undefined;
}
