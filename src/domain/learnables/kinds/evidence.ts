/**
 * The kinds reader's evidence for a suggestion (§8): the words of the subject before its first
 * reference or number. Kinds never look at the sender, so nothing is drawn from the from line.
 * A reply's subject (Re:, AW:, …) whose new text is about another reference is the earlier mail's,
 * not this one's: nothing is drawn from it (§8: a suggestion never claims more than this message
 * shows; issue 14), so a cue for that reply is typed from its new text (inherited-subject.ts).
 *
 * Owns: what counts as evidence of a kind. Does not own: judging it (../suggest.ts).
 */
import { subjectPrefixes, type MailMessage } from '../../mail/index.ts';
import { findReferences } from '../references.ts';
import { subjectSpeaksForMessage } from './inherited-subject.ts';
import { MIN_EVIDENCE_CHARS, type Evidence } from '../suggest.ts';

/** Most words in a suggested cue: a longer subject phrase is about one message, not a kind. */
export const MAX_CUE_WORDS = 4;

/**
 * For kinds: the words of the subject before its first reference or number, without reply and
 * forward prefixes ("Booking confirmation HBL/2026/00412/A" -> "Booking confirmation"); none from
 * a subject that does not speak for this message.
 */
export function subjectPhraseEvidence(message: MailMessage): Evidence[] {
  if (!subjectSpeaksForMessage(message)) return [];
  const subject = subjectPrefixes(message.subject).rest;
  const firstRef = findReferences(subject)[0];
  let head = firstRef === undefined ? subject : subject.slice(0, firstRef.index);
  // The first phrase: up to a digit or a clause break, at most four words.
  head = head.split(/\d|[:;,!?()[\]|]|\s[-–—]\s/u)[0] ?? '';
  if (head.trim().split(/\s+/u).length > MAX_CUE_WORDS) return [];
  head = head
    .replace(/[\s:;,.#/-]+$/u, '')
    .replace(/\s+(?:for|on|of|from|to|für|pour|de|para|per|no\.?|nr\.?|ref\.?)$/iu, '')
    .trim();
  // A short upper-case code (INV, POD) names a kind of mail as a whole word; the kinds learnable reads it so.
  const code = /^[A-Z]{2,3}$/.test(head);
  if ((!code && head.length < MIN_EVIDENCE_CHARS) || !/\p{L}/u.test(head)) return [];
  const label = code ? `the code "${head}" in the subject` : `the words "${head}" in the subject`;
  return [{ text: head, shape: 'words', part: 'subject', label }];
}
