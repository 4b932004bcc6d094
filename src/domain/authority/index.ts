/**
 * The public surface of src/domain/authority: absorbing lessons, rollback, revert, erase and import under tenant scope; principals and roles. Code outside this folder imports
 * these names from here, never a file past it.
 */
export type {
  ActivationResult,
  Authority,
  DirectoryImport,
  EmbeddedAuthority,
  EraseResult,
  RuleInForce,
} from './authority.ts';
export { createAuthority } from './create-authority.ts';
export { ensureDemoTenant } from './ensure-demo-tenant.ts';
export type { Lesson, LessonResult } from './lesson.ts';
export { ROLES, hasRole } from './principal.ts';
export type { Principal, Role, TokenVerifier } from './principal.ts';
export type { ErasedFrom, Eraser } from './eraser.ts';
export { runErasers } from './eraser.ts';
export { checkEraseIdentifier, MIN_ERASE_IDENTIFIER_CHARS } from './erase.ts';
export { createsEntryHere, entryUnknown } from './unknown-entry.ts';
export { handleKey, displayProvenance } from './attribution.ts';
export { entryNameProblem } from './lesson-shape.ts';
export { refileVerdict } from './refile-verdict.ts';
