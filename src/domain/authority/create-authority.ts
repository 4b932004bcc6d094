/**
 * The authority (§10, §13.2, §13.4, §14): absorbs lessons into immutable, content-addressed
 * versions through the learnable that owns the collection, keeps the append-only activation
 * history, rolls back, reverts one lesson, erases a personal identifier and imports a directory.
 * Each verb lives in its own module over one shared context (authority-context.ts):
 * absorb.ts, undo.ts (rollback, revert), erase.ts, import-directory.ts, reads.ts.
 *
 * Lessons for one tenant serialize: an in-process per-tenant mutex, plus the store's commit
 * conflict (another process won the same definitionVersion) and a retry from a fresh read (writes.ts).
 *
 * Deliberately blind to the meaning of a lesson value and of an entry's content (§9): it passes
 * them to the learnable and stores them as opaque JSON. Does no I/O of its own (the store does).
 */
import { absorb } from './absorb.ts';
import type { EmbeddedAuthority } from './authority.ts';
import { createAuthorityContext, type AuthorityOptions } from './authority-context.ts';
import { erase } from './erase.ts';
import { importDirectory } from './import-directory.ts';
import { authorityReads } from './reads.ts';
import { revert, rollback } from './undo.ts';

export type { AuthorityOptions } from './authority-context.ts';
export { MAX_COMMIT_ATTEMPTS } from './writes.ts';
export { MIN_ERASE_IDENTIFIER_CHARS } from './erase.ts';

export function createAuthority(options: AuthorityOptions): EmbeddedAuthority {
  const ctx = createAuthorityContext(options);
  return {
    ...authorityReads(ctx),
    absorb: (tenant, principal, lesson) => absorb(ctx, tenant, principal, lesson),
    rollback: (tenant, principal, input) => rollback(ctx, tenant, principal, input),
    revert: (tenant, principal, input) => revert(ctx, tenant, principal, input),
    erase: (tenant, principal, input) => erase(ctx, tenant, principal, input),
    import: (tenant, principal, input) => importDirectory(ctx, tenant, principal, input),
    forgetMemory: () => ctx.versions.forgetAll(),
    memory: ctx.versions.held,
  };
}
