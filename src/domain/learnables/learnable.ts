/**
 * The Learnable contract (§5, §9, §10). A learnable owns its vocabulary: it alone reads the keys
 * of a lesson value, judges it (§10.1), absorbs it idempotently (§10.2), phrases what it learned
 * (§10.4 `describes`), and knows how to take its own value back out (revert, erase).
 *
 * Everything outside a learnable treats a lesson value as opaque (§9) and an entry's content as an
 * opaque JSON document owned by that learnable.
 */
import type { JsonObject } from '../json.ts';
import type { MailMessage, MailPart } from '../mail/index.ts';
import type { MarkHit as EngineHit } from '../matching/index.ts';

/** §6.3 */
export interface LessonField {
  readonly name: string;
  readonly label: string;
  readonly kind: string;
  readonly choices?: readonly string[];
  readonly default?: string;
  readonly help?: string;
}

/** §6.2 */
export interface LearnableDescriptor {
  readonly collection: string;
  readonly entry: string;
  readonly skills?: readonly string[];
  readonly teaches: string;
  readonly how: string;
  readonly decidedBy: 'rules' | 'model' | 'hybrid';
  readonly lessonFields: readonly LessonField[];
}

/** A lesson value: opaque to every layer except the learnable it is addressed to (§9). */
export type LessonValue = Readonly<Record<string, unknown>>;

/**
 * An entry's content: a JSON object owned by its learnable. Stored content-addressed, so it must
 * be plain JSON (no undefined, no functions, no class instances).
 */
export type EntryContent = JsonObject;

/**
 * Who added something, stamped by the authority into whatever the learnable adds, so that
 * "which rules were in force and who put them there" is answerable from stored state (§13.4).
 * `taughtBy` is a stable internal person id (§14), never the raw e-mail address.
 */
export interface Provenance {
  /** The definitionVersion created by the activation that added the item. */
  readonly activation: number;
  readonly taughtBy: string;
  /** ISO-8601 time of the activation. */
  readonly at: string;
}

export interface LearnedRule {
  readonly describes: string;
  readonly provenance: Provenance;
}

/** One mark to run on re2, case-insensitively, on the parts of a message it names. */
export interface MarkSource {
  /** The re2 source, exactly as validated at absorption. */
  readonly source: string;
  readonly parts: readonly MailPart[];
  /** The mark as taught, for readings ("billing@origin\\.example"). */
  readonly mark: string;
  /** The `where` as taught ("from", "any", ...), for readings. */
  readonly where: string;
  readonly provenance: Provenance;
}

/** A message already read whose filing a lesson would change. */
export interface RefiledMessage {
  readonly key: string;
  readonly subject: string;
  /** When it was sent (its Date header), else when it was first seen: the day a person remembers. */
  readonly date: string;
  /** The entry it is filed under now (settled, or answered by a person), and its label. */
  readonly was: string;
  readonly wasLabel: string;
  /** What the lesson would make of it: another entry, or null when it would be undecided. */
  readonly becomes: string | null;
}

/** §13.1: what the mail already read makes of a lesson. */
export interface AlreadyRead {
  /** Messages already read (text kept) that the lesson's new marks match. */
  readonly matches: number;
  /** Messages kept. */
  readonly total: number;
  /** How many of them it would file differently. */
  readonly refiled: number;
  /** The first few of those, oldest first. */
  readonly examples: readonly RefiledMessage[];
}

/** How a learnable lets a person re-file mail already read, and says when a lesson would. */
export interface Refiling {
  /** The lesson field (§6.3) a person chooses it in: a refusal points at it (`details.field`). */
  readonly field: string;
  /** Whether `value` says the person means to re-file what it changes. */
  allows(value: LessonValue): boolean;
  /** The refusal, in the learnable's words: how many, whose, a few of them, and how to force it. */
  refusal(entryLabel: string, read: AlreadyRead): string;
}

export type Absorption =
  | { readonly outcome: 'learned'; readonly content: EntryContent; readonly describes: string }
  | { readonly outcome: 'unchanged'; readonly describes: string }
  | { readonly outcome: 'refused'; readonly reason: string };

export type Removal =
  { readonly outcome: 'changed'; readonly content: EntryContent | null } | { readonly outcome: 'unchanged' };

/** Settings a learnable's descriptor and decision rule depend on (one source of truth). */
export interface LearnableSettings {
  /** Identification margin: the lead the best customer needs over the next, as a share of all points. */
  readonly identificationMargin: number;
}

export interface Learnable {
  /** The collection's name (§6.2 `collection`), unique within a declaration. */
  readonly collection: string;
  /** Singular noun for one entry (§6.2 `entry`). */
  readonly entryNoun: string;
  /** Whether a lesson may create an entry that does not exist yet. */
  readonly createsEntries: boolean;

  /**
   * How a taught lesson explicitly asks to create an entry that does not exist yet, so that a typo
   * never makes one by accident (issue 12.3): through a lesson field the descriptor declares (§6.3),
   * so a blind client renders it. `asks(value)`: whether this value asks to, or is one `absorb`
   * refuses anyway (the person then hears the learnable's own reason, §10.1); `how`: what to tell a
   * person whose lesson names no existing entry, e.g. `fill in "Customer's name, only for a new
   * customer" to create a new customer`. Absent: any lesson may create an entry (when
   * `createsEntries`). Import ignores it.
   */
  readonly creation?: { asks(value: LessonValue): boolean; readonly how: string };

  /**
   * §13.1: a lesson is tried on the mail already read before it is absorbed, and one that
   * would change how a message already settled or answered is filed is refused, unless its value
   * says the person means it, through a choice field the descriptor declares (§6.3). Absent: such a
   * lesson is refused in general words and cannot be forced.
   */
  readonly refiling?: Refiling;

  /** §6.2: the descriptor, `how` generated from the real rule and its real settings. */
  descriptor(settings: LearnableSettings): LearnableDescriptor;

  /**
   * §10.1/§10.2: judge and absorb `value` into `content` (undefined when the entry does not
   * exist yet). Returns learned (with the new content), unchanged, or refused with a reason
   * phrased for the person who typed the value. Never throws for a bad value.
   */
  absorb(
    entryName: string,
    content: EntryContent | undefined,
    value: LessonValue,
    stamp: Provenance,
  ): Absorption;

  /**
   * §10.4: what this value means, in words a person can audit. `entryName`, when given, lets a
   * learnable whose phrase names the entry say so ("reads waybill from the 'Air Waybill No' column").
   */
  describe(value: LessonValue, entryName?: string): string;

  /**
   * The entry's display name for readings (§11 candidates' `label`: "Northgate Motors Ltd").
   * Optional; callers fall back to the entry name.
   */
  label?(entryName: string, content: EntryContent): string;

  /**
   * For learnables that map manifest columns: the column headings the entry has been seen under, in
   * the order they were learned (the reader takes the first hit). Optional; absent means none.
   */
  headings?(entryName: string, content: EntryContent): readonly string[];

  /**
   * The marks of `message` the corpus keeps a track record for, beyond its sender's
   * address and domain (the customers learnable: `family:` and the shape of each reference family
   * in the new text; kinds, issue 49: the cues `hits`, this collection's, matched). Optional;
   * absent means none.
   */
  recordKeys?(message: MailMessage, hits: readonly MarkHit[]): readonly string[];

  /**
   * The texts in `text` that name one of this collection's entries, as written (the
   * customers learnable: a customer's name in any form people write it). Other learnables leave
   * them out of what they suggest (a kind's cue never carries a customer's name). Optional.
   */
  namesIn?(text: string, entries: ReadonlyMap<string, EntryContent>): readonly string[];

  /**
   * Take back exactly what `value` added in activation `activation`, keeping everything else.
   * `content: null` removes the entry (it held nothing but what is being reverted).
   */
  revert(entryName: string, content: EntryContent, value: LessonValue, activation: number): Removal;

  /** §14: whether the entry holds `identifier` (case-insensitive, escaped or not). */
  mentions(content: EntryContent, identifier: string): boolean;

  /** §14: the entry without anything holding `identifier`; null when nothing would remain. */
  erase(content: EntryContent, identifier: string): Removal;

  /** Every rule the entry holds, phrased by the learnable, with who added it (§13.4). */
  rules(entryName: string, content: EntryContent): readonly LearnedRule[];

  /**
   * The marks this entry wants matched against mail, already validated at absorption (§13.3).
   * Empty for learnables that do not match text (e.g. mappings).
   */
  marks(entryName: string, content: EntryContent): readonly MarkSource[];

  /**
   * How this collection is read in a message (reader.ts): its evidence, decision, question and
   * suggestion. Absent: the collection is taught and stored but never read.
   */
  readonly reader?: Reader;

  /** Whether the entry content is well formed (used on import and when loading a stored version). */
  validateContent(
    entryName: string,
    content: unknown,
  ): { ok: true; content: EntryContent } | { ok: false; reason: string };
}

// The reader: what a learnable supplies so that triage can read its collection in a
// message without knowing what the collection is. A reader finds its evidence in the message,
// decides (§11), asks in words and proposes its teach block's suggestion (§8). Triage only loops
// over readers, asks about unsettled readings whose reader asks, keeps the `winner`s in the corpus,
// and hands each reading's `report` to the transport under `shownAs`. `CorpusProbe` is the port a
// suggestion asks; triage implements it over the corpus store.

/** A learnable's mark as the matcher is given it: with the collection and entry it belongs to. */
export interface IndexedMark extends MarkSource {
  readonly collection: string;
  readonly entry: string;
}

/** A hit of one of a version's marks: the engine hands back the mark it was given. */
export type MarkHit = EngineHit<IndexedMark>;

/** Resolves a stable person id (§14) to what readings show; returns the id when unknown. */
export type ResolvePerson = (personId: string) => string;

/** What one learnable made of one message under one definition version (§11). */
export interface Reading {
  readonly collection: string;
  /** The key the report is shown under in a task's reading and in show-back (the reader's `shownAs`). */
  readonly shownAs: string;
  /** §11: settled, or unsettled. */
  readonly settled: boolean;
  /**
   * For a collection that decides one entry per message: that entry, or null while unsettled.
   * Undefined for a collection that decides no single entry (a manifest's fields).
   */
  readonly winner: string | null | undefined;
  /** The winner as a person reads it (its label), where there is one (mail filed by it). */
  readonly winnerLabel?: string;
  /** How many things the reading settled (a dry run's "newly settled" for readings without a winner). */
  readonly settledCount: number;
  /** What decides the reading, evidence aside: two readings with equal JSON here read the message alike. */
  readonly decision: unknown;
  /** Entries the reading points to, most likely first (a question's teach block lists them first). */
  readonly likely: readonly string[];
  /** The report shown (§11), plain JSON, opaque to triage and transports. */
  readonly report: unknown;
  /** The reading's line in a task's summary text; null when it adds none. */
  readonly line: string | null;
  /**
   * True when the reading settled on marks whose authority is their sender's track record
   * (the sender's address or domain alone) and was made without it: triage reads again with it.
   */
  readonly needsSenderRecord?: true;
}

export interface ReadInput {
  /** This collection's entries in the version read, undefined when it has none. */
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  /** Every hit of the version's matcher on the message (any collection's; a reader keeps its own). */
  readonly hits: readonly MarkHit[];
  readonly message: MailMessage;
  readonly settings: LearnableSettings;
  readonly resolvePerson: ResolvePerson;
  /** The readings of the collections this reader declared in `reads`, read before it. */
  readonly earlier: ReadonlyMap<string, Reading>;
  /**
   * The track record of the message's sender, when triage fetched it because a reading
   * asked for it (`Reading.needsSenderRecord`); undefined otherwise (a dry run, a lesson check).
   */
  readonly record?: SenderRecord;
}

/** How many messages a sender's mail was finally read or answered as one entry, and the last one's time. */
export interface Carried {
  readonly messages: number;
  /** ISO-8601 time the last of them was first seen. */
  readonly lastAt: string;
}

/**
 * Issue 38 (the track record, §13.1): what mail from one address, and from every address at its
 * domain, was finally read or answered as, by collection and entry (the message being read left
 * out). Kept incrementally by the corpus store as messages are read and answered; erased with §14.
 */
export interface SenderRecord {
  readonly address: string;
  /** Collection → entry → what mail from this address carried. Names are data: Maps. */
  readonly byAddress: ReadonlyMap<string, ReadonlyMap<string, Carried>>;
  /** The same for every address at the address's domain. */
  readonly byDomain: ReadonlyMap<string, ReadonlyMap<string, Carried>>;
  /** The same for each of the message's other record keys (`Learnable.recordKeys`), by key. */
  readonly byKey: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, Carried>>>;
}

/** A person's decision on one question. */
export interface PersonDecision {
  readonly entry: string;
  readonly answeredBy: string;
  readonly at: string;
}

/** A proposed lesson value drawn from the evidence (§8); never wider than that evidence (§13.1). */
export interface Suggestion {
  readonly collection: string;
  readonly value: LessonValue;
  /** Where it came from, in a person's words: "the address this message came from". */
  readonly suggestionLabel: string;
  /**
   * The entry the evidence points to, when every message already read that the suggestion matches
   * was read as that one entry; absent when nothing read so far says whose it is.
   */
  readonly forEntry?: string;
}

export type SuggestOutcome = { readonly suggestion: Suggestion } | { readonly none: string };

export interface ProbeResult {
  /** Messages (other than the one excepted) any of the marks matches. */
  readonly matches: number;
  /** Of those, how many were last read as each settled entry of the collection asked about. */
  readonly settled: ReadonlyMap<string, number>;
  /**
   * How widely the messages read as each entry are spread: distinct senders, threads
   * (subjects without their Re:/Fwd: chain) and days (the Date header's, else when seen), so that
   * a coincidence (one sender's one thread on one day) cannot earn a wider mark.
   */
  readonly spread: ReadonlyMap<string, Spread>;
  /** Senders of matched messages nobody decided (distinct, at most a few): their other mail may point elsewhere. */
  readonly undecidedSenders: readonly string[];
}

/** Distinct senders, threads and days of some messages. */
export interface Spread {
  readonly senders: number;
  readonly threads: number;
  readonly days: number;
  /** The one address all of them came from, when there is only one. */
  readonly soleSender?: string;
}

export interface SenderHistory {
  /** Messages from this address (other than the one excepted). */
  readonly messages: number;
  /** What they were last read as in the collection asked about (settled entries), with counts. */
  readonly settled: ReadonlyMap<string, number>;
}

/**
 * Questions a suggestion asks of the messages already read (§8, §13.1), leaving out the message
 * being asked about. Every answer is about one named collection's last readings.
 */
export interface CorpusProbe {
  /** Messages kept, other than the one excepted. */
  total(): Promise<number>;
  matching(
    marks: readonly MarkSource[],
    collection: string,
    options?: { readonly hint?: string },
  ): Promise<ProbeResult>;
  sender(address: string, collection: string): Promise<SenderHistory>;
  /** The same, for every address at a domain. */
  domain(domain: string, collection: string): Promise<SenderHistory>;
}

export interface SuggestContext {
  readonly message: MailMessage;
  /** This collection's entries in the version read (names and labels a message may mention). */
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly probe: CorpusProbe;
  readonly settings: LearnableSettings;
  /**
   * The texts in `text` that name other collections' entries, or that their marks matched
   * in this message: another collection's evidence, never this one's to suggest.
   */
  readonly namedElsewhere: (text: string) => Promise<readonly string[]>;
}

export interface Reader {
  /** The key this collection's report is shown under (kept from the wire as it was: `customer`, `manifests`). */
  readonly shownAs: string;
  /** Collections whose readings this one uses (`ReadInput.earlier`); triage reads those first. */
  readonly reads: readonly string[];
  read(input: ReadInput): Reading;
  /**
   * The question for an unsettled reading a person can settle, in words, ending with what the agent
   * saw. Absent: this collection never asks.
   */
  question?(reading: Reading): string;
  /** §8: the teach block's suggestion for an unsettled reading, or why there is none, in words. */
  suggest?(reading: Reading, context: SuggestContext): Promise<SuggestOutcome>;
  /** The reading once a question was answered by a person, or (decision undefined) by nobody. */
  decided?(reading: Reading, decision: PersonDecision | undefined): Reading;
}

/**
 * How readings name `entry`: its label (the learnable's `label`) in `entries`, the collection of the
 * version read, else its name. The one rule; every reading, question and view names entries by it.
 */
export function labelOf(
  learnable: Pick<Learnable, 'label'>,
  entries: ReadonlyMap<string, EntryContent> | undefined,
  entry: string,
): string {
  const content = entries?.get(entry);
  return content !== undefined && learnable.label !== undefined ? learnable.label(entry, content) : entry;
}
