/**
 * The DefinitionStore port over Kysely, on SQLite (the embedded default) or PostgreSQL (replicas
 * sharing one database): the history (definition-history.ts), erasure (definition-tombstones.ts)
 * and people (people-store.ts) composed, with the two reads every task makes remembered exactly
 * (read-validity.ts): the head, and the handles of whoever taught what it matched. A commit by this
 * process, by another process on the file or by another replica on the database is seen by the next
 * read (§10.3 a lesson takes effect on the next task; §14 an erased handle is gone). On PostgreSQL
 * with a change feed, the head is kept valid by its push instead (`pushed`, read-validity.ts): no
 * query per task while the feed listens, the per-request check while it does not.
 *
 * Every method takes the tenant scope explicitly (§13.2). Entry contents and lesson values are
 * opaque text here (§9).
 */
import type { Kysely } from 'kysely';
import type { Activation, VersionId } from '../domain/definitions/index.ts';
import type { DefinitionStore } from '../domain/definitions/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { createDefinitionHistory } from './definition-history.ts';
import { frozen } from './definition-rows.ts';
import { createDefinitionTombstones } from './definition-tombstones.ts';
import { createPeopleStore } from './people-store.ts';
import {
  currentGeneration,
  PushedReads,
  RememberedReads,
  writing,
  type PushedValidity,
} from './read-validity.ts';

/** The DefinitionStore plus what the authority needs beyond the port's minimum. */
export interface SqliteDefinitionStore extends DefinitionStore {
  /** Version ids tombstoned for this tenant. */
  tombstonedVersionIds(tenant: TenantId): Promise<VersionId[]>;
}

/** Most person handles remembered per connection (the oldest dropped first). */
const MAX_HANDLES = 10_000;
/** Most tenants' heads remembered. */
const MAX_HEADS = 1_000;

export interface DefinitionStoreOptions {
  /** Keeps the head valid by the change feed's push (PostgreSQL replicas); default: the per-request check only. */
  readonly pushed?: PushedValidity;
}

export function createSqliteDefinitionStore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  db: Kysely<any>,
  options: DefinitionStoreOptions = {},
): SqliteDefinitionStore {
  const { pushed } = options;
  const history = createDefinitionHistory(db);
  const tombstones = createDefinitionTombstones(db);
  const people = createPeopleStore(db);
  const heads = new RememberedReads<Activation | null>(db, MAX_HEADS);
  const handles = new RememberedReads<string | null>(db, MAX_HANDLES);
  const pushedHeads = pushed === undefined ? null : new PushedReads<Activation | null>(pushed, MAX_HEADS);
  /** A write of this process: its own next read must not wait for its notification to come back. */
  const ownWrite = async <T>(tenant: TenantId, write: () => Promise<T>): Promise<T> => {
    pushed?.bump(tenant);
    try {
      return await writing(db, write);
    } finally {
      pushed?.bump(tenant);
    }
  };

  return {
    ...history,
    ...tombstones,
    async head(tenant) {
      if (pushedHeads !== null && pushed!.live()) {
        const remembered = pushedHeads.get(tenant);
        if (remembered !== undefined) return remembered.value;
        const epoch = pushed!.epoch(tenant);
        const read = await history.head(tenant);
        const head = read === null ? null : frozen(read);
        pushedHeads.set(tenant, head, epoch);
        return head;
      }
      const generation = await currentGeneration(db);
      if (heads.has(tenant, generation)) return heads.get(tenant)!;
      const read = await history.head(tenant);
      const head = read === null ? null : frozen(read);
      heads.set(tenant, head, generation);
      return head;
    },
    async personHandle(tenant, id) {
      const generation = await currentGeneration(db);
      const key = `${tenant}\u0000${id}`;
      if (handles.has(key, generation)) return handles.get(key)!;
      const handle = await people.personHandle(tenant, id);
      handles.set(key, handle, generation);
      return handle;
    },
    // Every write through this connection makes what was remembered stale.
    commit: (tenant, request) => ownWrite(tenant, () => history.commit(tenant, request)),
    tombstone: (tenant, request) => ownWrite(tenant, () => tombstones.tombstone(tenant, request)),
    personId: (tenant, handle) => writing(db, () => people.personId(tenant, handle)),
    erasePerson: (tenant, identifier) => ownWrite(tenant, () => people.erasePerson(tenant, identifier)),
  };
}
