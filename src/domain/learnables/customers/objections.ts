/**
 * Evidence no mark carries that still objects to a settled customer reading ("evidence
 * that disagrees is not a decision", §13.1). The leader's marks may all be weak: the sender's
 * address (a sender may write for others: a forwarder's person, a group desk) or a subject a reply
 * or forward inherited from an earlier mail (another customer's, in a hijacked thread). Then:
 *
 *   - another known customer named by its full name in the new text (the body, and the subject when
 *     it is not inherited) says more than the sender does: the reading asks, naming both;
 *   - when the leader's only marks are in an inherited subject, a reference in the new text that
 *     none of those marks match says the reply may be about another customer's shipment: it asks.
 *
 * Owns: those two objections and their sentences, as `how` states them (customers.ts). Does not own:
 * scoring (../read-marked.ts) or names (label-index.ts).
 */
import RE2 from 're2';
import type { Learnable, MarkHit, ReadInput } from '../learnable.ts';
import { partText, type MailPart } from '../../mail/index.ts';
import { findReferences } from '../references.ts';
import { listAnd, partsOf, type Candidate, type CollectionReading } from '../read-marked.ts';
import { isWideMark, wideWords } from './wide-marks.ts';
import { namedEntries } from './label-index.ts';
import { labelOf, recordObjection } from './track-record.ts';

/** Sentence in `how` (customers.ts) for this rule, true to it (§6.2). */
export const WEAK_EVIDENCE_HOW =
  "A reading that rests only on the sender's address, or only on a subject a reply or forward inherited, does not settle when the new text names another customer, in full or without its legal form (Ltd, SA, GmbH, …); " +
  "one that rests only on an inherited subject does not settle either when the new text gives a reference none of the leader's marks match.";

/** Whether the subject was inherited from an earlier mail (Re:, Fwd:, a reply's headers). */
function subjectInherited(input: ReadInput): boolean {
  return input.message.isReply || input.message.isForward;
}

/** The parts of a hit that say little about whose shipment it is, for this message. */
function weakPart(part: MailPart, input: ReadInput): boolean {
  return part === 'from' || (part === 'subject' && subjectInherited(input));
}

/**
 * Known customers other than `winner` whose full name the new text gives (the body; the subject
 * when not inherited). A name inside a longer name the same part gives is the longer one's.
 */
export function otherCustomersNamed(
  input: ReadInput,
  learnable: Learnable,
  winner: string,
): { entry: string; text: string; part: MailPart }[] {
  if (input.entries === undefined) return [];
  const parts: MailPart[] = subjectInherited(input) ? ['body'] : ['subject', 'body'];
  const out = new Map<string, { entry: string; text: string; part: MailPart }>();
  for (const part of parts) {
    const found = namedEntries(learnable, input.entries, partText(input.message, part));
    for (const n of found) {
      const inner = n.text.toLowerCase();
      const inside = found.some((o) => o.text.length > n.text.length && o.text.toLowerCase().includes(inner));
      if (!inside && n.entry !== winner && !out.has(n.entry)) out.set(n.entry, { ...n, part });
    }
  }
  return [...out.values()];
}

/** The objection to a settled reading, in one sentence, or null when nothing objects. */
export function customerObjection(
  report: CollectionReading,
  input: ReadInput,
  learnable: Learnable,
  hits: readonly MarkHit[],
): string | null {
  const winner = report.candidates.find((c) => c.name === report.winner);
  if (!report.settled || winner === undefined || winner.evidence.length === 0) return null;
  const wide = wideObjection(report, winner, input, learnable);
  if (wide !== null) return wide;
  if (!winner.evidence.every((e) => weakPart(e.part, input))) return null;
  // The sender's marks decide alone only while its mail has been one customer's.
  const record = recordObjection(winner, input, learnable);
  if (record !== null) return record;
  const winnerHits = hits.filter(
    (h) => h.mark.collection === learnable.collection && h.mark.entry === winner.name,
  );
  const where = weakWords(winnerHits);

  const named = namedObjection(winner, where, input, learnable);
  if (named !== null) return named;

  // Only an inherited subject: does the new text's reference belong to the thread at all?
  if (winner.evidence.some((e) => e.part === 'from')) return null;
  const references = findReferences(partText(input.message, 'body'));
  if (references.length === 0) return null;
  const subjectMarks = [...new Set(winnerHits.filter((h) => h.part === 'subject').map((h) => h.mark))];
  const res = subjectMarks.map((m) => new RE2(m.source, 'iu'));
  const unmatched = references.filter((r) => !res.some((re) => re.test(r.text)));
  if (unmatched.length < references.length) return null;
  return (
    `${winner.label} matches only on ${where}, and the new text gives ${listAnd(unmatched.slice(0, 3).map((r) => r.text))}, ` +
    `which none of ${winner.label}'s marks match: the reply may be about another customer's shipment.`
  );
}

/**
 * Whether a settled reading rests on the sender's marks (its address or domain) and
 * nothing stronger: the other evidence, if any, an inherited subject.
 */
export function restsOnSender(report: CollectionReading, input: ReadInput): boolean {
  const winner = report.candidates.find((c) => c.name === report.winner);
  if (winner === undefined || !winner.evidence.some((e) => e.part === 'from')) return false;
  return winner.evidence.every((e) => weakPart(e.part, input));
}

/** Issue 26 (wide-marks.ts): a wide mark does not outvote narrow evidence. */
function wideObjection(
  report: CollectionReading,
  winner: Candidate,
  input: ReadInput,
  learnable: Learnable,
): string | null {
  if (!winner.evidence.every(isWideMark)) return null;
  const on = wideWords(winner.evidence);
  for (const c of report.candidates) {
    if (c.name === winner.name) continue;
    const narrow = c.evidence.find((e) => !isWideMark(e));
    if (narrow !== undefined) {
      return (
        `${winner.label} matches only on ${on}, but ${c.label} matches ${narrow.text || narrow.mark} in the ${narrow.part}, ` +
        'a narrower mark that says more about whose shipment it is; the evidence disagrees.'
      );
    }
  }
  return namedObjection(winner, on, input, learnable);
}

/**
 * The objection of the new text naming other customers in full, to a leader that matched only on
 * `where` (weak parts or wide marks): one sentence naming both, or null when it names nobody else.
 */
function namedObjection(
  winner: Candidate,
  where: string,
  input: ReadInput,
  learnable: Learnable,
): string | null {
  const named = otherCustomersNamed(input, learnable, winner.name);
  if (named.length === 0) return null;
  const labels = named.map((n) => labelOf(input, learnable, n.entry));
  return (
    `${winner.label} matches only on ${where}, but the ${named[0]!.part} names ${listAnd(labels)}, ` +
    'which says more about whose shipment it is; the evidence disagrees.'
  );
}

function weakWords(hits: readonly MarkHit[]): string {
  const parts = partsOf(hits);
  return hits.some((h) => h.part === 'subject')
    ? `${parts}, which was inherited from an earlier mail`
    : parts;
}
