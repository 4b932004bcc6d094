/**
 * The customers reader's evidence for a suggestion (§8, §13.1), best first (issue 14's order):
 * the customer's own reference family and its own domain, each only when the corpus shows it
 * recurring for one customer (judged in ../suggest.ts), and a domain only when it is named like that
 * customer alone (two siblings on one domain share it); the sender's address, only when nothing
 * says the sender writes for others (senders.ts) and its domain is named like a known customer,
 * labelled with what is known ("first message from this address; its domain is named like
 * Northgate Motors Ltd"), never at a free-mail or shared domain unless the address itself is named
 * like one (at a domain named like nobody it is offered as a first message only: Appendix B); a known customer's name the message names, never one inside a sibling's name
 * (names.ts); and the client an on-behalf phrase names. A reference taken whole is never offered
 * (it is one shipment's, and settles nothing later). When none is offered, the reason is
 * said in words.
 *
 * Owns: what counts as evidence of a customer. Does not own: judging it (../suggest.ts).
 */
import { partText } from '../../mail/index.ts';
import { listAnd } from '../read-marked.ts';
import { findReferences } from '../references.ts';
import { labelOf, PART_NAME, type Evidence, type SuggestInput } from '../suggest.ts';
import { referenceFamily } from './families.ts';
import { domainNamedLike, namedCustomers, siblingContaining } from './names.ts';
import { clientNamed, senderWritesForOthers } from './senders.ts';
import { isSharedDomain } from './shared-domains.ts';
import { domainOf, localPartOf } from '../../mail/index.ts';

/** Evidence for a customer, best first; `notes` collects why the sender's address is not offered. */
export async function customerEvidence(input: SuggestInput, notes: string[]): Promise<Evidence[]> {
  const { message } = input;
  const references = (['subject', 'body', 'attachments'] as const).flatMap((part) =>
    findReferences(partText(message, part)).map((ref) => ({ part, text: ref.text })),
  );
  const out: Evidence[] = familyEvidence(input, references);
  const sender = await senderWritesForOthers(input);
  // Known customers the sender's address is named like: asked once, and only if a branch needs it
  // (it reads every entry's label).
  let namedLikeSender: string[] | undefined;
  const likeSender = (): string[] =>
    (namedLikeSender ??= message.from === null ? [] : customersNamedLikeAddress(input, message.from.address));
  out.push(...(await domainEvidence(input, sender, likeSender)));
  out.push(...addressEvidence(input, sender, likeSender, notes));
  out.push(...nameEvidence(input, notes));
  out.push(...clientEvidence(input, out));
  // A shipment's reference taken whole is on this shipment's mail only, so a lesson on it
  // would settle nothing that comes later: it is never offered, and the person hears why.
  if (references.length > 0) notes.push(oneOffNote(references.map((r) => r.text)));
  return out;
}

type Sender = Awaited<ReturnType<typeof senderWritesForOthers>>;
type Found = { readonly part: 'subject' | 'body' | 'attachments'; readonly text: string };

function familyEvidence(input: SuggestInput, references: readonly Found[]): Evidence[] {
  const { message } = input;
  const out: Evidence[] = [];
  // The customer's own reference family, when the corpus shows it recurring for one customer only:
  // it covers every sender of that customer's next shipment. A series seen with two
  // customers (a forwarder's job numbers, a platform's bills) is refused by the judge (../suggest.ts).
  // The new text first: a subject is inherited by every reply to it, other customers' hijacks of
  // the thread included, so a family looked for in the subject would meet mail read as others and
  // be refused for good; it is drawn from the subject last, and only when the message is not
  // itself a reply or forward (its subject then is another mail's).
  const families = new Set<string>();
  const byNewTextFirst = [
    ...references.filter((r) => r.part !== 'subject'),
    ...references.filter((r) => r.part === 'subject'),
  ];
  for (const ref of byNewTextFirst) {
    if (ref.part === 'subject' && (message.isReply || message.isForward)) continue;
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
        label: (n, owner) =>
          `references shaped ${family.shown} (like ${ref.text}) in the ${PART_NAME[ref.part]}, on ${n} messages already read, all ${owner}`,
        soleSender: (sender, owner) => soleSenderSeries(input, sender, owner),
      },
    });
  }
  return out;
}

async function domainEvidence(
  input: SuggestInput,
  sender: Sender,
  likeSender: () => string[],
): Promise<Evidence[]> {
  const { message } = input;
  const out: Evidence[] = [];
  // The sender's domain, when the mail already read from it is one customer's, on enough messages,
  // the domain is named like that customer (a broker's never is) and nobody's shared domain: new
  // staff of a known customer. The only objection to the sender that still allows it is its own
  // history, when that history is the same customer.
  if (message.from !== null && (sender.reason === null || sender.historyOnly)) {
    const domain = domainOf(message.from.address);
    if (domain !== '' && !isSharedDomain(domain)) {
      const seen = await input.probe.domain(domain, input.learnable.collection);
      const [owner, more] = [...seen.settled.keys()];
      const history = sender.history?.settled;
      const historyAgrees =
        history === undefined || history.size === 0 || (history.size === 1 && history.has(owner ?? ''));
      // A domain named like two known customers (sibling companies writing from one
      // domain) is theirs together, whoever's mail came first: it is never offered as one's. (Not
      // a shared domain, so what the address is named like is what its domain is named like.)
      if (
        owner !== undefined &&
        more === undefined &&
        historyAgrees &&
        domainNamedLike(domain, labelOf(input, owner)) &&
        likeSender().length === 1
      ) {
        out.push({
          text: `@${domain}`,
          shape: 'domain',
          part: 'from',
          label: `the domain this message came from (@${domain})`,
          recurs: {
            label: (n, name) =>
              `the domain this message came from (@${domain}), on ${n} messages already read, all ${name}`,
          },
        });
      }
    }
  }
  return out;
}

function addressEvidence(
  input: SuggestInput,
  sender: Sender,
  likeSender: () => string[],
  notes: string[],
): Evidence[] {
  const { message } = input;
  const out: Evidence[] = [];
  // An address whose mail so far was all one customer's, and which is named like that
  // customer (its domain, or its own name at free-mail), is that customer's staff: offered as its.
  const history = sender.history?.settled;
  const [only] = history === undefined || history.size !== 1 ? [] : [...history.keys()];
  let ownOffered = false;
  if (sender.historyOnly === true && only !== undefined && message.from !== null) {
    const owner = labelOf(input, only);
    const earlier = sender.history?.messages ?? 0;
    const domain = domainOf(message.from.address);
    if (likeSender().includes(owner)) {
      ownOffered = true;
      out.push({
        text: message.from.address,
        shape: 'address',
        part: 'from',
        ownedBy: only,
        label: `the address this message came from (${earlier} earlier message${earlier === 1 ? '' : 's'} from it, all ${owner}; ${likeWords(domain)} ${owner})`,
      });
    }
  }

  if (sender.reason === null && message.from !== null) {
    const earlier = sender.history?.messages ?? 0;
    // Nothing decided from this address yet, so all that is known of it is its name. When
    // its domain (or, at free-mail, the address itself) is named like a known customer, the label
    // says whom; at free-mail named like nobody it is not offered.
    const domain = domainOf(message.from.address);
    const likeNames = likeSender();
    const seen =
      earlier === 0
        ? 'first message from this address'
        : `${earlier} earlier message${earlier === 1 ? '' : 's'} from it, none decided`;
    if (likeNames.length > 0) {
      out.push({
        text: message.from.address,
        shape: 'address',
        part: 'from',
        label: `the address this message came from (${seen}; ${likeWords(domain)} ${listOr(likeNames)})`,
      });
    } else if (!isSharedDomain(domain)) {
      // Appendix B: an unknown sender at a domain named like nobody is still offered, saying only
      // that it is the first message; the reading guards it (objections.ts: a later mail from it
      // naming another customer asks).
      out.push({
        text: message.from.address,
        shape: 'address',
        part: 'from',
        label: `the address this message came from (${seen})`,
      });
    } else {
      notes.push(
        `I won't suggest the sender's address: nothing decided comes from it yet, and its domain (${domain}) is free-mail or shared by many senders, and the address is named like no customer`,
      );
    }
  } else if (sender.reason !== null && !ownOffered) {
    notes.push(`I won't suggest the sender's address, because ${sender.reason}`);
  }
  return out;
}

function nameEvidence(input: SuggestInput, notes: string[]): Evidence[] {
  const out: Evidence[] = [];
  // A known customer the message names (its label), when exactly one is named and its name is not
  // inside another customer's name ("Acme Trading" inside "Acme Trading & Contracting").
  const named = namedCustomers(input);
  if (named.length === 1) {
    const n = named[0]!;
    const sibling = siblingContaining(input, n.entry, n.text);
    if (sibling !== null) {
      notes.push(
        `the name "${n.text}" is inside ${sibling}'s name, so a name mark would claim ${sibling}'s mail`,
      );
    } else {
      // The customer's own full name names it in any part of the new text, as the
      // careful person types it at first sight; the judge refuses it once mail read as another carries it.
      out.push({
        text: n.text,
        shape: 'words',
        part: n.part,
        where: 'any',
        ownedBy: n.entry,
        label: `the name "${n.text}" anywhere in the message (here in the ${PART_NAME[n.part]})`,
      });
    }
  } else if (named.length > 1) {
    notes.push(`it names ${listAnd(named.map((n) => `"${n.text}"`))}, so a name cannot tell them apart`);
  }
  return out;
}

/** Found so far: `before`, which the client's name must not repeat. */
function clientEvidence(input: SuggestInput, before: readonly Evidence[]): Evidence[] {
  // The client the text says it writes for ("on behalf of our client X").
  const client = clientNamed(input.message.body);
  if (
    client !== null &&
    !before.some((e) => e.text.toLowerCase() === client.toLowerCase()) &&
    siblingContaining(input, null, client) === null
  ) {
    return [
      {
        text: client,
        shape: 'words',
        part: 'body',
        label: `the client the body names ("${client}")`,
      },
    ];
  }
  return [];
}

/** Why no reference is offered whole. */
export function oneOffNote(references: readonly string[]): string {
  const shown = listAnd([...new Set(references)].map((r) => r));
  return `I won't suggest ${references.length === 1 ? 'the reference' : 'the references'} ${shown} taken whole: a shipment's reference is on that shipment's mail only, so it would settle nothing that comes later; its family is offered once mail already read shows it recurring for one customer`;
}

/**
 * A family every carrier of which came from one sender is that sender's series unless the
 * sender is evidently the owner's own (its domain, or its name at free-mail, named like the owner):
 * a forwarder numbers its jobs for all its clients, and its first three may all be one client's.
 */
function soleSenderSeries(input: SuggestInput, sender: string, owner: string): string | null {
  const label = labelOf(input, owner);
  if (customersNamedLikeAddress(input, sender).includes(label)) return null;
  return `comes only from ${sender}, which is not named like ${label}, so it may be that sender's own series (it may write for others)`;
}

/** Most customers a domain's label names in a suggestion label; more and it names nobody in particular. */
const MAX_NAMED_LIKE = 3;

/**
 * Labels of the known customers an address is named like (domainNamedLike): by its domain, or, at a
 * free-mail or shared domain, by its own name ("dana.northvale7@gmail.com" for Northvale Motors
 * Ltd); none when more than MAX_NAMED_LIKE.
 */
export function customersNamedLikeAddress(input: SuggestInput, address: string): string[] {
  const domain = domainOf(address);
  const local = address.includes('@') ? localPartOf(address) : '';
  // The local part read like a domain's labels ("dana.northvale7" -> "dana", "northvale7").
  const named = isSharedDomain(domain) ? `${local}.local` : domain;
  if (domain === '' || local === '') return [];
  const out: string[] = [];
  for (const entry of input.entries?.keys() ?? []) {
    const label = labelOf(input, entry);
    if (domainNamedLike(named, label)) out.push(label);
    if (out.length > MAX_NAMED_LIKE) return [];
  }
  return out;
}

/** "its domain is named like" or, at free-mail, "the address is named like". */
function likeWords(domain: string): string {
  return isSharedDomain(domain) ? 'the address is named like' : 'its domain is named like';
}

/** "a", "a or b", "a, b or c" */
function listOr(items: readonly string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}`;
}

export { clientNamed, onBehalfPhrase } from './senders.ts';
export { domainNamedLike } from './names.ts';
