/**
 * The customers reader (§11): whose message this is, under the shared decision rule
 * (../read-marked.ts) that the customers learnable's `how` states. "Reads as Northgate Motors Ltd,
 * on billing@origin.example"; unsettled: "Still cannot tell whose this is: nothing matched." or who
 * matched and where. Shown as `customer`; asks whose shipment it is; suggests from evidence.ts.
 *
 * Issue 14, stated in `how` (customers.ts): a mark in the text outranks the sender's address
 * (`customerMarkStrength`), so they never settle against each other; a name mark inside another
 * customer's longer name in the same part is set aside (`insideSiblingName`); and a person's answer
 * against a matched sender mark names that mark and the one-lesson revert; a reading resting only on
 * weak marks (the sender, an inherited subject) asks when the new text objects (objections.ts).
 */
import type { EntryContent, Learnable } from '../learnable.ts';
import {
  listAnd,
  markedReader,
  shownTexts,
  type CollectionReading,
  type ReadingWords,
} from '../read-marked.ts';
import type { MarkHit, Reader } from '../learnable.ts';
import { displayText } from '../literal-pattern.ts';
import { partText, type MailMessage, type MailPart } from '../../mail/index.ts';
import { suggest, suggestInput } from '../suggest.ts';
import { customerEvidence } from './evidence.ts';
import { customerSuggestionValue } from './suggest-value.ts';
import { customerObjection, restsOnSender } from './objections.ts';

export const CUSTOMER_WORDS: ReadingWords = {
  question: "I can't tell whose shipment this is: who should it go to?",
  cannotTell: 'Still cannot tell whose this is',
  settled: (label: string, hits: readonly MarkHit[]) => `Reads as ${label}, on ${listAnd(shownTexts(hits))}`,
  name: (label: string) => label,
  disagree: (leader, leaderParts, stronger, strongerParts) =>
    `${leader} matches on ${leaderParts}, but ${stronger} matches on ${strongerParts}, which says more ` +
    'about whose shipment it is than the sender does; the evidence disagrees, so I ask.',
};

/** Strength of a customer mark by the part it matched in: the text outranks the sender. */
export const SENDER_STRENGTH = 1;
export const TEXT_STRENGTH = 2;
export function customerMarkStrength(part: MailPart): number {
  return part === 'from' ? SENDER_STRENGTH : TEXT_STRENGTH;
}

const NOTHING_FOUND =
  'I found no customer name, sender or reference family in it that only one customer’s mail would contain';

/**
 * Whether a hit's text stands inside another customer's longer name that the same part carries
 * ("Acme Trading" inside "Acme Trading & Contracting"): then it is that customer's name, not this one.
 */
export function insideSiblingName(
  hit: MarkHit,
  message: MailMessage,
  entries: ReadonlyMap<string, EntryContent> | undefined,
  learnable: Learnable,
): boolean {
  if (hit.mark.collection !== learnable.collection || hit.part === 'from') return false;
  if (entries === undefined || learnable.label === undefined) return false;
  const text = displayText(hit.text).toLowerCase();
  if (text.length < 4) return false;
  const haystack = partText(message, hit.part).toLowerCase();
  for (const [name, content] of entries) {
    if (name === hit.mark.entry) continue;
    const label = learnable.label(name, content).toLowerCase();
    if (label.length <= text.length || !label.includes(text)) continue;
    if (haystack.includes(label)) return true;
  }
  return false;
}

/** Notes for a person's answer that went against a matched sender mark. */
export function senderMarkNotes(report: CollectionReading, entry: string): string[] {
  const decided = report.candidates.find((c) => c.name === entry)?.label ?? entry;
  const notes: string[] = [];
  for (const c of report.candidates) {
    if (c.name === entry) continue;
    for (const e of c.evidence) {
      if (e.part !== 'from') continue;
      notes.push(
        `The sender's address matched ${c.label}'s mark (${e.mark}), taught by ${e.taughtBy} in activation ` +
          `${e.activation}, but this message was answered as ${decided}'s: the sender writes for others. ` +
          `If that mark should not give ${c.label} away, revert activation ${e.activation}, which takes back that one lesson.`,
      );
    }
  }
  return notes;
}

export function customersReader(learnable: Learnable): Reader {
  return markedReader({
    learnable,
    shownAs: 'customer',
    words: CUSTOMER_WORDS,
    strength: customerMarkStrength,
    keepHit: (hit, input) => !insideSiblingName(hit, input.message, input.entries, learnable),
    decidedNotes: senderMarkNotes,
    objection: (report, input) => customerObjection(report, input, learnable, input.hits),
    restsOnRecord: restsOnSender,
    suggest: (reading, l, context) =>
      suggest(suggestInput(reading, l, customerSuggestionValue, context), customerEvidence, NOTHING_FOUND),
  });
}
