/**
 * Reading versions for the authority (§10.3, §14): a version's content loaded through the object
 * store (each entry checked once by its learnable), the tenant's head, and the small cache of
 * whole definitions (the active one of each busy tenant, and pinned ones).
 *
 * Owns: the whole-definition cache and what an erase must drop from it (`forget`).
 * Does not own: writing versions (writes.ts), or what a version means (definitions/).
 */
import { DomainError } from '../errors.ts';
import type { TenantId } from '../tenant.ts';
import type { EntryContent, Learnable } from '../learnables/index.ts';
import type { Activation, Definition, DefinitionStore, VersionId } from '../definitions/index.ts';
import {
  createObjectReader,
  EMPTY_VERSION_ID,
  emptyDefinition,
  isVersionId,
  loadDefinition,
  MissingObjectError,
  type ObjectCache,
  type ObjectReader,
} from '../definitions/index.ts';

/**
 * Whole definitions kept in memory (the active one of each busy tenant, and pinned ones), bounded
 * by the entries they hold together rather than by a count, so that a process serving many small
 * tenants keeps each busy one's definition (issue 15: with 16, a round robin over 100 tenants
 * rebuilt every definition on every task). An entry's content is shared with the object cache;
 * what a definition adds is its maps (~100 B an entry, measured with the bench's directories).
 */
const DEFINITION_CACHE_MAX_ENTRIES = 400_000;
/** And never more definitions than this, however small. */
const DEFINITION_CACHE_MAX_DEFINITIONS = 10_000;

const entriesOf = (d: Definition): number => {
  let n = 1;
  for (const collection of d.collections.values()) n += collection.size;
  return n;
};
/** Entry contents remembered as checked, at most (then the memo starts again). */
const MAX_VALIDATED = 1_000_000;

/** The tenant's active activation, its content, and its definitionVersion (0: nothing learned). */
export interface HeadState {
  readonly head: Activation | null;
  readonly base: Definition;
  readonly n: number;
}

export interface Versions {
  /** Objects of one tenant, through the shared object cache. */
  readerFor(tenant: TenantId): ObjectReader;
  /** A version's content; `checkStatus` refuses unknown and tombstoned ids (§14). */
  load(tenant: TenantId, versionId: VersionId, checkStatus: boolean): Promise<Definition>;
  headState(tenant: TenantId): Promise<HeadState>;
  /** Keep a definition just committed (it will be asked for next). */
  remember(tenant: TenantId, d: Definition): void;
  /** §14: drop tombstoned versions and deleted objects from memory. */
  forget(tenant: TenantId, versionIds: readonly VersionId[], objectHashes: readonly string[]): void;
  /** §14: forgets every definition and object held in memory (an erase made by another process). */
  forgetAll(): number;
}

export function createVersions(deps: {
  readonly store: DefinitionStore;
  readonly cache: ObjectCache;
  readonly learnableOf: (collection: string) => Learnable | undefined;
}): Versions {
  const { store, cache, learnableOf } = deps;
  const definitions = new Map<string, Definition>();
  /** Entries held by `definitions` together. */
  let held = 0;
  const drop = (key: string): void => {
    const d = definitions.get(key);
    if (d === undefined) return;
    definitions.delete(key);
    held -= entriesOf(d);
  };
  /**
   * Content hashes judged well formed, by collection: the hash strings the object cache already
   * holds, not a new `collection + hash` string per entry (issue 51: 2.2 MB at 20,000 customers).
   */
  const validated = new Map<string, Set<string>>();
  let validatedCount = 0;

  const readerFor = (tenant: TenantId): ObjectReader =>
    createObjectReader((hashes) => store.getObjects(tenant, hashes), cache);

  function remember(tenant: TenantId, d: Definition): void {
    const key = `${tenant}\0${d.versionId}`;
    drop(key);
    definitions.set(key, d);
    held += entriesOf(d);
    // The newest stays even alone over the bound.
    while (
      definitions.size > 1 &&
      (held > DEFINITION_CACHE_MAX_ENTRIES || definitions.size > DEFINITION_CACHE_MAX_DEFINITIONS)
    )
      drop(definitions.keys().next().value as string);
  }

  /** Each stored entry is judged well formed by its learnable once per content hash. */
  function checkEntry(
    versionId: VersionId,
    collection: string,
    entry: string,
    content: EntryContent,
    hash: string,
  ): void {
    if (validated.get(collection)?.has(hash) === true) return;
    const l = learnableOf(collection);
    if (l === undefined) return;
    const v = l.validateContent(entry, content);
    if (!v.ok) {
      throw new DomainError(
        'INTERNAL',
        `The stored ${l.entryNoun} "${entry}" in version ${versionId} is not well formed (${v.reason}); restore the store from a backup.`,
      );
    }
    if (validatedCount > MAX_VALIDATED) {
      validated.clear();
      validatedCount = 0;
    }
    const hashes = validated.get(collection) ?? new Set<string>();
    validated.set(collection, hashes);
    hashes.add(hash);
    validatedCount++;
  }

  async function load(tenant: TenantId, versionId: VersionId, checkStatus: boolean): Promise<Definition> {
    if (versionId === EMPTY_VERSION_ID) return emptyDefinition();
    if (checkStatus) {
      // Asked every time, not cached: another process may have tombstoned it (§14).
      if (!isVersionId(versionId)) throw versionNotFound(tenant, versionId);
      const status = await store.versionStatus(tenant, versionId);
      if (status === 'unknown') throw versionNotFound(tenant, versionId);
      if (status === 'tombstoned') throw versionTombstoned(tenant, versionId);
    }
    const cached = definitions.get(`${tenant}\0${versionId}`);
    if (cached !== undefined) return cached;
    try {
      const d = await loadDefinition(versionId, readerFor(tenant), (collection, entry, content, hash) =>
        checkEntry(versionId, collection, entry, content, hash),
      );
      remember(tenant, d);
      return d;
    } catch (e) {
      if (e instanceof MissingObjectError) {
        const status = await store.versionStatus(tenant, versionId);
        if (status === 'tombstoned') throw versionTombstoned(tenant, versionId);
        throw new DomainError(
          'INTERNAL',
          `Version ${versionId} of tenant "${tenant}" cannot be read: ${e.message}. Restore the store from a backup.`,
          { cause: e },
        );
      }
      throw e;
    }
  }

  return {
    readerFor,
    load,
    remember,
    async headState(tenant) {
      const head = await store.head(tenant);
      const base = head === null ? emptyDefinition() : await load(tenant, head.versionId, false);
      return { head, base, n: head?.definitionVersion ?? 0 };
    },
    forgetAll() {
      const forgotten = definitions.size + cache.size;
      definitions.clear();
      held = 0;
      validated.clear();
      validatedCount = 0;
      cache.clear();
      return forgotten;
    },
    forget(tenant, versionIds, objectHashes) {
      for (const h of objectHashes) cache.delete(h);
      for (const v of versionIds) drop(`${tenant}\0${v}`);
    },
  };
}

function versionNotFound(tenant: TenantId, versionId: string): DomainError {
  return new DomainError(
    'DEFINITION_VERSION_NOT_FOUND',
    `Tenant "${tenant}" has no version ${versionId}: use a versionId from its history.`,
    { details: { versionId } },
  );
}

function versionTombstoned(tenant: TenantId, versionId: string): DomainError {
  return new DomainError(
    'DEFINITION_VERSION_TOMBSTONED',
    `Version ${versionId} of tenant "${tenant}" was tombstoned when a personal identifier was erased (§14): its content is gone and it can never be loaded or activated again. Use the active version instead.`,
    { details: { versionId } },
  );
}
