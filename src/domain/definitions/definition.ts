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

/**
 * What kind of principal wrote an activation: a token's holder (person, application, service), an
 * operator at the CLI, or `unknown` for rows written before writers were recorded (migration 006).
 */
export type WriterKind = 'person' | 'application' | 'service' | 'operator' | 'unknown';

/**
 * The authenticated principal that wrote an activation (§13.2, §13.4), kept beside `taughtBy`
 * (who the writer says taught it), so the record holds who actually wrote, not only what was claimed.
 */
export interface Writer {
  /** The principal's id as its token (or the CLI's `--as`) names it, e.g. "app:preshipment". */
  readonly principal: string;
  readonly kind: WriterKind;
  /** The public id of the token used ("tok_3f9a…"); null for the CLI and for unknown writers. */
  readonly tokenId: string | null;
}

/** One row of the append-only activation history (§10.3, §13.4). */
export interface Activation {
  /** The definitionVersion this activation created; monotonic per tenant, starts at 1. */
  readonly definitionVersion: number;
  readonly action: ActivationAction;
  readonly versionId: VersionId;
  readonly previousVersionId: VersionId | null;
  /** Stable internal person id (§14). */
  readonly taughtBy: string;
  /** Who actually wrote it: the authenticated principal (§13.2). */
  readonly writer: Writer;
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
