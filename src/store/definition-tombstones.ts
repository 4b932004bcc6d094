/**
 * §14 erase of the definitions over Kysely, on SQLite or PostgreSQL: tombstoned versions, object
 * bodies dropped, the identifier scrubbed from the audit trail (the rows themselves remain), and the
 * tenant's kept regex analyses deleted (a cache whose sources may hold the identifier). One
 * transaction, so an erase is all there or not at all.
 *
 * Deliberately not here: deciding what to erase (src/domain/authority), the other stores (sqlite-erasure.ts).
 */
import type { Kysely } from 'kysely';
import type { DefinitionStore } from '../domain/definitions/index.ts';
import { identifierMatcher, scrubJson, scrubText } from '../domain/definitions/index.ts';
import { chunks, type ActivationRow } from './definition-rows.ts';
import { advisoryLock } from './dialect.ts';
import { DEFINITIONS_LOCK } from './definition-history.ts';

export function createDefinitionTombstones(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  db: Kysely<any>,
): Pick<DefinitionStore, 'tombstone' | 'tombstonedVersionIds'> {
  return {
    async tombstonedVersionIds(tenant) {
      const rows = (await db
        .selectFrom('tombstones')
        .select('version_id')
        .where('tenant', '=', tenant)
        .execute()) as { version_id: string }[];
      return rows.map((r) => r.version_id);
    },

    async tombstone(tenant, request) {
      const at = new Date().toISOString();
      const matcher = identifierMatcher(request.identifier);
      await db.transaction().execute(async (trx) => {
        // Not beside a commit of the same tenant on another replica (its history rows are rewritten).
        await advisoryLock(trx, DEFINITIONS_LOCK, tenant);
        for (const part of chunks(request.versionIds)) {
          await trx
            .insertInto('tombstones')
            .values(part.map((v) => ({ tenant, version_id: v, at })))
            .onConflict((oc) => oc.columns(['tenant', 'version_id']).doNothing())
            .execute();
        }
        for (const part of chunks(request.objectHashes)) {
          await trx
            .updateTable('objects')
            .set({ body: null })
            .where('tenant', '=', tenant)
            .where('hash', 'in', part)
            .execute();
        }
        // §14: kept regex analyses are erased (and counted) by their own eraser (sqlite-erasure.ts).
        // §14: the identifier leaves the audit trail too; the rows themselves remain.
        const rows = (await trx
          .selectFrom('activations')
          .selectAll()
          .where('tenant', '=', tenant)
          .execute()) as ActivationRow[];
        for (const r of rows) {
          const texts = [r.describes, r.reason ?? '', r.value ?? '', r.entry ?? ''];
          if (!texts.some((t) => new RegExp(matcher.source, matcher.flags).test(t))) continue;
          const value =
            r.value === null
              ? null
              : JSON.stringify(scrubJson(JSON.parse(r.value) as unknown, request.identifier));
          await trx
            .updateTable('activations')
            .set({
              describes: scrubText(r.describes, request.identifier),
              reason: r.reason === null ? null : scrubText(r.reason, request.identifier),
              entry: r.entry === null ? null : scrubText(r.entry, request.identifier),
              value,
            })
            .where('tenant', '=', tenant)
            .where('definition_version', '=', r.definition_version)
            .execute();
        }
      });
    },
  };
}
