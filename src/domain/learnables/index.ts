/**
 * The public surface of src/domain/learnables: the Learnable contract (with its reader), the registry, and the reading kit other layers show. Code outside this folder imports
 * these names from here, never a file past it.
 */
export type {
  Absorption,
  AlreadyRead,
  CorpusProbe,
  EntryContent,
  IndexedMark,
  Learnable,
  LearnableDescriptor,
  LearnableSettings,
  LearnedRule,
  LessonField,
  LessonValue,
  MarkHit,
  PersonDecision,
  RefiledMessage,
  Refiling,
  Provenance,
  Reader,
  Reading,
  Removal,
  ResolvePerson,
  SenderHistory,
  SenderRecord,
  Carried,
  SuggestOutcome,
  Suggestion,
} from './learnable.ts';
export { labelOf } from './learnable.ts';
export { createLearnables } from './registry.ts';
export { decidedReport } from './read-marked.ts';
export type { CollectionReading } from './read-marked.ts';
export type { ManifestReading } from './mappings/reader.ts';
export { customerLabelFromName, CUSTOMER_NEW_ENTRY_FIELD } from './customers/customers.ts';
export { createMappingsLearnable } from './mappings/mappings.ts';
export { clientNamed } from './customers/evidence.ts';
export { findReferences } from './references.ts';
export { referenceFamily } from './customers/families.ts';
export { EARNED_SCOPE } from './earned-scope.ts';
export { isSharedDomain } from './customers/shared-domains.ts';
