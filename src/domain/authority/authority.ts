/**
 * The authority's public surface (§10, §12, §13.2, §13.4, §14). Implemented by createAuthority()
 * over a DefinitionStore; also reachable over HTTP (/authority/v1) from another process.
 */
import type { TenantId } from '../tenant.ts';
import type { TenantMemoryPart } from '../tenant-memory.ts';
import type { Activation, PinnedDefinition, VersionId } from '../definitions/index.ts';
import type { LearnableDescriptor } from '../learnables/index.ts';
import type { Lesson, LessonResult } from './lesson.ts';
import type { Principal } from './principal.ts';
import type { ErasedFrom } from './eraser.ts';

/**
 * An activation as shown to people: taughtBy resolved to the handle (or "[erased]"), and `writer`,
 * the authenticated principal that wrote it (§13.4).
 */
export interface HistoryEntry extends Omit<Activation, 'taughtBy'> {
  readonly taughtBy: string;
  readonly tombstoned: boolean;
}

/** One rule in force at a version, and who put it there (§13.4). */
export interface RuleInForce {
  readonly collection: string;
  readonly entry: string;
  /** Phrased by the learnable. */
  readonly describes: string;
  readonly activation: number;
  /** The person's handle ("[erased]" once forgotten, §14). */
  readonly taughtBy: string;
  /** The application or CLI operator that wrote it on that person's behalf; null when they wrote it. */
  readonly via: string | null;
  readonly at: string;
}

export interface ActivationResult {
  readonly definitionVersion: number;
  readonly versionId: VersionId;
  readonly previousVersionId: VersionId | null;
  readonly describes: string;
}

export interface EraseResult {
  readonly activated: ActivationResult | null;
  readonly tombstonedVersions: readonly VersionId[];
  readonly peopleForgotten: number;
  /** §14: what the erase changed in every store and cache that can hold the identifier, in order. */
  readonly stores: readonly ErasedFrom[];
}

/**
 * A directory as imported from JSON (fixtures/directory/demo.json): collection -> entry -> lesson
 * values, each absorbed by its learnable exactly as a taught lesson would be. Opaque here (§9).
 */
export interface DirectoryImport {
  readonly collections: Readonly<
    Record<string, Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>>
  >;
}

export interface Authority {
  /** §6.2 descriptors of every registered learnable, in declaration order. */
  descriptors(): readonly LearnableDescriptor[];
  /** §10: absorb one lesson; refusals throw DomainError LESSON_REFUSED carrying the learnable's reason. */
  absorb(tenant: TenantId, principal: Principal, lesson: Lesson): Promise<LessonResult>;
  /**
   * The active definition (an empty version 0 view when the tenant has no history). `fresh`: a
   * remote source asks its authority now rather than reuse a recently fetched head (show-back reads
   * under the version active NOW, §11); the embedded authority is always fresh.
   */
  active(tenant: TenantId, options?: { fresh?: boolean }): Promise<PinnedDefinition>;
  /** Any version by id (§10.3: a pinned task can finish); tombstoned -> DEFINITION_VERSION_TOMBSTONED. */
  load(tenant: TenantId, versionId: VersionId): Promise<PinnedDefinition['definition']>;
  history(tenant: TenantId, options?: { limit?: number; beforeVersion?: number }): Promise<HistoryEntry[]>;
  /** Activate the version that definitionVersion `to` activated, as a new history entry (§10.3). */
  rollback(
    tenant: TenantId,
    principal: Principal,
    input: { to: number; taughtBy: string; reason?: string },
  ): Promise<ActivationResult>;
  /** Undo exactly what activation `activation` added, keeping everything after it. */
  revert(
    tenant: TenantId,
    principal: Principal,
    input: { activation: number; taughtBy: string; reason?: string },
  ): Promise<ActivationResult>;
  /** §14 */
  erase(
    tenant: TenantId,
    principal: Principal,
    input: { identifier: string; taughtBy: string; reason?: string },
  ): Promise<EraseResult>;
  import(
    tenant: TenantId,
    principal: Principal,
    input: { directory: DirectoryImport; taughtBy: string; reason?: string },
  ): Promise<ActivationResult | null>;
  /** §13.4: the rules in force at a version and who put them there. */
  rulesInForce(tenant: TenantId, versionId: VersionId): Promise<RuleInForce[]>;
  /**
   * §13.4, §14: the handles behind stable person ids (as provenance records them), for display;
   * null for an id that was erased or never existed in this tenant. A provenance id of a lesson an
   * application wrote for a person reads "dana@…, via app:preshipment" (attribution.ts).
   */
  personHandles(tenant: TenantId, ids: readonly string[]): Promise<ReadonlyMap<string, string | null>>;
}

/** The authority this process embeds: also holds definitions in memory, which it can forget. */
export interface EmbeddedAuthority extends Authority {
  /**
   * §14: forgets every definition and object it holds in memory, as a restart would; for an erase
   * made by another process on the same store (the CLI), whose identifier it cannot know.
   * Returns how many it held.
   */
  forgetMemory(): number;
  /** Its definitions and objects, by tenant: one part of the process's memory budget. */
  readonly memory: TenantMemoryPart;
}
