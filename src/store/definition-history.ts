/**
 * Versions and their activation history over Kysely, on SQLite or PostgreSQL: the head, objects by
 * hash, the commit of a new activation, and reads of the history. Objects are content-addressed and
 * shared; the history is append-only and its (tenant, definition_version) primary key makes a lost
 * update impossible: a second writer that read the same head gets 'conflict' and the authority
 * retries from a fresh read (§10.2). On PostgreSQL commits for one tenant also take the tenant's
 * advisory lock, so replicas' lessons queue rather than collide.
 *
 * Deliberately not here: erasure (definition-tombstones.ts), people (people-store.ts), remembering
 * reads across calls (sqlite-definition-store.ts composes that).
 */
import type { Kysely } from 'kysely';
import type { Activation } from '../domain/definitions/index.ts';
import type { DefinitionStore } from '../domain/definitions/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { chunks, toActivation, toActivationRow, type ActivationRow } from './definition-rows.ts';
import { advisoryLock, isWriteConflict } from './dialect.ts';

type HistoryStore = Pick<
  DefinitionStore,
  'head' | 'getObjects' | 'commit' | 'history' | 'activation' | 'versionStatus' | 'versionIds' | 'tenants'
>;

class CommitConflict extends Error {}

/** The advisory lock scope of a tenant's definitions (dialect.ts). */
export const DEFINITIONS_LOCK = 'definitions';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
export function createDefinitionHistory(db: Kysely<any>): HistoryStore {
  return {
    async head(tenant) {
      const r = (await db
        .selectFrom('activations')
        .selectAll()
        .where('tenant', '=', tenant)
        .orderBy('definition_version', 'desc')
        .limit(1)
        .executeTakeFirst()) as ActivationRow | undefined;
      return r === undefined ? null : toActivation(r);
    },

    async getObjects(tenant, hashes) {
      const out = new Map<string, string>();
      for (const part of chunks([...new Set(hashes)])) {
        const rows = (await db
          .selectFrom('objects')
          .select(['hash', 'body'])
          .where('tenant', '=', tenant)
          .where('hash', 'in', part)
          .where('body', 'is not', null)
          .execute()) as { hash: string; body: string }[];
        for (const r of rows) out.set(r.hash, r.body);
      }
      return out;
    },

    async commit(tenant, request) {
      const a = request.activation;
      if (a.definitionVersion !== request.expectedDefinitionVersion + 1) {
        throw new Error(
          `commit: activation ${a.definitionVersion} does not follow the expected head ${request.expectedDefinitionVersion}`,
        );
      }
      try {
        await db.transaction().execute(async (trx) => {
          // §10.2: one writer per tenant at a time, on every replica (PostgreSQL; SQLite's write lock).
          await advisoryLock(trx, DEFINITIONS_LOCK, tenant);
          // The activation goes first: it takes the write lock and settles the race before any object is written.
          const inserted = await trx
            .insertInto('activations')
            .values(toActivationRow(tenant, a))
            .onConflict((oc) => oc.columns(['tenant', 'definition_version']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) throw new CommitConflict();
          // Versions are contiguous, so a taken row means the head moved since the writer read it.
          for (const part of chunks(request.objects)) {
            await trx
              .insertInto('objects')
              .values(part.map((o) => ({ tenant, hash: o.hash, body: o.body })))
              // An object erased earlier (body null) may legitimately be taught again.
              .onConflict((oc) =>
                oc
                  .columns(['tenant', 'hash'])
                  .doUpdateSet((eb) => ({ body: eb.ref('excluded.body') }))
                  .where('objects.body', 'is', null),
              )
              .execute();
          }
        });
        return 'committed';
      } catch (e) {
        if (e instanceof CommitConflict || isWriteConflict(e)) return 'conflict';
        throw e;
      }
    },

    async history(tenant, options) {
      let q = db.selectFrom('activations').selectAll().where('tenant', '=', tenant);
      if (options?.beforeVersion !== undefined) q = q.where('definition_version', '<', options.beforeVersion);
      q = q.orderBy('definition_version', 'desc');
      if (options?.limit !== undefined) q = q.limit(options.limit);
      return ((await q.execute()) as ActivationRow[]).map(toActivation);
    },

    async activation(tenant, definitionVersion): Promise<Activation | null> {
      const r = (await db
        .selectFrom('activations')
        .selectAll()
        .where('tenant', '=', tenant)
        .where('definition_version', '=', definitionVersion)
        .executeTakeFirst()) as ActivationRow | undefined;
      return r === undefined ? null : toActivation(r);
    },

    async versionStatus(tenant, versionId) {
      const t = await db
        .selectFrom('tombstones')
        .select('version_id')
        .where('tenant', '=', tenant)
        .where('version_id', '=', versionId)
        .executeTakeFirst();
      if (t !== undefined) return 'tombstoned';
      const a = await db
        .selectFrom('activations')
        .select('definition_version')
        .where('tenant', '=', tenant)
        .where('version_id', '=', versionId)
        .limit(1)
        .executeTakeFirst();
      return a === undefined ? 'unknown' : 'live';
    },

    async versionIds(tenant) {
      const rows = (await db
        .selectFrom('activations')
        .select('version_id')
        .distinct()
        .where('tenant', '=', tenant)
        .execute()) as { version_id: string }[];
      return rows.map((r) => r.version_id);
    },

    async tenants() {
      const rows = (await db.selectFrom('activations').select('tenant').distinct().execute()) as {
        tenant: string;
      }[];
      return rows.map((r) => r.tenant as TenantId);
    },
  };
}
