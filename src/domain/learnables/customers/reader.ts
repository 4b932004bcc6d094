/**
 * The customers reader (§11): whose message this is, under the shared decision rule
 * (../read-marked.ts) that the customers learnable's `how` states. "Reads as Northgate Motors Ltd,
 * on billing@origin.example"; unsettled: "Still cannot tell whose this is: nothing matched." or who
 * matched and where. Shown as `customer`; asks whose shipment it is; suggests from evidence.ts.
 */
import type { Learnable } from '../learnable.ts';
import { listAnd, markedReader, shownTexts, type ReadingWords } from '../read-marked.ts';
import type { MarkHit, Reader } from '../learnable.ts';
import { suggest, suggestInput } from '../suggest.ts';
import { customerEvidence } from './evidence.ts';
import { customerSuggestionValue } from './suggest-value.ts';

export const CUSTOMER_WORDS: ReadingWords = {
  question: "I can't tell whose shipment this is: who should it go to?",
  cannotTell: 'Still cannot tell whose this is',
  settled: (label: string, hits: readonly MarkHit[]) => `Reads as ${label}, on ${listAnd(shownTexts(hits))}`,
  name: (label: string) => label,
};

const NOTHING_FOUND =
  'I found no reference or customer name in it that only one customer’s mail would contain';

export function customersReader(learnable: Learnable): Reader {
  return markedReader({
    learnable,
    shownAs: 'customer',
    words: CUSTOMER_WORDS,
    suggest: (reading, l, context) =>
      suggest(suggestInput(reading, l, customerSuggestionValue, context), customerEvidence, NOTHING_FOUND),
  });
}
