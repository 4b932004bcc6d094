/**
 * When a generalisation has earned its scope (§8, §13.1): a reference family or a
 * sender's domain is wider than the message it was drawn from, so it is suggested as one entry's
 * only when the mail already read proves it in a way a coincidence cannot explain. The one place
 * the thresholds live; `EARNED_SCOPE_HOW` says the rule in the customers learnable's `how` (§6.2).
 *
 * The thresholds were chosen by measurement (docs/learning.md, "2. A generalisation earns its
 * scope"; bench/learning/earning.ts): how often each rule offered a series that later proved
 * shared, on several seeds of the bench world.
 *
 * Owns: the rule and its words. Does not own: finding the messages (the corpus probe) or
 * the evidence (each learnable's evidence.ts).
 */
import type { SenderHistory, Spread } from './learnable.ts';

export const EARNED_SCOPE = {
  /** More than two messages already read carry it, all read as one entry. */
  minMessages: 3,
  /** From more than one sender, or in more than one thread. */
  minSendersOrThreads: 2,
  /** On more than one day. */
  minDays: 2,
} as const;

export const EARNED_SCOPE_HOW =
  `A reference family or a sender's domain is suggested only once at least ${EARNED_SCOPE.minMessages} messages already read carry it, ` +
  `from more than one sender or thread and on more than one day, none of them read or answered as another customer, ` +
  `and no undecided message carrying it comes from a sender whose mail is another customer's; ` +
  `when they all come from one sender, that sender must be named like the customer (a forwarder numbers its jobs for all its clients).`;

/** Why the spread of the messages read as the owner does not earn the scope, or null when it does. */
export function spreadShortfall(n: number, spread: Spread | undefined): string | null {
  if (n < EARNED_SCOPE.minMessages) {
    return `is on ${n === 0 ? 'no' : `only ${n}`} message${n === 1 ? '' : 's'} already read, fewer than the ${EARNED_SCOPE.minMessages} that would show it recurs`;
  }
  const s = spread ?? { senders: 0, threads: 0, days: 0 };
  if (Math.max(s.senders, s.threads) < EARNED_SCOPE.minSendersOrThreads) {
    return `comes from one sender in one thread so far, which a coincidence could explain`;
  }
  if (s.days < EARNED_SCOPE.minDays) return `was seen on one day only, which a coincidence could explain`;
  return null;
}

/** The one other entry a sender's decided mail all belongs to, when it is not `owner`; else null. */
export function pointsElsewhere(history: SenderHistory, owner: string): string | null {
  const entries = [...history.settled.keys()];
  return entries.length === 1 && entries[0] !== owner ? entries[0]! : null;
}
