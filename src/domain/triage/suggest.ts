/**
 * Suggestions (§8, §13.1): when a reading is unsettled, propose a lesson value drawn from the
 * evidence in the message, with a `suggestionLabel` in a person's words. A suggestion is NEVER
 * wider than its evidence:
 *
 * - every literal is escaped for re2 and anchored so it cannot match inside a longer token;
 * - a shipment reference is taken whole (`PA-2026-0901`, never `PA-2026`, §8 rationale);
 * - a sender is suggested by its full address; its domain only when the domain is not free-mail or a
 *   shared platform and every message already read from it was read as one and the same customer;
 * - nothing is offered that matches messages the corpus read as two different customers, or most of
 *   the corpus. When everything it matches was read as one customer, it is offered as that
 *   customer's (`forEntry`), and the label says so; a sender's address never is (see below).
 *
 * A sender address is evidence about the sender, not always the customer. It is suggested only when
 * nothing says the sender writes for others: not a no-reply/platform sender, not a forward, no
 * "on behalf of" in the text, not already taught to a customer, not seen in the corpus under any
 * customer. Otherwise the suggestion comes from narrower evidence (a known customer's name the
 * message names, the client the text says it writes for, a reference), or there is none and the
 * reason is said in words.
 *
 * Key-agnostic (§9): the value is built by the learnable's own builder (suggestion-values.ts) and
 * judged by the learnable itself (a refused value is never offered). Keys are checked against the
 * learnable's declared lesson fields (§8: a subset of them).
 */
import RE2 from 're2';
import type { Definition } from '../definitions/definition.ts';
import type { Learnable, LearnableSettings, LessonValue, MarkSource } from '../learnables/learnable.ts';
import type { SuggestionValueBuilder } from '../learnables/suggestion-values.ts';
import type { MailMessage, MailPart } from '../mail/mail-message.ts';
import { partText } from '../mail/parts.ts';
import type { CorpusProbe } from './corpus-probe.ts';
import { displayText, tokenPattern, type TokenShape } from './literal-pattern.ts';
import { listAnd } from './read-marked.ts';
import type { CollectionReading, Suggestion } from './reading.ts';
import { namedEntries } from './label-index.ts';
import { findReferences } from './references.ts';
import { isSharedDomain } from './shared-domains.ts';

export type SuggestOutcome = { readonly suggestion: Suggestion } | { readonly none: string };

/** Below this many other messages, "matches most of the corpus" says nothing. */
export const MIN_CORPUS_FOR_MAJORITY = 20;
/** Most words in a suggested cue: a longer subject phrase is about one message, not a kind. */
export const MAX_CUE_WORDS = 4;
/** Shortest evidence text offered, in characters (the matcher's literal rule, §13.3). */
export const MIN_EVIDENCE_CHARS = 4;

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

export interface SuggestInput {
  readonly message: MailMessage;
  /** The reading of the collection a suggestion is asked for. */
  readonly reading: CollectionReading;
  readonly learnable: Learnable;
  /** The learnable's builder; undefined when it takes no suggestions. */
  readonly build: SuggestionValueBuilder | undefined;
  /** The definition the reading was made under (entries' names, for a name the message mentions). */
  readonly definition: Pick<Definition, 'collections'>;
  readonly probe: CorpusProbe;
  readonly settings: LearnableSettings;
}

interface Evidence {
  readonly text: string;
  readonly shape: TokenShape;
  readonly part: MailPart;
  /** In a person's words: "the reference PA-2026-0901 in the subject". */
  readonly label: string;
}

const PART_NAME: Readonly<Record<MailPart, string>> = {
  from: 'from line',
  subject: 'subject',
  body: 'body',
  attachments: 'attachments',
};

/** A suggestion for an unsettled reading, or why there is none. */
export async function suggest(input: SuggestInput): Promise<SuggestOutcome> {
  const { reading, learnable, build } = input;
  if (reading.settled) return { none: 'The message is already settled; there is nothing to teach.' };
  if (build === undefined)
    return {
      none: `The ${learnable.entryNoun} is chosen by a person; there is nothing in the message to suggest.`,
    };

  const notes: string[] = [];
  const evidence: Evidence[] =
    learnable.collection === 'customers'
      ? await customerEvidence(input, notes)
      : subjectPhraseEvidence(input.message);

  for (const e of evidence) {
    // Text an existing mark already matched gives away the entry that holds it, not another one.
    const owner = reading.candidates.find((c) =>
      c.evidence.some((m) => m.part === e.part && overlaps(displayText(m.text), e.text)),
    );
    if (owner !== undefined) {
      notes.push(`${e.label} already gives away ${owner.label}`);
      continue;
    }
    const verdict = await judge(input, e);
    if ('suggestion' in verdict) return verdict;
    notes.push(verdict.none);
  }
  if (evidence.length === 0) {
    notes.push(
      learnable.collection === 'customers'
        ? 'I found no reference or customer name in it that only one customer’s mail would contain'
        : 'I found no words in the subject that would mark this kind of message without marking others',
    );
  }
  return { none: `No suggestion: ${notes.join('; ')}.` };
}

/** Evidence for a customer, best first; `notes` collects why the sender's address is not offered. */
async function customerEvidence(input: SuggestInput, notes: string[]): Promise<Evidence[]> {
  const { message } = input;
  const out: Evidence[] = [];
  const sender = await senderWritesForOthers(input);
  const writesForOthers = sender?.reason ?? null;
  if (writesForOthers === null && message.from !== null) {
    out.push({
      text: message.from.address,
      shape: 'address',
      part: 'from',
      label: 'the address this message came from',
    });
  } else if (writesForOthers !== null) {
    notes.push(`I won't suggest the sender's address, because ${writesForOthers}`);
  }

  // The sender's domain, when all mail already read from it is one customer's, the domain is named
  // like that customer (a broker's never is) and nobody's shared domain: new staff of a known
  // customer. The only objection to the sender that still allows it is its own history, when that
  // history is the same customer. Offered before the narrower address.
  if (message.from !== null && (sender === null || sender.history !== undefined)) {
    const domain = message.from.address.split('@')[1] ?? '';
    if (domain !== '' && !isSharedDomain(domain)) {
      const seen = await input.probe.domain(domain);
      const [owner, more] = [...seen.settledCustomers.keys()];
      const historyAgrees =
        sender?.history === undefined || (sender.history.size === 1 && sender.history.has(owner ?? ''));
      if (
        owner !== undefined &&
        more === undefined &&
        historyAgrees &&
        domainNamedLike(domain, labelOf(input, owner))
      ) {
        out.unshift({
          text: `@${domain}`,
          shape: 'domain',
          part: 'from',
          label: `the domain this message came from (@${domain}), which ${labelOf(input, owner)}'s mail comes from`,
        });
      }
    }
  }

  // A known customer the message names (its label), when exactly one is named.
  const named = namedCustomers(input);
  if (named.length === 1) {
    const n = named[0]!;
    out.push({
      text: n.text,
      shape: 'words',
      part: n.part,
      label: `the name "${n.text}" in the ${PART_NAME[n.part]}`,
    });
  } else if (named.length > 1) {
    notes.push(`it names ${listAnd(named.map((n) => `"${n.text}"`))}, so a name cannot tell them apart`);
  }

  // The client the text says it writes for ("on behalf of our client X").
  const client = clientNamed(message.body);
  if (client !== null && !out.some((e) => e.text.toLowerCase() === client.toLowerCase())) {
    out.push({
      text: client,
      shape: 'words',
      part: 'body',
      label: `the client the body names ("${client}")`,
    });
  }

  // Shipment references, taken whole, subject first.
  for (const part of ['subject', 'body', 'attachments'] as const) {
    for (const ref of findReferences(partText(message, part))) {
      out.push({
        text: ref.text,
        shape: 'reference',
        part,
        label: `the reference ${ref.text} in the ${PART_NAME[part]}`,
      });
    }
  }
  return out;
}

/**
 * Why the sender may write for more than one customer, in words (with the customers its mail was
 * read as, when that is the only reason); null when nothing says so.
 */
async function senderWritesForOthers(
  input: SuggestInput,
): Promise<{ reason: string; history?: ReadonlyMap<string, number> } | null> {
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
  const taught = reading.candidates.filter((c) => c.evidence.some((e) => e.part === 'from'));
  if (taught.length > 0) {
    return {
      reason: `the sender's address already gives away ${listAnd(taught.map((c) => c.label))}, so it writes for more than one customer`,
    };
  }
  const history = await probe.sender(from.address);
  if (history.settledCustomers.size > 0) {
    const names = [...history.settledCustomers.keys()].map((n) => labelOf(input, n));
    return {
      reason: `mail from ${from.address} has already been read as ${listAnd(names)}, so it may write for more than one customer`,
      history: history.settledCustomers,
    };
  }
  return null;
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

/** Known entries whose label the subject or body names, as whole words (subject first). */
function namedCustomers(input: SuggestInput): { entry: string; text: string; part: MailPart }[] {
  const { learnable, definition, message } = input;
  const entries = definition.collections.get(learnable.collection);
  if (entries === undefined) return [];
  const out = new Map<string, { entry: string; text: string; part: MailPart }>();
  for (const part of ['subject', 'body'] as const) {
    for (const n of namedEntries(learnable, entries, partText(message, part))) {
      if (!out.has(n.entry)) out.set(n.entry, { ...n, part });
    }
  }
  return [...out.values()];
}

/**
 * For kinds: the words of the subject before its first reference or number, without reply and
 * forward prefixes ("Booking confirmation HBL/2026/00412/A" -> "Booking confirmation").
 */
export function subjectPhraseEvidence(message: MailMessage): Evidence[] {
  let subject = message.subject.trim();
  for (;;) {
    const stripped = subject.replace(/^(?:re|fwd?|aw|wg|tr|rv|sv|vs|antw|r)\s*(?:\[\d+\])?\s*:\s*/iu, '');
    if (stripped === subject) break;
    subject = stripped;
  }
  const firstRef = findReferences(subject)[0];
  let head = firstRef === undefined ? subject : subject.slice(0, firstRef.index);
  // The first phrase: up to a digit or a clause break, at most four words.
  head = head.split(/\d|[:;,!?()[\]|]|\s[-–—]\s/u)[0] ?? '';
  if (head.trim().split(/\s+/u).length > MAX_CUE_WORDS) return [];
  head = head
    .replace(/[\s:;,.#/-]+$/u, '')
    .replace(/\s+(?:for|on|of|from|to|für|pour|de|para|per|no\.?|nr\.?|ref\.?)$/iu, '')
    .trim();
  // A short upper-case code (INV, POD) names a kind of mail as a whole word; the kinds learnable reads it so.
  const code = /^[A-Z]{2,3}$/.test(head);
  if ((!code && head.length < MIN_EVIDENCE_CHARS) || !/\p{L}/u.test(head)) return [];
  const label = code ? `the code "${head}" in the subject` : `the words "${head}" in the subject`;
  return [{ text: head, shape: 'words', part: 'subject', label }];
}

/** Offer `e` if the learnable accepts it, it matches this message, and the corpus says it is narrow. */
async function judge(input: SuggestInput, e: Evidence): Promise<SuggestOutcome> {
  const { learnable, build, probe, message } = input;
  const source = tokenPattern(e.text, e.shape);
  const value: LessonValue = build!({ text: e.text, source, part: e.part });

  // §8: keys of `suggested` MUST be a subset of the lesson fields.
  const fields = new Set(learnable.descriptor(input.settings).lessonFields.map((f) => f.name));
  const stray = Object.keys(value).filter((k) => !fields.has(k));
  if (stray.length > 0)
    return { none: `${e.label} would need fields the ${learnable.entryNoun} does not declare` };

  // The learnable judges the value exactly as it would judge it taught (§10.1).
  const absorbed = learnable.absorb('suggestion', undefined, value, {
    activation: 0,
    taughtBy: 'suggestion',
    at: '1970-01-01T00:00:00.000Z',
  });
  if (absorbed.outcome !== 'learned') {
    return {
      none: `${e.label} is not usable (${absorbed.outcome === 'refused' ? absorbed.reason : 'it adds nothing'})`,
    };
  }
  const marks: readonly MarkSource[] = learnable.marks('suggestion', absorbed.content);
  if (marks.length === 0) return { none: `${e.label} gives nothing to match` };

  // It must match the message it was drawn from.
  const selfMatch = marks.some((m) => {
    const re = new RE2(m.source, 'iu');
    return m.parts.some((p) => re.test(partText(message, p)));
  });
  if (!selfMatch) return { none: `${e.label} would not match this message` };

  // §13.1: never a suggestion that matches mail already read as two customers, or most mail. A
  // sender's address must match none read as any customer (it may write for others).
  const result = await probe.matching(marks, learnable.collection, { hint: e.text.toLowerCase() });
  const read = [...result.settled].map(([name, n]) => `${n} as ${labelOf(input, name)}`);
  if (result.settled.size > 1 || (result.settled.size === 1 && e.shape === 'address')) {
    return { none: `${e.label} also matches messages already read (${listAnd(read)})` };
  }
  const total = await probe.total();
  if (total >= MIN_CORPUS_FOR_MAJORITY && result.matches * 2 > total) {
    return { none: `${e.label} matches ${result.matches} of the ${total} messages seen, most of them` };
  }
  const [owner] = [...result.settled.keys()];
  if (owner === undefined)
    return { suggestion: { collection: learnable.collection, value, suggestionLabel: e.label } };
  const n = result.settled.get(owner)!;
  const said =
    e.shape === 'domain'
      ? e.label
      : `${e.label}, as in ${n === 1 ? 'a message' : `${n} messages`} already read as ${labelOf(input, owner)}`;
  return { suggestion: { collection: learnable.collection, value, suggestionLabel: said, forEntry: owner } };
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

function overlaps(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== '' && y !== '' && (x.includes(y) || y.includes(x));
}

function labelOf(input: SuggestInput, entry: string): string {
  const content = input.definition.collections.get(input.learnable.collection)?.get(entry);
  return content !== undefined && input.learnable.label !== undefined
    ? input.learnable.label(entry, content)
    : entry;
}
