/**
 * What every verb of the authority shares: its options, the learnable of each collection, the
 * versions it reads (versions.ts) and the way it writes (writes.ts). createAuthority() builds one
 * per authority and hands it to each verb's module.
 *
 * Owns: AuthorityOptions and assembling the shared parts. Does not own any verb.
 */
import type { Clock } from '../clock.ts';
import type { TenantId } from '../tenant.ts';
import type { AlreadyRead, EntryContent, Learnable, LearnableSettings } from '../learnables/index.ts';
import type { Definition, DefinitionStore } from '../definitions/index.ts';
import type { Eraser } from './eraser.ts';
import { createVersions, type Versions } from './versions.ts';
import { createWrites, type Writes } from './writes.ts';

/**
 * §13.1: what the mail already read makes of a lesson, asked before it is absorbed
 * (triage/lesson-check.ts, wired where a corpus is at hand: the composition root, the CLI).
 */
export type LessonCheck = (
  tenant: TenantId,
  lesson: {
    readonly learnable: Learnable;
    readonly entry: string;
    /** The entry as the lesson leaves it. */
    readonly content: EntryContent;
    readonly base: Definition;
    readonly activation: number;
  },
) => Promise<AlreadyRead>;

export interface AuthorityOptions {
  readonly store: DefinitionStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly clock: Clock;
  /** Ids or handles of service accounts; a lesson taughtBy one of them is refused (§9). */
  readonly servicePrincipals?: readonly string[];
  /**
   * Whether `name` holds a token of this tenant as an application or a service (not a person):
   * such a taughtBy is refused too (§9). Absent: only `servicePrincipals` and the writer itself.
   */
  readonly isServiceAccount?: (tenant: TenantId, name: string) => Promise<boolean>;
  /** §14: every other store and cache an erase must reach, called in order after the tombstones. */
  readonly erasers?: readonly Eraser[];
  /**
   * §13.1: every taught lesson is tried on the mail already read, and refused when it
   * would re-file a message already settled or answered, unless its value asks to. Absent (an
   * authority with no corpus): lessons are absorbed unchecked.
   */
  readonly checkLesson?: LessonCheck;
}

export interface AuthorityContext {
  readonly options: AuthorityOptions;
  readonly store: DefinitionStore;
  readonly learnables: readonly Learnable[];
  learnableOf(collection: string): Learnable | undefined;
  readonly versions: Versions;
  readonly writes: Writes;
}

export function createAuthorityContext(options: AuthorityOptions): AuthorityContext {
  const { store, learnables } = options;
  const learnableOf = (collection: string) => learnables.find((l) => l.collection === collection);
  const versions = createVersions({
    store,
    learnableOf,
  });
  const writes = createWrites({
    store,
    versions,
    ...(options.servicePrincipals === undefined ? {} : { servicePrincipals: options.servicePrincipals }),
    ...(options.isServiceAccount === undefined ? {} : { isServiceAccount: options.isServiceAccount }),
  });
  return { options, store, learnables, learnableOf, versions, writes };
}
