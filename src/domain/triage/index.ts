/**
 * The public surface of src/domain/triage: the loop over registered learnables: the triage service, readings, the corpus port, dry-run. Code outside this folder imports
 * these names from here, never a file past it.
 */
export { createCorpusProbe } from './corpus-probe.ts';
export { corpusKey, scanCorpus } from './corpus.ts';
export type {
  CorpusEntry,
  CorpusListOptions,
  CorpusPage,
  CorpusRecord,
  CorpusStore,
  SenderRow,
  ReadingSummary,
} from './corpus.ts';
export { createMatcherCache, definitionMarks } from './definition-marks.ts';
export type { MatcherCache } from './definition-marks.ts';
export type { MarkHit } from './definition-marks.ts';
export { readMessage } from './read-message.ts';
export { isColleague, readAs } from './colleague-forward.ts';
export type { Colleagues } from './colleague-forward.ts';
export type { MessageReading, TeachBlock } from './reading.ts';
export { createTriageService } from './triage-service.ts';
export type { TriageService } from './triage-service.ts';
export type { TaskPin, TriageOutcome, TriageQuestion } from './outcome.ts';
export { analysisKeeping } from './read-at.ts';
export { MAX_TEACH_ENTRIES } from './questions.ts';
export { discardedMessage } from './corpus.ts';
export { cacheEraser } from './cache-eraser.ts';
export { matchersByTenant, withinBudget } from './tenant-budget.ts';
export type { MatchersByTenant } from './tenant-budget.ts';
export { scratchDefinition, swapEntryMatcher } from './dry-run.ts';
export { checkLessonAtAgent, createLessonCheck } from './lesson-check.ts';
