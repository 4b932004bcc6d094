/**
 * What the learnable contract (learnable.contract.ts) is given and what its suites share: the
 * options a learnable's test passes, and a provenance stamp per activation.
 *
 * Test support only, like the contract.
 */
import type { MailMessage } from '../mail/index.ts';
import type { EntryContent, Learnable, LearnableSettings, LessonValue, Provenance } from './learnable.ts';

export interface LearnableContractOptions {
  /** Suite name, e.g. "customers". */
  readonly name: string;
  /** A fresh learnable per call. */
  readonly make: () => Learnable;
  /** The entry the suite writes into, e.g. "northgate". */
  readonly entryName: string;
  /** A value the learnable must learn. It should hold `identifier`. */
  readonly validValue: LessonValue;
  /** A second, different value it must learn; must not hold `identifier`. */
  readonly otherValidValue: LessonValue;
  /** A value it must refuse with a reason. */
  readonly invalidValue: LessonValue;
  /** The same knowledge as validValue written differently (case, spaces): unchanged (§10.2). */
  readonly equivalentValue?: LessonValue;
  /** What describe(validValue, entryName) must say, word for word (§10.4). */
  readonly expectedDescribes?: string;
  /** Text inside validValue only (§14), e.g. an address. */
  readonly identifier: string;
  /** Whether the learnable hands marks to the matcher (false for mappings). */
  readonly matchesText: boolean;
  /**
   * A message the reader reads: unsettled (and asked about, for a reader that asks) with nothing
   * taught, settled on `entryName` once validValue is taught (a collection deciding no single entry
   * settles it without a winner).
   */
  readonly readerMessage: MailMessage;
  /**
   * For a learnable that declares `creation` (issue 12.3): validValue as a lesson that asks to
   * create its entry, through the lesson field the card declares for it.
   */
  readonly createValue?: LessonValue;
  readonly settings?: LearnableSettings;
}

export const stamp = (activation: number, taughtBy = `person:${activation}`): Provenance => ({
  activation,
  taughtBy,
  at: `2026-08-17T10:00:0${activation % 10}.000Z`,
});

/** What every suite of the contract shares: the options, the settings, and two ways to learn. */
export interface Contract {
  readonly o: LearnableContractOptions;
  readonly settings: LearnableSettings;
  /** Absorb and insist on learned; returns the new content. */
  readonly learn: (
    l: Learnable,
    content: EntryContent | undefined,
    value: LessonValue,
    activation: number,
  ) => EntryContent;
  /** validValue in activation 1, otherValidValue in activation 2. */
  readonly both: (l: Learnable) => { first: EntryContent; second: EntryContent };
}
