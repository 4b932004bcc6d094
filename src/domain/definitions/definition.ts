/**
 * A definition is a tenant's whole knowledge: collection -> entry name -> entry content.
 * A version is immutable (§10.3) and content-addressed: `versionId` is `sha256:` of the canonical
 * encoding of its content, computed as a Merkle root over shared, content-addressed objects (the
 * way git shares unchanged trees), so storage grows with what changed, not with the directory.
 */
import type { EntryContent } from '../learnables/index.ts';

export type VersionId = string; // "sha256:<64 hex>"

export interface Definition {
  readonly versionId: VersionId;
  /** collection -> (entry name -> content). Frozen. */
  readonly collections: ReadonlyMap<string, ReadonlyMap<string, EntryContent>>;
}

/** A definition together with the activation that made it active (what a task pins, §10.3). */
export interface PinnedDefinition {
  readonly definitionVersion: number;
  readonly definition: Definition;
}

export type ActivationAction = 'teach' | 'rollback' | 'revert' | 'import' | 'erase';

/** One row of the append-only activation history (§10.3, §13.4). */
export interface Activation {
  /** The definitionVersion this activation created; monotonic per tenant, starts at 1. */
  readonly definitionVersion: number;
  readonly action: ActivationAction;
  readonly versionId: VersionId;
  readonly previousVersionId: VersionId | null;
  /** Stable internal person id (§14). */
  readonly taughtBy: string;
  readonly reason: string | null;
  /** Phrased by the learnable (or, for rollback/import/erase, by the authority about versions, never from value keys). */
  readonly describes: string;
  readonly collection: string | null;
  readonly entry: string | null;
  /** The lesson value, kept so the owning learnable can revert exactly it; opaque here. */
  readonly value: Readonly<Record<string, unknown>> | null;
  /** For rollback: the definitionVersion rolled back to; for revert: the activation reverted. */
  readonly target: number | null;
  readonly at: string;
}
