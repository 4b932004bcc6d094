/**
 * What triage answers for one message: the version it was read on (the task's pin, §10.3), the
 * reading, and the questions a person must answer (§8). Types only; triage-service.ts makes them,
 * questions.ts words the questions, answers.ts keeps and restores them.
 */
import type { MessageReading, TeachBlock } from './reading.ts';

/** The definition a task is pinned to (§10.3), kept in the task's metadata. */
export interface TaskPin {
  readonly definitionVersion: number;
  readonly versionId: string;
}

/** One thing the agent could not decide and must ask a person (§8). */
export interface TriageQuestion {
  readonly collection: string;
  /** The question in a person's words, with what the agent saw. */
  readonly text: string;
  /** The teach-block data; the A2A adapter emits it only to clients that activated the extension (§7). */
  readonly teach: TeachBlock;
  /** Why there is no suggestion, in words, when there is none. */
  readonly noSuggestion?: string;
  /**
   * Every entry an answer may name: all entries of the collection in the pinned version, with their
   * labels. The teach block's `entries` is capped for size; a person may still name any of these.
   */
  readonly choices: readonly { readonly name: string; readonly label: string }[];
}

export interface TriageOutcome {
  readonly pin: TaskPin;
  readonly reading: MessageReading;
  /** Empty when every question a learnable covers is settled. */
  readonly questions: readonly TriageQuestion[];
  /** The message's corpus key (for recheck by key). */
  readonly key: string;
}
