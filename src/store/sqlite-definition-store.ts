/**
 * The DefinitionStore port over Kysely, on SQLite (the embedded default) or PostgreSQL (replicas
 * sharing one database): the history (definition-history.ts), erasure (definition-tombstones.ts)
 * and people (people-store.ts) composed, with the two reads every task makes remembered exactly
 * (read-validity.ts): the head, and the handles of whoever taught what it matched. A commit by this
 * process, by another process on the file or by another replica on the database is seen by the next
 * read (§10.3 a lesson takes effect on the next task; §14 an erased handle is gone).
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
import { currentGeneration, RememberedReads, writing } from './read-validity.ts';

/** The DefinitionStore plus what the authority needs beyond the port's minimum. */
export interface SqliteDefinitionStore extends DefinitionStore {
  /** Version ids tombstoned for this tenant. */
  tombstonedVersionIds(tenant: TenantId): Promise<VersionId[]>;
}

/** Most person handles remembered per connection (the oldest dropped first). */
const MAX_HANDLES = 10_000;
/** Most tenants' heads remembered. */
const MAX_HEADS = 1_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
export function createSqliteDefinitionStore(db: Kysely<any>): SqliteDefinitionStore {
  const history = createDefinitionHistory(db);
  const tombstones = createDefinitionTombstones(db);
  const people = createPeopleStore(db);
  const heads = new RememberedReads<Activation | null>(db, MAX_HEADS);
  const handles = new RememberedReads<string | null>(db, MAX_HANDLES);

  return {
    ...history,
    ...tombstones,
    async head(tenant) {
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
    commit: (tenant, request) => writing(db, () => history.commit(tenant, request)),
    tombstone: (tenant, request) => writing(db, () => tombstones.tombstone(tenant, request)),
    personId: (tenant, handle) => writing(db, () => people.personId(tenant, handle)),
    erasePerson: (tenant, identifier) => writing(db, () => people.erasePerson(tenant, identifier)),
  };
}
