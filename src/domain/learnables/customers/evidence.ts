/**
 * The customers reader's evidence for a suggestion (§8, §13.1), best first. A sender address is
 * evidence about the sender, not always the customer. It is suggested only when nothing says the
 * sender writes for others: not a no-reply/platform sender, not a forward, no "on behalf of" in the
 * text, not already taught to a customer, not seen in the corpus under any customer. Otherwise the
 * suggestion comes from narrower evidence (a known customer's name the message names, the client
 * the text says it writes for, a reference taken whole), or there is none and the reason is said in
 * words. A sender's domain is offered only when the domain is not free-mail or a shared platform
 * and every message already read from it was read as one and the same customer, named like it.
 *
 * Owns: what counts as evidence of a customer. Does not own: judging it (../suggest.ts).
 */
import type { MailMessage, MailPart } from '../../mail/index.ts';
import { partText } from '../../mail/index.ts';
import { listAnd } from '../read-marked.ts';
import { findReferences } from '../references.ts';
import type { SenderHistory } from '../learnable.ts';
import {
  labelOf,
  MIN_EVIDENCE_CHARS,
  MIN_RECURRING_MESSAGES,
  PART_NAME,
  type Evidence,
  type SuggestInput,
} from '../suggest.ts';
import { referenceFamily } from './families.ts';
import { namedEntries } from './label-index.ts';
import { isSharedDomain } from './shared-domains.ts';

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

/** Evidence for a customer, best first; `notes` collects why the sender's address is not offered. */
export async function customerEvidence(input: SuggestInput, notes: string[]): Promise<Evidence[]> {
  const { message } = input;
  const out: Evidence[] = [];
  const references = (['subject', 'body', 'attachments'] as const).flatMap((part) =>
    findReferences(partText(message, part)).map((ref) => ({ part, text: ref.text })),
  );

  // The customer's own reference family, when the corpus shows it recurring for one customer only
  // (issue 14): it covers every sender of that customer's next shipment. A series seen with two
  // customers (a forwarder's job numbers, a platform's bills) is refused by the judge (../suggest.ts).
  // A reply's subject is inherited from the mail it answers (another customer's, in a hijacked
  // thread), so a family is drawn from it only when the message is not a reply.
  const families = new Set<string>();
  for (const ref of references) {
    if (ref.part === 'subject' && message.isReply) continue;
    const family = referenceFamily(ref.text);
    if (family === null || families.has(`${ref.part}|${family.source}`)) continue;
    families.add(`${ref.part}|${family.source}`);
    out.push({
      text: ref.text,
      shape: 'reference',
      part: ref.part,
      label: `references shaped ${family.shown} in the ${PART_NAME[ref.part]}`,
      source: family.source,
      hint: family.prefix,
      recurs: {
        min: MIN_RECURRING_MESSAGES,
        label: (n, owner) =>
          `references shaped ${family.shown} (like ${ref.text}) in the ${PART_NAME[ref.part]}, on ${n} messages already read, all ${owner}`,
      },
    });
  }

  const sender = await senderWritesForOthers(input);
  // The sender's domain, when the mail already read from it is one customer's, on enough messages,
  // the domain is named like that customer (a broker's never is) and nobody's shared domain: new
  // staff of a known customer. The only objection to the sender that still allows it is its own
  // history, when that history is the same customer.
  if (message.from !== null && (sender.reason === null || sender.historyOnly)) {
    const domain = message.from.address.split('@')[1] ?? '';
    if (domain !== '' && !isSharedDomain(domain)) {
      const seen = await input.probe.domain(domain, input.learnable.collection);
      const [owner, more] = [...seen.settled.keys()];
      const history = sender.history?.settled;
      const historyAgrees =
        history === undefined || history.size === 0 || (history.size === 1 && history.has(owner ?? ''));
      if (
        owner !== undefined &&
        more === undefined &&
        historyAgrees &&
        domainNamedLike(domain, labelOf(input, owner))
      ) {
        out.push({
          text: `@${domain}`,
          shape: 'domain',
          part: 'from',
          label: `the domain this message came from (@${domain})`,
          recurs: {
            min: MIN_RECURRING_MESSAGES,
            label: (n, name) =>
              `the domain this message came from (@${domain}), on ${n} messages already read, all ${name}`,
          },
        });
      }
    }
  }

  if (sender.reason === null && message.from !== null) {
    const earlier = sender.history?.messages ?? 0;
    out.push({
      text: message.from.address,
      shape: 'address',
      part: 'from',
      // Issue 14: a first-sight address says only what is known about it.
      label:
        earlier === 0
          ? 'the address this message came from (first message from this address)'
          : `the address this message came from (${earlier} earlier message${earlier === 1 ? '' : 's'} from it, none decided)`,
    });
  } else if (sender.reason !== null) {
    notes.push(`I won't suggest the sender's address, because ${sender.reason}`);
  }

  // A known customer the message names (its label), when exactly one is named and its name is not
  // inside another customer's name (issue 14: "Acme Trading" inside "Acme Trading & Contracting").
  const named = namedCustomers(input);
  if (named.length === 1) {
    const n = named[0]!;
    const sibling = siblingContaining(input, n.entry, n.text);
    if (sibling !== null) {
      notes.push(
        `the name "${n.text}" is inside ${sibling}'s name, so a name mark would claim ${sibling}'s mail`,
      );
    } else {
      out.push({
        text: n.text,
        shape: 'words',
        part: n.part,
        label: `the name "${n.text}" in the ${PART_NAME[n.part]}`,
      });
    }
  } else if (named.length > 1) {
    notes.push(`it names ${listAnd(named.map((n) => `"${n.text}"`))}, so a name cannot tell them apart`);
  }

  // The client the text says it writes for ("on behalf of our client X").
  const client = clientNamed(message.body);
  if (
    client !== null &&
    !out.some((e) => e.text.toLowerCase() === client.toLowerCase()) &&
    siblingContaining(input, null, client) === null
  ) {
    out.push({
      text: client,
      shape: 'words',
      part: 'body',
      label: `the client the body names ("${client}")`,
    });
  }

  // Shipment references, taken whole, subject first: the fallback (§8).
  for (const ref of references) {
    out.push({
      text: ref.text,
      shape: 'reference',
      part: ref.part,
      label: `the reference ${ref.text} in the ${PART_NAME[ref.part]}`,
    });
  }
  return out;
}

interface SenderVerdict {
  /** Why the sender may write for more than one customer, in words; null when nothing says so. */
  readonly reason: string | null;
  /** True when the only objection is its own history (which may still allow its domain). */
  readonly historyOnly?: boolean;
  readonly history?: SenderHistory;
}

/**
 * Why the sender may write for more than one customer, in words (with the customers its mail was
 * read as, when that is the only reason). An address already answered for two customers is a
 * forwarder (issue 14) and is never suggested.
 */
async function senderWritesForOthers(input: SuggestInput): Promise<SenderVerdict> {
  const { message, reading, probe } = input;
  const from = message.from;
  if (from === null || from.address === '') return { reason: 'the message has no sender address' };
  const local = from.address.split('@')[0] ?? '';
  if (message.isAutomated)
    return { reason: `${from.address} sends automated mail (a platform writes for many customers)` };
  if (PLATFORM_LOCAL.test(local))
    return { reason: `${from.address} is a no-reply or platform address that writes for many customers` };
  if (message.isForward)
    return { reason: 'the message is a forward, so the sender is passing on someone else’s mail' };
  const behalf = onBehalfPhrase(message);
  if (behalf !== null) return { reason: `the text says it is written for someone else ("${behalf}")` };
  // Issue 14: a sender who names a customer its domain is not named like, or one of two sibling
  // companies, may write for others (a forwarder's person, a group desk), even on first sight.
  const named = namedCustomers(input);
  if (named.length === 1) {
    const label = labelOf(input, named[0]!.entry);
    const domain = from.address.split('@')[1] ?? '';
    if (domain !== '' && !isSharedDomain(domain) && !domainNamedLike(domain, label))
      return {
        reason: `the message names ${label}, and ${domain} is not named like it, so the sender may write for others`,
      };
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

/**
 * Another customer whose name contains `text` as whole words (issue 14: "Acme Trading" inside
 * "Acme Trading & Contracting"), shown by its label; null when none. `entry` is the customer
 * `text` names, left out.
 */
function siblingContaining(input: SuggestInput, entry: string | null, text: string): string | null {
  const { entries } = input;
  if (entries === undefined) return null;
  const wanted = text.toLowerCase();
  for (const name of entries.keys()) {
    if (name === entry) continue;
    const label = labelOf(input, name);
    if (label.length <= text.length) continue;
    const at = label.toLowerCase().indexOf(wanted);
    if (at >= 0 && !isWordChar(label.charAt(at - 1)) && !isWordChar(label.charAt(at + text.length)))
      return label;
  }
  return null;
}

/** Another customer whose name stands inside `label` as whole words, shown by its label; null when none. */
function siblingInside(input: SuggestInput, entry: string, label: string): string | null {
  const { entries } = input;
  if (entries === undefined) return null;
  const lower = label.toLowerCase();
  for (const name of entries.keys()) {
    if (name === entry) continue;
    const other = labelOf(input, name);
    if (other.length < MIN_EVIDENCE_CHARS || other.length >= label.length) continue;
    const at = lower.indexOf(other.toLowerCase());
    if (at >= 0 && !isWordChar(label.charAt(at - 1)) && !isWordChar(label.charAt(at + other.length)))
      return other;
  }
  return null;
}

function isWordChar(c: string): boolean {
  return c !== '' && /[\p{L}\p{N}]/u.test(c);
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

/**
 * Known entries whose label the subject or body names, as whole words (subject first); a name
 * found only inside a longer name the same part names ("Acme Trading" in "Acme Trading &
 * Contracting") is that longer name's, not its own.
 */
function namedCustomers(input: SuggestInput): { entry: string; text: string; part: MailPart }[] {
  const { learnable, entries, message } = input;
  if (entries === undefined) return [];
  const out = new Map<string, { entry: string; text: string; part: MailPart }>();
  for (const part of ['subject', 'body'] as const) {
    const found = namedEntries(learnable, entries, partText(message, part));
    for (const n of found) {
      const inner = n.text.toLowerCase();
      const inside = found.some((o) => o.text.length > n.text.length && o.text.toLowerCase().includes(inner));
      if (!inside && !out.has(n.entry)) out.set(n.entry, { ...n, part });
    }
  }
  return [...out.values()];
}

/**
 * Whether a domain carries the customer's name ("northgatemotors.example" for "Northgate Motors Ltd",
 * "alhamra-trading.example" for "Al Hamra Trading"): the mark of a customer's own mail domain.
 */
export function domainNamedLike(domain: string, label: string): boolean {
  const compact = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const name = compact(label);
  const firstWord = compact(label.split(/\s+/u)[0] ?? '');
  const labels = domain.toLowerCase().split('.').slice(0, -1).map(compact);
  return labels.some(
    (d) =>
      d.length >= MIN_EVIDENCE_CHARS &&
      (name.startsWith(d) ||
        d.startsWith(name) ||
        (firstWord.length >= MIN_EVIDENCE_CHARS && d.includes(firstWord))),
  );
}
