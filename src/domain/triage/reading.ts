/**
 * A message's reading (§11): what the agent makes of one message under one definition version, one
 * reading per registered learnable that reads, keyed by collection. Each collection's report is its
 * learnable's (§9 holds for readings too: triage never looks inside one); the transport shows each
 * under the key its reader names.
 */
import type { LessonField, LessonValue } from '../learnables/index.ts';
import type { Reading } from '../learnables/index.ts';

/** The §8 teach block, as carried in a question's metadata under the extension URI. */
export interface TeachBlock {
  readonly collection: string;
  readonly entries: readonly string[];
  readonly suggested?: LessonValue;
  readonly suggestionLabel?: string;
  readonly lessonFields?: readonly LessonField[];
}

export interface MessageReading {
  readonly versionId: string;
  readonly definitionVersion: number;
  /** One reading per collection, in the learnables' declaration order (names are data: a Map). */
  readonly readings: ReadonlyMap<string, Reading>;
  /**
   * What the agent could not read of the message, in words (an encrypted PDF, a zip-bomb XLSX):
   * each attachment's note, in order; absent when there is none. Not evidence, and not a failure:
   * the readings above are of what could be read.
   */
  readonly notes?: readonly string[];
}
