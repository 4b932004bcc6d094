/**
 * The Learnable contract (§5, §9, §10). A learnable owns its vocabulary: it alone reads the keys
 * of a lesson value, judges it (§10.1), absorbs it idempotently (§10.2), phrases what it learned
 * (§10.4 `describes`), and knows how to take its own value back out (revert, erase).
 *
 * Everything outside a learnable treats a lesson value as opaque (§9) and an entry's content as an
 * opaque JSON document owned by that learnable.
 */
import type { JsonObject } from '../json.ts';
import type { MailPart } from '../mail/mail-message.ts';
import type { Reader } from './reader.ts';

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
