/**
 * Matching marks against a message (§13.3): re2 only, case-insensitive, each mark on the parts its
 * `where` names. A Matcher is compiled once per definition version and cached by versionId; cost
 * must not grow linearly with the number of marks (literal prefilter + re2 confirm).
 */
import type { MarkSource } from '../learnables/learnable.ts';
import type { MailMessage, MailPart } from '../mail/mail-message.ts';

/** A mark to compile, with the collection and entry it belongs to. */
export interface IndexedMark extends MarkSource {
  readonly collection: string;
  readonly entry: string;
}

export interface MarkHit {
  readonly mark: IndexedMark;
  readonly part: MailPart;
  /** The matched text (first match in that part). */
  readonly text: string;
}

export interface Matcher {
  readonly markCount: number;
  /** Every mark that matches, at most one hit per (mark, part). */
  match(message: MailMessage): readonly MarkHit[];
}
