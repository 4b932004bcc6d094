/**
 * A sender's marks decide only as far as their track record allows (issue 38,
 * ../../../../../shared/notes/track-record.md, §13.1): a customer's address or domain mark settles a
 * message alone only while the mail from that address (that domain, for a domain mark) has been
 * finally read or answered as that one customer. Once any of it was read or answered as another
 * customer, the sender writes for more than one: the reading asks, naming both customers, when the
 * last such message was first seen, and the one-step way to take the lesson back.
 *
 * Owns: the objection and its sentence, as `how` states it (customers.ts). Does not own: keeping
 * the record (the corpus store) or fetching it (triage, when a reading asks for it).
 */
import type { Carried, Learnable, ReadInput } from '../learnable.ts';
import { listAnd, type Candidate, type MarkEvidence } from '../read-marked.ts';
import { isWideMark } from './wide-marks.ts';

/** Sentence in `how` (customers.ts) for this rule, true to it (§6.2). */
export const TRACK_RECORD_HOW =
  "The sender's address (or domain) settles a message alone only while the mail already read from that address (that domain) was all read or answered as the same customer; " +
  'once any of it was read or answered as another customer, such a reading asks, naming both.';

/** The objection of the sender's track record to a winner resting on the sender's marks, or null. */
export function recordObjection(winner: Candidate, input: ReadInput, learnable: Learnable): string | null {
  const record = input.record;
  if (record === undefined) return null;
  for (const e of winner.evidence) {
    if (e.part !== 'from') continue;
    const wide = isWideMark(e);
    const carried = (wide ? record.byDomain : record.byAddress).get(learnable.collection);
    const others = [...(carried ?? new Map<string, Carried>())].filter(([entry]) => entry !== winner.name);
    if (others.length === 0) continue;
    const sender = wide ? `@${record.address.split('@')[1] ?? ''}` : record.address;
    return sentence(winner, e, sender, wide, others, input, learnable);
  }
  return null;
}

function sentence(
  winner: Candidate,
  e: MarkEvidence,
  sender: string,
  wide: boolean,
  others: readonly (readonly [string, Carried])[],
  input: ReadInput,
  learnable: Learnable,
): string {
  const what = wide ? "the sender's domain" : "the sender's address";
  const from = wide ? `mail from addresses at ${sender}` : `mail from ${sender}`;
  const as = others.map(([entry, c]) => {
    const content = input.entries?.get(entry);
    const label =
      content !== undefined && learnable.label !== undefined ? learnable.label(entry, content) : entry;
    const n = `${c.messages} message${c.messages === 1 ? '' : 's'}`;
    return `${label} (${n}, the last first seen on ${c.lastAt.slice(0, 10)})`;
  });
  return (
    `${winner.label} matches only on ${what} (${sender}), but ${from} was already read or answered as ${listAnd(as)}: ` +
    `it writes for more than one customer, so it no longer settles a message alone. ` +
    `To take back that lesson, revert activation ${e.activation} (taught by ${e.taughtBy}).`
  );
}
