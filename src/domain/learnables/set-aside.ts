/**
 * Hits a marked collection's rule does not count, and the one sentence its reading says about them
 * (§11: the report says why). Two reasons:
 *   - `quoted`: the mark was found only in what the sender did not write in this message (the quoted
 *     or forwarded text, a signature or disclaimer; mail/parts.ts), and it was not taught for it;
 *   - `inherited-subject`: a cue in a subject inherited from an earlier mail (Re:, Fwd:, …) when the
 *     new text carries another kind's cue (kinds/inherited-subject.ts);
 *   - `inherited-subject-alone`: a cue in a reply's inherited subject when the new text carries no
 *     cue and names another reference: too weak to decide alone (kinds/inherited-subject.ts);
 *   - `outranked-by-subject`: another kind's cue in the body or attachments when the subject the
 *     sender wrote carries one kind's cues only (kinds/inherited-subject.ts).
 *
 * Owns: which hits in `quoted` count, and the wording. Does not own: scoring (read-marked.ts).
 */
import type { MarkHit } from './learnable.ts';
import { displayText } from './literal-pattern.ts';
import { listWords } from './value-shape.ts';

export type SetAsideReason =
  'quoted' | 'inherited-subject' | 'inherited-subject-alone' | 'outranked-by-subject';

/** A hit the rule set aside, and why. */
export interface SetAside {
  readonly hit: MarkHit;
  readonly why: SetAsideReason;
}

/** The learnable's own hits, split: those that count and those set aside. */
export interface WeighedHits {
  readonly hits: readonly MarkHit[];
  readonly setAside: readonly SetAside[];
}

/**
 * §6.2: the `how` sentence for this rule, true to it, for every marked learnable's card. `any`
 * looks in every part but the quoted one (mail/mail-message.ts MAIL_PARTS).
 */
export const NEW_TEXT_HOW =
  "The body is the new text only: what the sender wrote in this message, without what it quotes or forwards, its signature or its disclaimer. A mark counts in those only when taught for 'quoted'; 'any' means the from, subject, body and attachments.";

/** §6.2 `how`: a colleague's forward is read as the message it forwards (src/domain/triage/colleague-forward.ts). */
export const COLLEAGUE_FORWARD_HOW =
  'A forward from a colleague (someone who has taught this agent, or anyone at their own domain unless it is free-mail) is read as the message it forwards: its sender and text are the evidence, and the colleague is never the customer.';

/** How a `where` of 'quoted' is phrased in describes (§10.4). */
export const QUOTED_WHERE_WORDS = 'the quoted text';

/** A hit in the quoted part counts only for a mark taught for it (`where: "quoted"`). */
export function countsWhere(hit: MarkHit): boolean {
  return hit.part !== 'quoted' || hit.mark.where === 'quoted';
}

/**
 * Splits hits by countsWhere. Reported as set aside are the marks that would have counted had the
 * text been new (taught for the body or anywhere) and counted nowhere else in the message.
 */
export function setAsideQuoted(hits: readonly MarkHit[]): WeighedHits {
  const counted = hits.filter(countsWhere);
  const countedMarks = new Set(counted.map((h) => h.mark));
  const setAside = hits
    .filter(
      (h) =>
        !countsWhere(h) && (h.mark.where === 'body' || h.mark.where === 'any') && !countedMarks.has(h.mark),
    )
    .map((hit) => ({ hit, why: 'quoted' as const }));
  return { hits: counted, setAside };
}

const WHY: Readonly<Record<SetAsideReason, string>> = {
  quoted: 'found only in the quoted or forwarded text, a signature or a disclaimer',
  'inherited-subject': 'in a subject inherited from an earlier mail, while the new text says otherwise',
  'inherited-subject-alone':
    'in a subject inherited from an earlier mail, while the new text is about another reference and carries no cue',
  'outranked-by-subject': 'in the text, while the subject the sender wrote names another kind',
};

/**
 * "Set aside: 'NGM-PO-48402' (Northgate Motors Ltd), found only in the quoted or forwarded text,
 * a signature or a disclaimer." One sentence per reading, '' when nothing was set aside.
 */
export function setAsideSentence(setAside: readonly SetAside[], nameOf: (entry: string) => string): string {
  if (setAside.length === 0) return '';
  const clauses: string[] = [];
  for (const why of [
    'quoted',
    'inherited-subject',
    'inherited-subject-alone',
    'outranked-by-subject',
  ] as const) {
    // the texts found, grouped by the entry they would have counted for, in order of appearance
    const byEntry = new Map<string, string[]>();
    for (const { hit, why: w } of setAside) {
      if (w !== why) continue;
      const texts = byEntry.get(hit.mark.entry) ?? [];
      const text = `'${displayText(hit.text)}'`;
      if (!texts.includes(text)) texts.push(text);
      byEntry.set(hit.mark.entry, texts);
    }
    const items = [...byEntry].map(([entry, texts]) => `${listWords(texts)} (${nameOf(entry)})`);
    if (items.length > 0) clauses.push(`${listWords(items)}, ${WHY[why]}`);
  }
  return `Set aside: ${clauses.join('; ')}.`;
}
