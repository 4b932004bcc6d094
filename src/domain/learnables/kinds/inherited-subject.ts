/**
 * An inherited subject is weaker evidence of a message's kind than its new text. A reply
 * keeps the subject of the mail it answers ("RE: Invoice INV-2026-3310") while its new text may be
 * about something else ("please send the signed proof of delivery"); the kinds learnable's `how`
 * states the rule this applies:
 *
 *   - a cue taught for the subject is also looked for in the new text (`subjectCueParts`), and a
 *     hit there counts only when the subject is inherited (it starts with Re:, Fwd:, AW:, WG:, …);
 *   - in a message with an inherited subject, when the new text (body or attachments) carries a
 *     cue, the subject's cues of kinds the new text does not carry are set aside: the new text
 *     decides, and two kinds in the new text ask;
 *   - when the new text carries none, the subject stands if it speaks for this message
 *     (`subjectSpeaksForMessage`): a fresh subject, a forward's (it passes the earlier mail on as
 *     its content), or a reply's whose new text names no reference the subject lacks ("Thanks,
 *     received" under "RE: Proof of delivery NGM-PO-47790"). A reply whose new text names another
 *     shipment than its subject is about something else than the mail it answers: its inherited
 *     subject alone does not decide, its cues are set aside and the reading asks; once a person
 *     answers, the cue they teach from the new text decides the next such reply.
 *
 * Owns: that rule, before the shared scoring (../read-marked.ts). Does not own: what "inherited" is
 * (mail/subject-prefix.ts), the new text (mail/new-text.ts) or what a reference is (../references.ts).
 */
import {
  isInheritedSubject,
  partText,
  subjectPrefixes,
  type MailMessage,
  type MailPart,
} from '../../mail/index.ts';
import type { MarkHit, ReadInput } from '../learnable.ts';
import { findReferences } from '../references.ts';
import type { SetAside, WeighedHits } from '../set-aside.ts';

const COLLECTION = 'kinds';

/** §6.2: the rule above in the kinds learnable's `how`, true to it. */
export const INHERITED_SUBJECT_HOW =
  "A subject the sender wrote outranks the text: when it carries one kind's cues only, another kind's cues in the body or attachments (a pre-alert that says the POD will follow) do not count. " +
  "A subject that starts with Re:, Fwd:, AW:, WG: or the like is inherited from an earlier mail, so it is weaker evidence than the new text: there a subject cue is also looked for in the new text, and when the new text carries a cue, the subject cues of other kinds do not count. When the new text carries none, a forward's subject stands (it passes the earlier mail on), and so does a reply's unless its new text names a reference the subject does not: then the reply is about another shipment than the mail it answers, its subject alone does not decide, and the reading asks.";

/** The parts a cue taught for `where` is looked for in: a subject cue also in the new text. */
export function subjectCueParts(where: string, parts: readonly MailPart[]): readonly MailPart[] {
  return where === 'subject' && !parts.includes('body') ? [...parts, 'body'] : parts;
}

/**
 * Whether the subject is evidence of this message's own kind: a fresh subject, a forward's, or a
 * reply's whose new text names no reference the subject lacks (the rule above). Suggestions are
 * drawn from the subject only when it is (evidence.ts; §8).
 */
export function subjectSpeaksForMessage(message: MailMessage): boolean {
  if (subjectPrefixes(message.subject).outermost !== 'reply') return true;
  const inSubject = new Set(findReferences(message.subject).map((r) => r.text.toLowerCase()));
  return findReferences(partText(message, 'body')).every((r) => inSubject.has(r.text.toLowerCase()));
}

/** A subject cue's hit in the new text (found there because of subjectCueParts). */
const subjectCueInNewText = (h: MarkHit): boolean => h.mark.where === 'subject' && h.part === 'body';
/** New-text evidence of a kind: a hit in the body or the attachments. */
const inNewText = (h: MarkHit): boolean => h.part === 'body' || h.part === 'attachments';

/**
 * In a message whose subject the sender wrote, a subject naming one kind only decides
 * over another kind's cues in the new text, which freight mail names all the time ("the POD will
 * follow"). Two kinds in the subject still ask; a cue of the subject's own kind in the text counts.
 */
function outrankedBySubject(hits: readonly MarkHit[]): WeighedHits {
  const subjectKinds = new Set(hits.filter((h) => h.part === 'subject').map((h) => h.mark.entry));
  if (subjectKinds.size !== 1) return { hits, setAside: [] };
  const outranked = (h: MarkHit): boolean => inNewText(h) && !subjectKinds.has(h.mark.entry);
  return {
    hits: hits.filter((h) => !outranked(h)),
    setAside: hits.filter(outranked).map((hit) => ({ hit, why: 'outranked-by-subject' as const })),
  };
}

/** The kinds' hits the shared rule scores, and those the inherited-subject rule set aside. */
export function weighInheritedSubject(input: Pick<ReadInput, 'hits' | 'message'>): WeighedHits {
  const own = input.hits.filter((h) => h.mark.collection === COLLECTION);
  if (!isInheritedSubject(input.message.subject)) {
    // a fresh subject is this message's own: its cues are looked for in the subject only
    return outrankedBySubject(own.filter((h) => !subjectCueInNewText(h)));
  }
  const newTextKinds = new Set(own.filter(inNewText).map((h) => h.mark.entry));
  if (newTextKinds.size === 0) {
    if (subjectSpeaksForMessage(input.message)) return { hits: own, setAside: [] };
    // a reply about another shipment: its inherited subject alone does not decide (the reading asks)
    return {
      hits: own.filter((h) => h.part !== 'subject'),
      setAside: own
        .filter((h) => h.part === 'subject')
        .map((hit) => ({ hit, why: 'inherited-subject-alone' as const })),
    };
  }
  const hits: MarkHit[] = [];
  const setAside: SetAside[] = [];
  for (const h of own) {
    if (h.part === 'subject' && !newTextKinds.has(h.mark.entry))
      setAside.push({ hit: h, why: 'inherited-subject' });
    else hits.push(h);
  }
  return { hits, setAside };
}
