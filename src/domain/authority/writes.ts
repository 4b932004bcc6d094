/**
 * How the authority writes (§10.3, §13.2, §13.4): who may (the principal's tenant and role), as
 * whom (taughtBy names a person, and a person's token writes only as itself), why (the reason),
 * and the commit itself: serialized per tenant in-process, retried from a fresh read when another
 * process committed the same definitionVersion first, then one appended activation.
 *
 * Owns: authorization, the writer checks and the commit loop shared by every writing verb.
 * Does not own: what a verb changes (absorb.ts, undo.ts, erase.ts, import-directory.ts).
 */
import { DomainError } from '../errors.ts';
import type { TenantId } from '../tenant.ts';
import type {
  Activation,
  Definition,
  DefinitionStore,
  EntryChange,
  VersionId,
} from '../definitions/index.ts';
import { applyChanges } from '../definitions/index.ts';
import type { ActivationResult } from './authority.ts';
import { checkWritesAsItself, writerOf } from './attribution.ts';
import { createKeyedMutex } from './keyed-mutex.ts';
import { reasonProblem, taughtByProblem } from './lesson-shape.ts';
import { hasRole, type Principal, type Role } from './principal.ts';
import type { HeadState, Versions } from './versions.ts';

/** How many times a write is retried from a fresh read after another process committed first. */
export const MAX_COMMIT_ATTEMPTS = 20;

/** A built version: its id and the objects it adds. */
export interface BuiltVersion {
  readonly versionId: VersionId;
  readonly objects: readonly { hash: string; body: string }[];
}

/** What a verb says about its activation; the rest (number, ids, writer) the commit fills in. */
export type ActivationDraft = Omit<
  Activation,
  'definitionVersion' | 'versionId' | 'previousVersionId' | 'writer' | 'taughtBy' | 'reason'
>;

/** A checked writer: the person's handle, their stable id (§14), the reason, the principal. */
export interface Signed {
  readonly who: string;
  readonly person: string;
  readonly reason: string | null;
  readonly principal: Principal;
}

export interface Writes {
  /** §13.2: the principal writes in its own tenant only, with `role`. */
  authorize(principal: Principal, tenant: TenantId, role: Role): void;
  /** taughtBy checked: a person (§9), and the principal itself if it is a person's token (§13.2). */
  checkPerson(taughtBy: unknown, principal: Principal, tenant: TenantId): Promise<string>;
  checkReason(reason: unknown): string | null;
  /** The person's stable id (§14: an internal id, not the address) for a checked writer. */
  sign(tenant: TenantId, principal: Principal, who: string, reason: string | null): Promise<Signed>;
  /** Run a write for one tenant: serialized in-process, retried from a fresh read on conflict. */
  write<T>(tenant: TenantId, attempt: (state: HeadState) => Promise<{ done: T } | 'conflict'>): Promise<T>;
  /** Append one activation of `built` over `state`; 'conflict' when another writer got there first. */
  commit(
    tenant: TenantId,
    state: HeadState,
    built: BuiltVersion,
    changes: readonly EntryChange[] | Definition,
    signed: Signed,
    draft: ActivationDraft,
  ): Promise<ActivationResult | 'conflict'>;
}

export function createWrites(deps: {
  readonly store: DefinitionStore;
  readonly versions: Versions;
  /** Ids or handles of service accounts; a taughtBy naming one is refused (§9). */
  readonly servicePrincipals?: readonly string[];
  readonly isServiceAccount?: (tenant: TenantId, name: string) => Promise<boolean>;
}): Writes {
  const { store, versions } = deps;
  const mutex = createKeyedMutex();
  const services = new Set((deps.servicePrincipals ?? []).map((s) => s.trim().toLowerCase()));

  return {
    authorize(principal, tenant, role) {
      // §13.2: the authority authorizes the writer itself and scopes every write to one tenant.
      if (principal.tenant !== tenant) {
        throw new DomainError(
          'FORBIDDEN',
          `"${principal.id}" belongs to tenant "${principal.tenant}" and cannot change tenant "${tenant}".`,
        );
      }
      if (!hasRole(principal, role)) {
        throw new DomainError('FORBIDDEN', `"${principal.id}" may not do this: it needs the "${role}" role.`);
      }
    },

    async checkPerson(taughtBy, principal, tenant) {
      const problem = taughtByProblem(taughtBy);
      if (problem !== null) {
        throw new DomainError('LESSON_MALFORMED', `${problem}.`, { details: { fields: ['taughtBy'] } });
      }
      const who = (taughtBy as string).trim();
      const key = who.toLowerCase();
      // §9: taughtBy identifies the human, never a service account standing in for one.
      // A person, or an operator at the CLI (someone at the shell), may name themself.
      const selfIsPerson = principal.kind === 'person' || principal.kind === 'operator';
      if (
        services.has(key) ||
        (!selfIsPerson && key === principal.id.toLowerCase()) ||
        (deps.isServiceAccount !== undefined && (await deps.isServiceAccount(tenant, who)))
      ) {
        throw new DomainError(
          'TAUGHT_BY_NOT_A_PERSON',
          `taughtBy "${who}" is a service account, not a person: give the person who taught this (e.g. "dana@warehouse.example").`,
        );
      }
      // §13.2: a person's token writes as that person; an application may name the human it acts for.
      checkWritesAsItself(principal, who);
      return who;
    },

    checkReason(reason) {
      const problem = reasonProblem(reason);
      if (problem !== null)
        throw new DomainError('LESSON_MALFORMED', `${problem}.`, { details: { fields: ['reason'] } });
      return typeof reason === 'string' && reason.trim() !== '' ? reason : null;
    },

    async sign(tenant, principal, who, reason) {
      return { who, person: await store.personId(tenant, who), reason, principal };
    },

    async write(tenant, attempt) {
      return mutex.run(tenant, async () => {
        for (let i = 0; i < MAX_COMMIT_ATTEMPTS; i++) {
          const r = await attempt(await versions.headState(tenant));
          if (r !== 'conflict') return r.done;
        }
        throw new DomainError(
          'CONFLICT',
          `Tenant "${tenant}" is being changed by other writers right now; nothing was written. Try again.`,
        );
      });
    },

    async commit(tenant, state, built, changes, signed, draft) {
      const { base, n } = state;
      const row: Activation = {
        ...draft,
        // §13.4: taughtBy, the person's stable id; writer, the principal that authenticated.
        taughtBy: signed.person,
        writer: writerOf(signed.principal),
        reason: signed.reason,
        definitionVersion: n + 1,
        versionId: built.versionId,
        previousVersionId: n === 0 ? null : base.versionId,
      };
      const r = await store.commit(tenant, {
        expectedDefinitionVersion: n,
        objects: built.objects,
        activation: row,
      });
      if (r === 'conflict') return 'conflict';
      versions.remember(
        tenant,
        Array.isArray(changes) ? applyChanges(base, changes, built.versionId) : (changes as Definition),
      );
      return {
        definitionVersion: row.definitionVersion,
        versionId: row.versionId,
        previousVersionId: row.previousVersionId,
        describes: row.describes,
      };
    },
  };
}
