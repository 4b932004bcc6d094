/**
 * Undoing (§10.3, §13.4): a rollback makes the content of an earlier definitionVersion active
 * again; a revert takes back exactly what one lesson added, keeping everything taught after it.
 * Both are new activations: history is append-only.
 *
 * Owns: the two undo verbs. Does not own: what a lesson added (its learnable's `revert` says).
 */
import { DomainError } from '../errors.ts';
import type { TenantId } from '../tenant.ts';
import { buildVersion, EMPTY_VERSION_ID, type VersionId } from '../definitions/index.ts';
import type { ActivationResult } from './authority.ts';
import type { AuthorityContext } from './authority-context.ts';
import { collectionUnknown } from './lesson-shape.ts';
import type { Principal } from './principal.ts';
import type { Signed } from './writes.ts';

/** The writer checks both verbs share: the teach role, a person as taughtBy, a reason. */
async function signUndo(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  input: { taughtBy: string; reason?: string },
  check: () => void = () => {},
): Promise<Signed> {
  ctx.writes.authorize(principal, tenant, 'teach');
  const who = await ctx.writes.checkPerson(input.taughtBy, principal, tenant);
  const reason = ctx.writes.checkReason(input.reason);
  check();
  return ctx.writes.sign(tenant, principal, who, reason);
}

export async function rollback(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  input: { to: number; taughtBy: string; reason?: string },
): Promise<ActivationResult> {
  const signed = await signUndo(ctx, tenant, principal, input, () => {
    if (!Number.isSafeInteger(input.to) || input.to < 0) {
      throw new DomainError(
        'DEFINITION_VERSION_NOT_FOUND',
        `"${String(input.to)}" is not a definitionVersion: give a whole number from the history.`,
      );
    }
  });
  return ctx.writes.write(tenant, async (state) => {
    const { head, base, n } = state;
    let targetId: VersionId;
    if (input.to === 0) targetId = EMPTY_VERSION_ID;
    else {
      const target = input.to > n ? null : await ctx.store.activation(tenant, input.to);
      if (target === null) {
        throw new DomainError(
          'DEFINITION_VERSION_NOT_FOUND',
          `Tenant "${tenant}" has no definitionVersion ${input.to}: its history runs from 1 to ${n}.`,
        );
      }
      targetId = target.versionId;
    }
    if (head === null || targetId === base.versionId) {
      return {
        done: {
          definitionVersion: n,
          versionId: base.versionId,
          previousVersionId: head?.previousVersionId ?? null,
          describes: `The content of definitionVersion ${input.to} is already active; nothing changed.`,
        },
      };
    }
    // Loading checks it is not tombstoned (§14) and that every object is still present.
    const target = await ctx.versions.load(tenant, targetId, true);
    const r = await ctx.writes.commit(tenant, state, { versionId: targetId, objects: [] }, target, signed, {
      action: 'rollback',
      describes: `rolled back to the content of definitionVersion ${input.to}`,
      collection: null,
      entry: null,
      value: null,
      target: input.to,
      at: ctx.options.clock.now(),
    });
    return r === 'conflict' ? 'conflict' : { done: r };
  });
}

export async function revert(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  input: { activation: number; taughtBy: string; reason?: string },
): Promise<ActivationResult> {
  const signed = await signUndo(ctx, tenant, principal, input);
  return ctx.writes.write(tenant, async (state) => {
    const old = Number.isSafeInteger(input.activation)
      ? await ctx.store.activation(tenant, input.activation)
      : null;
    if (old === null) {
      throw new DomainError(
        'ACTIVATION_NOT_FOUND',
        `Tenant "${tenant}" has no activation ${String(input.activation)}: pick a number from the history.`,
      );
    }
    if (old.action !== 'teach' || old.collection === null || old.entry === null || old.value === null) {
      throw new DomainError(
        'NOTHING_TO_REVERT',
        `Activation ${old.definitionVersion} was a ${old.action}, not a lesson; to undo it, roll back to the definitionVersion before it.`,
      );
    }
    const l = ctx.learnableOf(old.collection);
    if (l === undefined) throw collectionUnknown(old.collection, ctx.learnables);
    const { head, base } = state;
    const content = base.collections.get(old.collection)?.get(old.entry);
    const removal =
      content === undefined
        ? ({ outcome: 'unchanged' } as const)
        : l.revert(old.entry, content, old.value, old.definitionVersion);
    if (removal.outcome === 'unchanged') {
      throw new DomainError(
        'NOTHING_TO_REVERT',
        `What activation ${old.definitionVersion} taught ${old.entry} is no longer in the active version (it was already reverted, rolled back or erased); nothing to revert.`,
      );
    }
    const changes = [{ collection: old.collection, entry: old.entry, content: removal.content }];
    const built = await buildVersion(head?.versionId ?? null, changes, ctx.versions.readerFor(tenant));
    const r = await ctx.writes.commit(tenant, state, built, changes, signed, {
      action: 'revert',
      describes: `took back activation ${old.definitionVersion}: ${l.describe(old.value, old.entry)}`,
      collection: old.collection,
      entry: old.entry,
      value: old.value,
      target: old.definitionVersion,
      at: ctx.options.clock.now(),
    });
    return r === 'conflict' ? 'conflict' : { done: r };
  });
}
