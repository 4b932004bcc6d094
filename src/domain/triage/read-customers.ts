/**
 * The customers reading (§11): whose message this is, under the shared decision rule (read-marked.ts)
 * that the customers learnable's `how` states. "Reads as Northgate Motors Ltd, on billing@origin.example";
 * unsettled: "Still cannot tell whose this is: nothing matched." or who matched and where.
 */
import type { EntryContent, Learnable, LearnableSettings } from '../learnables/learnable.ts';
import type { MarkHit } from './definition-marks.ts';
import {
  listAnd,
  readMarkedCollection,
  shownTexts,
  type ReadingWords,
  type ResolvePerson,
} from './read-marked.ts';
import type { CollectionReading } from './reading.ts';

export const CUSTOMER_WORDS: ReadingWords = {
  cannotTell: 'Still cannot tell whose this is',
  settled: (label: string, hits: readonly MarkHit[]) => `Reads as ${label}, on ${listAnd(shownTexts(hits))}`,
  name: (label: string) => label,
};

export function readCustomers(input: {
  readonly learnable: Learnable;
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly hits: readonly MarkHit[];
  readonly settings: LearnableSettings;
  readonly resolvePerson: ResolvePerson;
}): CollectionReading {
  return readMarkedCollection({ ...input, words: CUSTOMER_WORDS });
}
