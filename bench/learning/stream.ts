/**
 * What every world of the learning bench shares (the layer under world.ts and the worlds it mixes
 * in: phenomena, attachments, sender trust, answers): the seeded random source and the shape of a
 * stream message with its truth. Imports nothing of theirs.
 */

/** Which phenomena a message carries, for misroutes and questions by cause. */
export type Phenomenon =
  | 'person-forwarder'
  | 'group-desk'
  | 'quoted-chain'
  | 'thread-hijack'
  | 'reply-other-kind'
  | 'shared-series'
  | 'attachment-only'
  | 'shared-invoice-series'
  | 'shared-domain'
  | 'first-client-forwarder'
  | 'sender-spoof'
  | 'colleague-forward';

/** mulberry32: small, fast, good enough for test data. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p) => next() < p,
  };
}

export interface Random {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

export type Kind = 'pre-alert' | 'invoice' | 'proof-of-delivery' | 'booking' | 'customs-query';
export const KINDS: readonly Kind[] = [
  'pre-alert',
  'invoice',
  'proof-of-delivery',
  'booking',
  'customs-query',
];

export interface Customer {
  readonly name: string; // entry name, e.g. "c017-northvale"
  readonly label: string; // "Northvale Motors Ltd"
  readonly domain: string;
  readonly staff: string[]; // addresses; grows week by week
  /** A stable account prefix the customer puts in its own references, e.g. "NVM". */
  readonly refPrefix: string;
  readonly joinsInWeek: number;
  /** Issue 26: the sibling company whose staff write from the same domain. */
  readonly sharesDomainWith?: string;
  /** Issue 39: the company name its staff sign with (and name nowhere else), at a domain named by initials. */
  readonly signsAs?: string;
}

export interface Sender {
  readonly address: string;
  readonly display: string;
  readonly role:
    'staff' | 'forwarder' | 'platform' | 'person-forwarder' | 'group-desk' | 'spoof' | 'colleague';
}

export interface StreamMessage {
  readonly week: number;
  readonly seq: number;
  readonly raw: string;
  readonly messageId: string;
  readonly truth: { readonly customer: string; readonly kind: Kind };
  /** The subject and the body text as sent (a reply quotes them). */
  readonly subject: string;
  readonly text: string;
  readonly sender: Sender;
  /** Narrowest mark a person would type to identify this message's customer (operator model). */
  readonly narrowest: {
    readonly pattern: string;
    readonly where: 'from' | 'subject' | 'body' | 'attachments';
  };
  /** What a person would type to mark this message's kind: the subject's words before the reference. */
  readonly kindNarrowest: { readonly pattern: string; readonly where: 'subject' | 'body' };
  /** Issue 14's phenomena this message carries (empty for a plain message). */
  readonly phenomena: readonly Phenomenon[];
}
