/**
 * Whether a message's sender may write for more than one customer (§13.1), in words: a
 * no-reply or platform sender, a forward, an on-behalf phrase, an address already taught or read
 * as a customer (two customers: a forwarder), or a first-sight sender naming a customer its domain
 * is not named like, or one of two sibling companies. Also the client an on-behalf phrase names.
 *
 * Owns: reading the sender. Does not own: what is suggested instead (evidence.ts).
 */
import type { MailMessage } from '../../mail/index.ts';
import type { SenderHistory } from '../learnable.ts';
import { listAnd } from '../read-marked.ts';
import { labelOf, MIN_EVIDENCE_CHARS, type SuggestInput } from '../suggest.ts';
import { domainNamedLike, namedCustomers, siblingContaining, siblingInside } from './names.ts';
import { isSharedDomain } from './shared-domains.ts';
import { domainOf, localPartOf } from '../../mail/index.ts';

/** Local parts that send for many (no-reply and platform senders). */
const PLATFORM_LOCAL =
  /^(?:no[-_.]?reply|do[-_.]?not[-_.]?reply|notifications?|notify|alerts?|mailer(?:-daemon)?|postmaster|bounces?|automated|auto|system|daemon|updates?|news(?:letter)?|tracking)(?:[-_.+].*)?$/i;

/**
 * Phrases that say the writer writes for someone else, in the languages the fixtures carry. The
 * optional tail after each names the client where the text does ("on behalf of our client X").
 */
const ON_BEHALF =
  /\b(?:(?:for and )?on behalf of|acting for|as agents? for|for our (?:client|customer|principal)s?|im auftrag(?: von| unseres kunden| unserer kundin)?|i\.\s?a\.(?=\s)|namens|für unseren kunden|de la part de|pour le compte de|en nombre de|por cuenta de|per conto di|in nome di|onze klant)(?=[\s:,]|$)|(?:بالنيابة عن|نيابة عن|عن عميلنا)/iu;

/** Client words that may stand between an on-behalf phrase and the client's name. */
const CLIENT_WORDS =
  /^(?:(?:of\s+)?(?:our|my|the)\s+(?:client|customer|principal)s?|unser(?:e|em|en)?\s+kund(?:e|en|in)|notre client(?:e)?|nuestro cliente|nostro cliente|onze klant|عميلنا|العميل)\s*[:,]?\s*/iu;
const NAME_CONNECTORS = new Set([
  '&',
  'and',
  'und',
  'et',
  'y',
  'e',
  'of',
  'de',
  'du',
  'la',
  'le',
  'del',
  'van',
  'von',
  'al',
  'el',
]);

export interface SenderVerdict {
  /** Why the sender may write for more than one customer, in words; null when nothing says so. */
  readonly reason: string | null;
  /** True when the only objection is its own history (which may still allow its domain). */
  readonly historyOnly?: boolean;
  readonly history?: SenderHistory;
}

/**
 * Why the sender may write for more than one customer, in words (with the customers its mail was
 * read as, when that is the only reason). An address already answered for two customers is a
 * forwarder and is never suggested.
 */
export async function senderWritesForOthers(input: SuggestInput): Promise<SenderVerdict> {
  const { message, reading, probe } = input;
  const from = message.from;
  if (from === null || from.address === '') return { reason: 'the message has no sender address' };
  const local = localPartOf(from.address);
  if (message.isAutomated)
    return { reason: `${from.address} sends automated mail (a platform writes for many customers)` };
  if (PLATFORM_LOCAL.test(local))
    return { reason: `${from.address} is a no-reply or platform address that writes for many customers` };
  if (message.isForward)
    return { reason: 'the message is a forward, so the sender is passing on someone else’s mail' };
  const behalf = onBehalfPhrase(message);
  if (behalf !== null) return { reason: `the text says it is written for someone else ("${behalf}")` };
  // A sender who names a customer its domain is not named like, or one of two sibling
  // companies, may write for others (a forwarder's person, a group desk), even on first sight.
  const named = namedCustomers(input);
  const domain = domainOf(from.address);
  const notLike = named.filter((n) => !domainNamedLike(domain, labelOf(input, n.entry)));
  if (named.length > 0 && notLike.length === named.length && domain !== '' && !isSharedDomain(domain)) {
    // The name as written ("Brightway Furniture" for Brightway Furniture LLC) counts too.
    const labels = listAnd(named.map((n) => labelOf(input, n.entry)));
    return {
      reason: `the message names ${labels}, and ${domain} is not named like ${named.length === 1 ? 'it' : 'any of them'}, so the sender may write for others`,
    };
  }
  if (named.length === 1) {
    const label = labelOf(input, named[0]!.entry);
    const sibling =
      siblingContaining(input, named[0]!.entry, label) ?? siblingInside(input, named[0]!.entry, label);
    if (sibling !== null)
      return {
        reason: `the message names ${label}, whose name nests with ${sibling}'s, so one desk may write for both`,
      };
  }
  const taught = reading.candidates.filter((c) => c.evidence.some((e) => e.part === 'from'));
  if (taught.length > 0) {
    return {
      reason: `the sender's address already gives away ${listAnd(taught.map((c) => c.label))}, so it writes for more than one customer`,
    };
  }
  const history = await probe.sender(from.address, input.learnable.collection);
  const names = [...history.settled.keys()].map((n) => labelOf(input, n));
  if (history.settled.size > 1) {
    return {
      reason: `mail from ${from.address} has already been read as ${listAnd(names)}: it writes for others (a forwarder)`,
      history,
    };
  }
  if (history.settled.size === 1) {
    return {
      reason: `mail from ${from.address} has already been read as ${listAnd(names)}, so it may write for more than one customer`,
      historyOnly: true,
      history,
    };
  }
  return { reason: null, history };
}

/** The on-behalf phrase the message uses, if any. */
export function onBehalfPhrase(message: Pick<MailMessage, 'subject' | 'body'>): string | null {
  const m = ON_BEHALF.exec(`${message.subject}\n${message.body}`);
  return m === null ? null : m[0].trim();
}

/**
 * The client's name right after an on-behalf phrase ("On behalf of our client Northvale Motors Ltd,
 * please …" -> "Northvale Motors Ltd"), or null when the text does not name one plainly.
 */
export function clientNamed(body: string): string | null {
  const m = ON_BEHALF.exec(body);
  if (m === null) return null;
  let rest = body.slice(m.index + m[0].length).replace(/^[\s:,]+/u, '');
  rest = rest.replace(CLIENT_WORDS, '');
  const clause = rest.split(/[\n,;:.!?()[\]"“”،؛]|\s[-–—]\s/u)[0] ?? '';
  const words = clause
    .trim()
    .split(/\s+/u)
    .filter((w) => w !== '');
  const kept: string[] = [];
  for (const w of words) {
    if (kept.length >= 6) break;
    const lower = w.toLowerCase();
    if (kept.length > 0 && NAME_CONNECTORS.has(lower)) {
      kept.push(w);
      continue;
    }
    // A name word starts with a capital, or is in a script without case (Arabic, CJK).
    if (/^\p{Lu}/u.test(w) || (/^\p{L}/u.test(w) && w.toLowerCase() === w.toUpperCase())) kept.push(w);
    else break;
  }
  while (kept.length > 0 && NAME_CONNECTORS.has(kept[kept.length - 1]!.toLowerCase())) kept.pop();
  const name = kept.join(' ');
  return name.length >= MIN_EVIDENCE_CHARS ? name : null;
}
