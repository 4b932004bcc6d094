/**
 * Matching marks against a message (§13.3): re2 only, case-insensitive, each mark on the parts its
 * `parts` names. A Matcher is compiled once per set of marks (a definition version, for the caller)
 * and cached by a version id; cost must not grow linearly with the number of marks (literal
 * prefilter + re2 confirm).
 *
 * Owns: what a mark and a hit are to the engine. Does not own: what a mark stands for. A caller's
 * mark may carry anything beside `source` and `parts` (the collection and entry it came from, say);
 * the engine hands the same object back in each hit and never reads the rest.
 */
import type { MailMessage, MailPart } from '../mail/index.ts';

/** A mark to match: a re2 source, run case-insensitively on the parts it names. */
export interface Mark {
  readonly source: string;
  readonly parts: readonly MailPart[];
}

export interface MarkHit<M extends Mark = Mark> {
  /** The mark as the caller gave it. */
  readonly mark: M;
  readonly part: MailPart;
  /** The matched text (first match in that part). */
  readonly text: string;
}

export interface Matcher<M extends Mark = Mark> {
  readonly markCount: number;
  /** Every mark that matches, at most one hit per (mark, part). */
  match(message: MailMessage): readonly MarkHit<M>[];
}
