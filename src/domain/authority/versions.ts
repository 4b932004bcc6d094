/**
 * Reading versions for the authority (§10.3, §14): a version's content loaded through the object
 * store (each entry checked once by its learnable), the tenant's head, and what is kept in memory
 * of each tenant's versions: its parsed objects and whole definitions (the active one, pinned ones).
 *
 * Owns: those caches, their size estimate (`held`), and what an erase must drop from them (`forget`).
 * Does not own: writing versions (writes.ts), or what a version means (definitions/).
 */
import { DomainError } from '../errors.ts';
import type { TenantId } from '../tenant.ts';
import type { EntryContent, Learnable } from '../learnables/index.ts';
import type { Activation, Definition, DefinitionStore, VersionId } from '../definitions/index.ts';
import type { TenantMemoryPart } from '../tenant-memory.ts';
import {
  createObjectCache,
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
 * What this process keeps of one tenant's versions: its parsed objects and its whole definitions
 * (the active one, and pinned ones). Kept per tenant, so that one budget (tenant-memory.ts) can
 * forget a tenant whole, and an erase reaches only its tenant's objects.
 */
interface TenantHeld {
  readonly objects: ObjectCache;
  /** Least recently used first. */
  readonly definitions: Map<VersionId, Definition>;
  /** Entries the definitions hold together. */
  entries: number;
  /**
   * Content hashes judged well formed, by collection: the hash strings the object cache already
   * holds, not a new `collection + hash` string per entry (2.2 MB at 20,000 customers).
   */
  readonly validated: Map<string, Set<string>>;
  validatedCount: number;
}

/**
 * Nets for a process without a budget (the CLI, tests), across tenants: whole definitions are
 * bounded by the entries they hold together rather than by a count, so that a process serving many
 * small tenants keeps each busy one's (with 16, a round robin over 100 tenants rebuilt
 * every definition on every task), and objects by their count. Past a net, the least recently used
 * tenant's definitions (then its objects) go first; the tenant in use stays.
 */
const DEFINITION_CACHE_MAX_ENTRIES = 400_000;
const OBJECT_CACHE_MAX_OBJECTS = 400_000;
/**
 * Heap bytes a whole definition adds per entry over the objects it shares with the object cache:
 * its collection maps and the version tree's nodes (tenant-memory.test.ts checks the sum against a
 * heap measure).
 */
export const DEFINITION_BYTES_PER_ENTRY = 50;

const entriesOf = (d: Definition): number => {
  let n = 1;
  for (const collection of d.collections.values()) n += collection.size;
  return n;
};
/** Entry contents remembered as checked per tenant, at most (then its memo starts again). */
const MAX_VALIDATED = 1_000_000;

/** The tenant's active activation, its content, and its definitionVersion (0: nothing learned). */
export interface HeadState {
  readonly head: Activation | null;
  readonly base: Definition;
  readonly n: number;
}

export interface Versions {
  /** Objects of one tenant, through its object cache. */
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
  /** What this process holds of `tenant`'s versions, as one part of the memory budget. */
  readonly held: TenantMemoryPart;
}

export function createVersions(deps: {
  readonly store: DefinitionStore;
  readonly learnableOf: (collection: string) => Learnable | undefined;
}): Versions {
  const { store, learnableOf } = deps;
  /** Least recently used tenant first. */
  const tenants = new Map<TenantId, TenantHeld>();
  let entriesHeld = 0;
  const objectsHeld = (): number => {
    let n = 0;
    for (const t of tenants.values()) n += t.objects.size;
    return n;
  };
  const heldBy = (tenant: TenantId): TenantHeld => {
    let held = tenants.get(tenant);
    if (held === undefined)
      held = {
        objects: createObjectCache(),
        definitions: new Map(),
        entries: 0,
        validated: new Map(),
        validatedCount: 0,
      };
    else tenants.delete(tenant);
    tenants.set(tenant, held);
    return held;
  };
  const dropDefinition = (held: TenantHeld, versionId: VersionId): void => {
    const d = held.definitions.get(versionId);
    if (d === undefined) return;
    held.definitions.delete(versionId);
    held.entries -= entriesOf(d);
    entriesHeld -= entriesOf(d);
  };
  const forgetTenant = (tenant: TenantId): void => {
    const held = tenants.get(tenant);
    if (held === undefined) return;
    tenants.delete(tenant);
    entriesHeld -= held.entries;
    held.objects.clear();
  };
  /** The nets: least recently used tenants' definitions, then their objects, until within both. */
  const withinNets = (inUse: TenantId): void => {
    for (const [tenant, held] of tenants) {
      if (entriesHeld <= DEFINITION_CACHE_MAX_ENTRIES || tenant === inUse) break;
      for (const versionId of [...held.definitions.keys()]) dropDefinition(held, versionId);
    }
    if (objectsHeld() <= OBJECT_CACHE_MAX_OBJECTS) return;
    for (const tenant of [...tenants.keys()]) {
      if (tenant === inUse || objectsHeld() <= OBJECT_CACHE_MAX_OBJECTS) break;
      forgetTenant(tenant);
    }
  };
  const readerFor = (tenant: TenantId): ObjectReader =>
    createObjectReader((hashes) => store.getObjects(tenant, hashes), heldBy(tenant).objects);

  function remember(tenant: TenantId, d: Definition): void {
    const held = heldBy(tenant);
    dropDefinition(held, d.versionId);
    held.definitions.set(d.versionId, d);
    held.entries += entriesOf(d);
    entriesHeld += entriesOf(d);
    withinNets(tenant);
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
    const held = tenants.get(tenant);
    const cached = held?.definitions.get(versionId);
    if (held !== undefined && cached !== undefined) {
      heldBy(tenant); // the most recent tenant, and
      held.definitions.delete(versionId); // its most recent definition
      held.definitions.set(versionId, cached);
      return cached;
    }
    try {
      const tenantHeld = heldBy(tenant);
      const d = await loadDefinition(versionId, readerFor(tenant), (collection, entry, content, hash) =>
        checkEntry(learnableOf, tenantHeld, versionId, collection, entry, content, hash),
      );
      remember(tenant, d);
      return d;
    } catch (e) {
      if (!(e instanceof MissingObjectError)) throw e;
      throw await unreadable(store, tenant, versionId, e);
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
      let forgotten = 0;
      for (const held of tenants.values()) forgotten += held.definitions.size + held.objects.size;
      for (const tenant of [...tenants.keys()]) forgetTenant(tenant);
      return forgotten;
    },
    forget(tenant, versionIds, objectHashes) {
      const held = tenants.get(tenant);
      if (held === undefined) return;
      for (const h of objectHashes) held.objects.delete(h);
      for (const v of versionIds) dropDefinition(held, v);
    },
    held: {
      name: 'definitions',
      bytesOf(tenant) {
        const held = tenants.get(tenant);
        return held === undefined ? 0 : held.objects.bytes + held.entries * DEFINITION_BYTES_PER_ENTRY;
      },
      forget: forgetTenant,
    },
  };
}

/** Each stored entry is judged well formed by its learnable once per content hash. */
function checkEntry(
  learnableOf: (collection: string) => Learnable | undefined,
  held: TenantHeld,
  versionId: VersionId,
  collection: string,
  entry: string,
  content: EntryContent,
  hash: string,
): void {
  if (held.validated.get(collection)?.has(hash) === true) return;
  const l = learnableOf(collection);
  if (l === undefined) return;
  const v = l.validateContent(entry, content);
  if (!v.ok) {
    throw new DomainError(
      'INTERNAL',
      `The stored ${l.entryNoun} "${entry}" in version ${versionId} is not well formed (${v.reason}); restore the store from a backup.`,
    );
  }
  if (held.validatedCount > MAX_VALIDATED) {
    held.validated.clear();
    held.validatedCount = 0;
  }
  const hashes = held.validated.get(collection) ?? new Set<string>();
  held.validated.set(collection, hashes);
  hashes.add(hash);
  held.validatedCount++;
}

/** A version with an object missing: tombstoned meanwhile (§14), or a store to restore. */
async function unreadable(
  store: DefinitionStore,
  tenant: TenantId,
  versionId: VersionId,
  e: MissingObjectError,
): Promise<DomainError> {
  const status = await store.versionStatus(tenant, versionId);
  if (status === 'tombstoned') return versionTombstoned(tenant, versionId);
  return new DomainError(
    'INTERNAL',
    `Version ${versionId} of tenant "${tenant}" cannot be read: ${e.message}. Restore the store from a backup.`,
    { cause: e },
  );
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
