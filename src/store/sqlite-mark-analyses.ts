/**
 * The MarkAnalysisStore port (src/domain/matching/mark-analysis.ts) over Kysely: the embedded default
 * runs it on SQLite, in the same database as the definitions; a §14 erase deletes a tenant's rows
 * (`eraseMarkAnalyses`, registered as an eraser), since a mark source may hold the identifier.
 * Analyses are opaque text here. Every method takes the tenant scope explicitly (§13.2).
 */
import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { MarkAnalysisStore } from '../domain/matching/index.ts';
import type { TenantId } from '../domain/tenant.ts';

/** Rows per INSERT (4 parameters each), well under every engine's parameter limit. */
const CHUNK = 200;
/** Rows per read (about 5 ms each here). */
const PAGE = 2_000;

interface MarkAnalysisRow {
  tenant: string;
  analyser: string;
  source: string;
  analysis: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database (openDatabase) is untyped
export function createSqliteMarkAnalyses(database: Kysely<any>): MarkAnalysisStore {
  const db = database as unknown as Kysely<{ mark_analyses: MarkAnalysisRow }>;
  return {
    async load(tenant, analyser) {
      // In pages, in key order, with a turn of the event loop between them: better-sqlite3 reads
      // synchronously, and 24,000 rows at once held the loop ~60 ms (compile off the loop).
      const out = new Map<string, string>();
      let after: string | null = null;
      for (;;) {
        let query = db
          .selectFrom('mark_analyses')
          .select(['source', 'analysis'])
          .where('tenant', '=', tenant)
          .where('analyser', '=', analyser);
        if (after !== null) query = query.where('source', '>', after);
        const rows = await query.orderBy('source').limit(PAGE).execute();
        for (const r of rows) out.set(r.source, r.analysis);
        if (rows.length < PAGE) return out;
        after = (rows[rows.length - 1] as { source: string }).source;
        await setImmediate();
      }
    },

    async save(tenant, analyser, analyses) {
      const rows = [...analyses].map(([source, analysis]) => ({ tenant, analyser, source, analysis }));
      // One transaction: a crash keeps all of this write or none of it.
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('mark_analyses')
          .where('tenant', '=', tenant)
          .where('analyser', '<>', analyser)
          .execute();
        for (let i = 0; i < rows.length; i += CHUNK) {
          await trx
            .insertInto('mark_analyses')
            .values(rows.slice(i, i + CHUNK))
            .onConflict((oc) =>
              oc
                .columns(['tenant', 'analyser', 'source'])
                .doUpdateSet((eb) => ({ analysis: eb.ref('excluded.analysis') })),
            )
            .execute();
        }
      });
    },
  };
}

/**
 * §14: deletes every kept analysis of `tenant` and says how many. They are only a cache
 * (mark-analysis.ts) whose sources may hold the erased identifier, so all of the tenant's go and the
 * next compile makes them again; another tenant's stay.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see createSqliteMarkAnalyses
export async function eraseMarkAnalyses(database: Kysely<any>, tenant: TenantId): Promise<number> {
  const db = database as unknown as Kysely<{ mark_analyses: MarkAnalysisRow }>;
  const r = await db.deleteFrom('mark_analyses').where('tenant', '=', tenant).executeTakeFirst();
  return Number(r.numDeletedRows);
}
