/**
 * The public surface of src/domain/definitions: content-addressed versions, activation history, the definition store port, scrubbing for erase. Code outside this folder imports
 * these names from here, never a file past it.
 */
export { isVersionId } from './content-address.ts';
export type {
  Activation,
  ActivationAction,
  Definition,
  PinnedDefinition,
  VersionId,
  Writer,
} from './definition.ts';
export { MissingObjectError, createObjectCache, createObjectReader } from './object-cache.ts';
export type { ObjectCache, ObjectReader } from './object-cache.ts';
export { ERASED, identifierMatcher, scrubJson, scrubText, textMentions } from './scrub.ts';
export type { CommitRequest, DefinitionStore } from './store.ts';
export {
  EMPTY_VERSION_ID,
  applyChanges,
  buildVersion,
  emptyDefinition,
  loadDefinition,
  walkVersions,
} from './version-tree.ts';
export type { EntryChange } from './version-tree.ts';
export { erasedKey, mentionsEncoded } from './scrub.ts';
export type { WriterKind } from './definition.ts';
