/**
 * People behind `taughtBy` (§14) over Kysely, on SQLite or PostgreSQL: a stable internal id per
 * handle (created on first use; two replicas creating the same person at once agree on one id), the
 * handle behind an id, and forgetting a handle. Every method takes the tenant scope (§13.2).
 *
 * Deliberately not here: remembering handles across calls (sqlite-definition-store.ts does, exactly).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { handleKey } from '../domain/authority/index.ts';
import type { DefinitionStore } from '../domain/definitions/index.ts';
import { identifierMatcher } from '../domain/definitions/index.ts';
import { chunks } from './definition-rows.ts';
import type { TenantId } from '../domain/tenant.ts';

export function createPeopleStore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  db: Kysely<any>,
): Pick<DefinitionStore, 'personId' | 'personHandle' | 'erasePerson'> {
  return {
    async personId(tenant, handle) {
      const key = handleKey(handle);
      const find = async () =>
        await db
          .selectFrom('people')
          .select('id')
          .where('tenant', '=', tenant)
          .where('handle_key', '=', key)
          .executeTakeFirst();
      const found = await find();
      if (found !== undefined) return String(found.id);
      await db
        .insertInto('people')
        .values({ tenant, id: `person-${randomUUID()}`, handle: handle.trim(), handle_key: key })
        .onConflict((oc) => oc.columns(['tenant', 'handle_key']).doNothing())
        .execute();
      const made = await find();
      if (made === undefined) throw new Error('personId: the person row vanished');
      return String(made.id);
    },

    async personHandle(tenant, id) {
      const r = await db
        .selectFrom('people')
        .select('handle')
        .where('tenant', '=', tenant)
        .where('id', '=', id)
        .executeTakeFirst();
      const h: unknown = r?.handle;
      return typeof h === 'string' ? h : null;
    },

    async erasePerson(tenant, identifier) {
      const rows = (await db
        .selectFrom('people')
        .select(['id', 'handle'])
        .where('tenant', '=', tenant)
        .where('handle', 'is not', null)
        .execute()) as { id: string; handle: string }[];
      const matcher = identifierMatcher(identifier);
      const ids = rows
        .filter((r) => new RegExp(matcher.source, matcher.flags).test(r.handle))
        .map((r) => r.id);
      for (const part of chunks(ids)) {
        await db
          .updateTable('people')
          .set({ handle: null, handle_key: null })
          .where('tenant', '=', tenant)
          .where('id', 'in', part)
          .execute();
      }
      return ids.length;
    },
  };
}

/**
 * The handles of a tenant's people that are addresses (a colleague's forward is read as
 * the message it forwards, src/domain/triage/colleague-forward.ts); erased people are left out.
 */
export function createColleagues(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  db: Kysely<any>,
): (tenant: TenantId) => Promise<string[]> {
  return async (tenant) => {
    const rows = (await db
      .selectFrom('people')
      .select('handle')
      .where('tenant', '=', tenant)
      .where('handle', 'is not', null)
      .where('handle', 'like', '%@%')
      .execute()) as { handle: string }[];
    return rows.map((r) => r.handle);
  };
}
