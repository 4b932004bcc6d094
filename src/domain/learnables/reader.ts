/**
 * The reader contract: what a learnable supplies, beside learn, describe and erase, so that triage
 * can read its collection in a message without knowing what the collection is (§9: a learnable with
 * an entirely different notion of a lesson is a deployment, not a release). A reader finds its
 * evidence in the message, decides (§11), asks in words and proposes its teach block's suggestion
 * (§8). Triage only loops over readers, asks about unsettled readings whose reader asks, keeps the
 * `winner`s in the corpus, and hands each reading's `report` to the transport under `shownAs`.
 *
 * Owns: the shapes between a learnable's reader and the triage loop, and the corpus port a
 * suggestion asks (`CorpusProbe`, implemented by triage over the corpus store). Does not own: any
 * collection's decision rule (each learnable's reader.ts) or storage.
 */
import type { MarkHit as EngineHit } from '../matching/index.ts';
import type { EntryContent, LearnableSettings, LessonValue, MarkSource } from './learnable.ts';
import type { MailMessage } from '../mail/mail-message.ts';

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
