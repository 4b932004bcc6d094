/**
 * A sender's marks decide only as far as their track record allows (§13.1; docs/learning.md, "Trust
 * a sender only as far as it has earned"): a customer's address or domain mark settles a
 * message alone only while the mail from that address (that domain, for a domain mark) has been
 * finally read or answered as that one customer. Once any of it was read or answered as another
 * customer, the sender writes for more than one: the reading asks, naming both customers, when the
 * last such message was first seen, and the one-step way to take the lesson back.
 *
 * Owns: the objection and its sentence, as `how` states it (customers.ts). Does not own: keeping
 * the record (the corpus store) or fetching it (triage, when a reading asks for it).
 */
import { partText, type MailMessage } from '../../mail/index.ts';
import type { Carried, Learnable, ReadInput } from '../learnable.ts';
import { labelOf as entryLabel } from '../learnable.ts';
import { listAnd, type Candidate, type MarkEvidence } from '../read-marked.ts';
import { findReferences } from '../references.ts';
import { referenceFamily } from './families.ts';
import { isWideMark } from './wide-marks.ts';
import { decidesAlone, tallyFor } from '../track-record.ts';
import { domainOf } from '../../mail/index.ts';

/**
 * The lower bound a sender mark's precision must keep (track-record.ts): 1, so one answer against
 * it silences it. A customer's sender record cannot be weighed as a cue's is: once the mark decides,
 * every message it files counts for it, a message it misfiles among them, so a record that has
 * decided can only grow for it, and a misfile is found weeks later (docs/learning.md).
 */
export const SENDER_MIN_PRECISION = 1;

/** Sentence in `how` (customers.ts) for this rule, true to it (§6.2). */
export const TRACK_RECORD_HOW =
  "The sender's address (or domain) settles a message alone only while the mail read from that address (that domain) since the mark was taught was all read or answered as the same customer; " +
  'once any of it was read or answered as another customer, such a reading asks, naming both. ' +
  'It asks too when the new text carries a reference whose family the mail already read gives to other customers only.';

const FAMILY_KEY = 'family:';

/**
 * The track-record keys of a message beyond its sender: the family of each reference in its new
 * text (the subject too unless a reply or forward inherited it), as `family:NVMA-####-####`.
 */
export function familyKeys(message: MailMessage): string[] {
  const parts =
    message.isReply || message.isForward
      ? (['body', 'attachments'] as const)
      : (['subject', 'body', 'attachments'] as const);
  const keys = new Set<string>();
  for (const part of parts) {
    for (const ref of findReferences(partText(message, part))) {
      const family = referenceFamily(ref.text);
      if (family !== null) keys.add(`${FAMILY_KEY}${family.shown}`);
    }
  }
  return [...keys];
}

/** The objection of the sender's track record to a winner resting on the sender's marks, or null. */
export function recordObjection(winner: Candidate, input: ReadInput, learnable: Learnable): string | null {
  const record = input.record;
  if (record === undefined) return null;
  for (const e of winner.evidence) {
    if (e.part !== 'from') continue;
    const wide = isWideMark(e);
    const carried = (wide ? record.byDomain : record.byAddress).get(learnable.collection);
    // Mail read before the mark was taught was weighed by the lesson check (§13.1: a lesson that
    // would move it is refused unless the person re-files it); what came after is the record's news.
    const tally = tallyFor(carried, winner.name, e.taughtAt);
    if (decidesAlone(tally, SENDER_MIN_PRECISION)) continue;
    const sender = wide ? `@${domainOf(record.address)}` : record.address;
    return sentence(winner, e, sender, wide, tally.others, input, learnable);
  }
  return familyObjection(winner, input, learnable);
}

/**
 * A reference family of the new text that the mail already read gives to other customers only. The
 * record holds the message's own keys (triage asked for them), so its keys are the families to weigh.
 */
function familyObjection(winner: Candidate, input: ReadInput, learnable: Learnable): string | null {
  for (const [key, byCollection] of input.record?.byKey ?? []) {
    const carried = byCollection.get(learnable.collection);
    if (
      !key.startsWith(FAMILY_KEY) ||
      carried === undefined ||
      carried.size === 0 ||
      carried.has(winner.name)
    )
      continue;
    const as = [...carried].map(
      ([entry, c]) => `${labelOf(input, learnable, entry)} (${messagesWord(c.messages)})`,
    );
    return (
      `${winner.label} matches only on the sender, but the new text carries references shaped ${key.slice(FAMILY_KEY.length)}, ` +
      `which the mail already read gives to ${listAnd(as)}: the message may be theirs.`
    );
  }
  return null;
}

/** "1 message", "3 messages" */
function messagesWord(n: number): string {
  return `${n} message${n === 1 ? '' : 's'}`;
}

/** How readings name `entry`: its label in the version read, else its name. */
export function labelOf(input: ReadInput, learnable: Learnable, entry: string): string {
  return entryLabel(learnable, input.entries, entry);
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
  const as = others.map(
    ([entry, c]) =>
      `${labelOf(input, learnable, entry)} (${messagesWord(c.messages)}, the last first seen on ${c.lastAt.slice(0, 10)})`,
  );
  return (
    `${winner.label} matches only on ${what} (${sender}), but ${from} was already read or answered as ${listAnd(as)}: ` +
    `it writes for more than one customer, so it no longer settles a message alone. ` +
    `To take back that lesson, revert activation ${e.activation} (taught by ${e.taughtBy}).`
  );
}
