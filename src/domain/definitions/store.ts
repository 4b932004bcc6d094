/**
 * The storage port for definitions, owned by the domain. Every method takes the tenant scope as
 * an explicit argument (§13.2). Implementations: SQLite (embedded default), PostgreSQL.
 * Nothing here knows what an entry's content or a lesson value means (§9).
 */
import type { TenantId } from '../tenant.ts';
import type { Activation, VersionId } from './definition.ts';

/** A content-addressed object: its sha256 hex id and its canonical JSON body. */
export interface StoredObject {
  readonly hash: string;
  readonly body: string;
}

export interface CommitRequest {
  /** The definitionVersion the writer read; the commit fails with 'conflict' if another landed since. */
  readonly expectedDefinitionVersion: number;
  /** New objects (already-present hashes are ignored). */
  readonly objects: readonly StoredObject[];
  /** The root object of the new version (its hash is the versionId without "sha256:"). */
  readonly activation: Activation;
}

export interface DefinitionStore {
  /** The active activation (highest definitionVersion), or null for a tenant with no history. */
  head(tenant: TenantId): Promise<Activation | null>;
  /** Objects by hash; missing or tombstoned hashes are absent from the result. */
  getObjects(tenant: TenantId, hashes: readonly string[]): Promise<Map<string, string>>;
  /** Atomically write objects + append one activation, if the head is still `expectedDefinitionVersion`. */
  commit(tenant: TenantId, request: CommitRequest): Promise<'committed' | 'conflict'>;
  /** History, newest first. */
  history(tenant: TenantId, options?: { limit?: number; beforeVersion?: number }): Promise<Activation[]>;
  activation(tenant: TenantId, definitionVersion: number): Promise<Activation | null>;
  /** Whether a version id was ever activated for this tenant, and whether it is tombstoned. */
  versionStatus(tenant: TenantId, versionId: VersionId): Promise<'live' | 'tombstoned' | 'unknown'>;
  /** All distinct version ids this tenant ever activated. */
  versionIds(tenant: TenantId): Promise<VersionId[]>;
  /** The version ids tombstoned for this tenant (§14). */
  tombstonedVersionIds(tenant: TenantId): Promise<VersionId[]>;
  /**
   * §14 erase: in one transaction, delete the bodies of `objectHashes`, mark `versionIds`
   * tombstoned, and replace `identifier` (case-insensitively) with "[erased]" in the
   * describes/value/reason of every history row.
   */
  tombstone(
    tenant: TenantId,
    request: { versionIds: readonly VersionId[]; objectHashes: readonly string[]; identifier: string },
  ): Promise<void>;
  /** Stable internal id for a person handle (§14), created on first use. */
  personId(tenant: TenantId, handle: string): Promise<string>;
  /** The handle for a person id, or null once erased. */
  personHandle(tenant: TenantId, id: string): Promise<string | null>;
  /** Forget the handle behind every person id whose handle equals `identifier` (case-insensitive). */
  erasePerson(tenant: TenantId, identifier: string): Promise<number>;
  /** Tenants that have any history. */
  tenants(): Promise<TenantId[]>;
}
