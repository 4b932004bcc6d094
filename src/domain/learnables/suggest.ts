/**
 * Suggestions (§8, §13.1), the part every marked learnable shares: when a reading is unsettled,
 * offer the first piece of evidence its learnable found in the message that is NEVER wider than
 * that evidence, with a `suggestionLabel` in a person's words:
 *
 * - every literal is escaped for re2 and anchored so it cannot match inside a longer token
 *   (literal-pattern.ts);
 * - text a mark already matched gives away the entry that holds it, and is not offered for another;
 * - nothing is offered that the learnable refuses (§10.1), that would not match this message, that
 *   matches messages the corpus read as two different entries, or most of the corpus. When
 *   everything it matches was read as one entry, it is offered as that entry's (`forEntry`), and
 *   the label says so; a sender's address never is (it may write for others).
 * - evidence wider than its own text (a reference family, a sender's domain: issue 14) carries
 *   `recurs`: it is offered only when the messages already read that carry it earn its scope
 *   (earned-scope.ts: enough of them, from more than one sender or thread, on more than one day),
 *   every one of them read as the same entry, so its scope never exceeds what was seen (§8): the
 *   same probe is the dry run, and a match read as anyone else is a refusal.
 *
 * Key-agnostic (§9): the value is built by the learnable's own builder and judged by the learnable
 * itself. Keys are checked against the learnable's declared lesson fields (§8: a subset of them).
 *
 * Owns: judging evidence. Does not own: finding it (each learnable's evidence.ts), or the corpus
 * (the `CorpusProbe` port, reader.ts).
 */
import RE2 from 're2';
import type { EntryContent, Learnable, LearnableSettings, LessonValue, MarkSource } from './learnable.ts';
import { labelOf as entryLabel } from './learnable.ts';
import type { MailMessage, MailPart } from '../mail/index.ts';
import { partText } from '../mail/index.ts';
import { displayText, tokenPattern, type TokenShape } from './literal-pattern.ts';
import { listAnd, type CollectionReading } from './read-marked.ts';
import { pointsElsewhere, spreadShortfall } from './earned-scope.ts';
import type { CorpusProbe, SuggestContext, SuggestOutcome } from './learnable.ts';

/** Below this many other messages, "matches most of the corpus" says nothing. */
export const MIN_CORPUS_FOR_MAJORITY = 20;
/**
 * When words carry an entry (`Evidence.carries`): at least `minMessages` messages already
 * read or answered as that entry carry them, and at most one in `rareAmong` of those read as any
 * entry carrying them was another entry's. Words of one message (a vessel, a town) and words every
 * entry's mail uses ("client", "please find") are never offered.
 */
export const CARRIES = { minMessages: 2, rareAmong: 10 } as const;

export const CARRIES_HOW =
  `A cue is suggested only when it recurs in mail already read or answered as one kind (at least ${CARRIES.minMessages} messages) ` +
  `and is rare in mail of the other kinds (fewer than one in ${CARRIES.rareAmong} of the mail carrying it); words seen in one message only ` +
  `(a vessel, a town, a quantity) and words every kind's mail uses are never suggested, and when nothing qualifies the question says so.`;

/** Shortest evidence text offered, in characters (the matcher's literal rule, §13.3). */
export const MIN_EVIDENCE_CHARS = 4;

/** What a learnable found in the message, ready to be taught. */
export interface SuggestionEvidence {
  /** The text exactly as it appears in the message ("PA-2026-0901"). */
  readonly text: string;
  /** The re2 source matching that text and nothing wider (escaped and anchored). */
  readonly source: string;
  /** The part of the message it was found in, and the narrowest place to look for it. */
  readonly part: MailPart;
  /** Where to look instead of `part` ('any': a customer's own name, in whatever part). */
  readonly where?: 'any';
}

/** Turns evidence into a lesson value of the learnable's own vocabulary (§9: only it knows the keys). */
export type SuggestionValueBuilder = (evidence: SuggestionEvidence) => LessonValue;

export interface SuggestInput {
  readonly message: MailMessage;
  /** The reading of the collection a suggestion is asked for. */
  readonly reading: CollectionReading;
  readonly learnable: Learnable;
  readonly build: SuggestionValueBuilder;
  /** The collection's entries in the version read (names and labels, for a name the message mentions). */
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly probe: CorpusProbe;
  readonly settings: LearnableSettings;
}

export interface Evidence {
  readonly text: string;
  readonly shape: TokenShape;
  readonly part: MailPart;
  /**
   * Looked for anywhere in the new text, not only in `part`: a customer's own full name
   * names it in any part, and the corpus check below refuses it once mail read as another carries it.
   */
  readonly where?: 'any';
  /** In a person's words: "the reference PA-2026-0901 in the subject". */
  readonly label: string;
  /** The re2 source when it is wider than `text` itself (a family); default: `text` anchored by `shape`. */
  readonly source?: string;
  /** Literal text every match contains, for the corpus prefilter; default: `text`. */
  readonly hint?: string;
  /**
   * Offered only when the messages already read that match it earn its scope (earned-scope.ts),
   * all read as one entry; the label then gives that evidence in words ("references NVMA-####-#### on 3 messages, all X").
   */
  readonly recurs?: {
    label(messages: number, owner: string): string;
    /**
     * Why the one sender all of them came from may be writing its own series rather than
     * the owner's (a forwarder's job numbers), in words; null when it is evidently the owner's.
     */
    soleSender?(sender: string, owner: string): string | null;
  };
  /**
   * Words that stand for an entry across messages (a kind's cue) are offered only once
   * they recur in mail already read as one entry and are rare in mail of the others (CARRIES).
   */
  readonly carries?: true;
  /**
   * For a sender's address: the one entry whose mail it may already match, because all
   * mail read from it was that entry's and the address is named like it (customers/evidence.ts).
   * Without it, an address matching any mail already read is refused. For a customer's name (issue
   * 49): the customer it names; mail read as anyone else refuses it.
   */
  readonly ownedBy?: string;
}

/** A learnable's evidence, best first; `notes` collects why something was not offered. */
export type FindEvidence = (input: SuggestInput, notes: string[]) => Evidence[] | Promise<Evidence[]>;

export const PART_NAME: Readonly<Record<MailPart, string>> = {
  from: 'from line',
  subject: 'subject',
  body: 'body',
  attachments: 'attachments',
  quoted: 'quoted text', // mail/parts.ts: the quoted, forwarded and signature text
};

/** The input of `suggest` from a reader's context. */
export function suggestInput(
  reading: CollectionReading,
  learnable: Learnable,
  build: SuggestionValueBuilder,
  context: SuggestContext,
): SuggestInput {
  return { reading, learnable, build, ...context };
}

/** A suggestion for an unsettled reading, or why there is none (`nothingFound` when no evidence). */
export async function suggest(
  input: SuggestInput,
  find: FindEvidence,
  nothingFound: string,
): Promise<SuggestOutcome> {
  const { reading } = input;
  if (reading.settled) return { none: 'The message is already settled; there is nothing to teach.' };

  const notes: string[] = [];
  const evidence = await find(input, notes);

  for (const e of evidence) {
    // Text an existing mark already matched gives away the entry that holds it, not another one;
    // words that carry an entry are offered for the one the mail already read says.
    const owner = reading.candidates.find((c) =>
      c.evidence.some((m) => m.part === e.part && overlaps(displayText(m.text), e.text)),
    );
    if (owner !== undefined && e.carries === undefined) {
      notes.push(`${e.label} already gives away ${owner.label}`);
      continue;
    }
    const verdict = await judge(input, e);
    if ('suggestion' in verdict) return verdict;
    notes.push(verdict.none);
  }
  if (evidence.length === 0) notes.push(nothingFound);
  return { none: `No suggestion: ${notes.join('; ')}.` };
}

/** Offer `e` if the learnable accepts it, it matches this message, and the corpus says it is narrow. */
async function judge(input: SuggestInput, e: Evidence): Promise<SuggestOutcome> {
  const { learnable, build, probe, message } = input;
  const source = e.source ?? tokenPattern(e.text, e.shape);
  const value: LessonValue = build({
    text: e.text,
    source,
    part: e.part,
    ...(e.where === undefined ? {} : { where: e.where }),
  });

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
  const result = await probe.matching(marks, learnable.collection, {
    hint: (e.hint ?? e.text).toLowerCase(),
  });
  const read = [...result.settled].map(([name, n]) => `${n} as ${labelOf(input, name)}`);
  if (e.carries !== undefined) return carried(input, e, value, result.settled, read);
  const ownAddress = e.ownedBy !== undefined && result.settled.has(e.ownedBy);
  // A customer's name likewise: mail read as anyone but the customer it names refuses it.
  const owned = e.shape === 'address' || e.ownedBy !== undefined;
  if (result.settled.size > 1 || (result.settled.size === 1 && owned && !ownAddress)) {
    return { none: `${e.label} also matches messages already read (${listAnd(read)})` };
  }
  const total = await probe.total();
  if (total >= MIN_CORPUS_FOR_MAJORITY && result.matches * 2 > total) {
    return { none: `${e.label} matches ${result.matches} of the ${total} messages seen, most of them` };
  }
  const [owner] = [...result.settled.keys()];
  if (e.recurs !== undefined) {
    // §8: what is wider than this message's own text is offered only as far as it was seen, and only
    // once a coincidence cannot explain it (earned-scope.ts).
    const n = owner === undefined ? 0 : result.settled.get(owner)!;
    const spread = owner === undefined ? undefined : result.spread.get(owner);
    const short = spreadShortfall(n, spread);
    if (owner === undefined || short !== null)
      return { none: `${e.label} ${short ?? 'is on no message already read'}` };
    const sole =
      spread?.soleSender === undefined ? null : (e.recurs.soleSender?.(spread.soleSender, owner) ?? null);
    if (sole !== null) return { none: `${e.label} ${sole}` };
    const elsewhere = await undecidedElsewhere(input, result.undecidedSenders, owner);
    if (elsewhere !== null) {
      return {
        none: `${e.label} is also on undecided mail from ${elsewhere.sender}, whose mail is ${labelOf(input, elsewhere.entry)}'s`,
      };
    }
    const suggestionLabel = e.recurs.label(n, labelOf(input, owner));
    return { suggestion: { collection: learnable.collection, value, suggestionLabel, forEntry: owner } };
  }
  if (owner === undefined)
    return { suggestion: { collection: learnable.collection, value, suggestionLabel: e.label } };
  const n = result.settled.get(owner)!;
  const said = `${e.label}, as in ${n === 1 ? 'a message' : `${n} messages`} already read as ${labelOf(input, owner)}`;
  return { suggestion: { collection: learnable.collection, value, suggestionLabel: said, forEntry: owner } };
}

/** Words offered for the entry whose mail they carry, when they recur there and are rare elsewhere. */
function carried(
  input: SuggestInput,
  e: Evidence,
  value: LessonValue,
  settled: ReadonlyMap<string, number>,
  read: readonly string[],
): SuggestOutcome {
  const [owner, n] = [...settled].reduce<[string | undefined, number]>(
    (best, [name, k]) => (k > best[1] ? [name, k] : best),
    [undefined, 0],
  );
  const elsewhere = [...settled.values()].reduce((a, k) => a + k, 0) - n;
  if (owner === undefined || n < CARRIES.minMessages) {
    return {
      none: `${e.label} ${n === 0 ? 'is on no message already read' : `is on only ${n} message already read`}, fewer than the ${CARRIES.minMessages} that would show it carries the ${input.learnable.entryNoun}`,
    };
  }
  if (elsewhere * CARRIES.rareAmong >= n + elsewhere) {
    return {
      none: `${e.label} is common in mail of more than one ${input.learnable.entryNoun} (${listAnd(read)})`,
    };
  }
  const said = `${e.label}, as in ${n} messages already read as ${labelOf(input, owner)}`;
  return {
    suggestion: { collection: input.learnable.collection, value, suggestionLabel: said, forEntry: owner },
  };
}

/**
 * The first sender of undecided mail carrying the evidence (this message's sender among
 * them) whose decided mail is all one other entry's: the series is then someone else's too.
 */
async function undecidedElsewhere(
  input: SuggestInput,
  senders: readonly string[],
  owner: string,
): Promise<{ sender: string; entry: string } | null> {
  const own = input.message.from?.address;
  for (const sender of own === undefined ? senders : [own, ...senders.filter((s) => s !== own)]) {
    const entry = pointsElsewhere(await input.probe.sender(sender, input.learnable.collection), owner);
    if (entry !== null) return { sender, entry };
  }
  return null;
}

function overlaps(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== '' && y !== '' && (x.includes(y) || y.includes(x));
}

/** The entry's display name (its label), or its name. */
export function labelOf(input: Pick<SuggestInput, 'entries' | 'learnable'>, entry: string): string {
  return entryLabel(input.learnable, input.entries, entry);
}
