/**
 * §14 across processes on one database: every erase counts itself in `erase_generations` (no
 * identifier kept, migration 009), and a running server checks the count on its next read. When
 * another process (the CLI) erased since, the server cannot know what was erased, so it forgets
 * everything it holds in memory that an erase would have cleared: regex analyses, compiled
 * matchers, cached definitions and objects (`onErased`), as a restart would.
 *
 * Cost: one `pragma data_version` per check (read-validity.ts), and one small read only when
 * another connection has committed since the last check. A check right after a read that already
 * asked (the definition read of a task: its head) reuses that read's answer instead of asking again
 * (`check(checksBefore)`), so a task pays one pragma, not two.
 *
 * Does not own: what is forgotten (the composition root says), or any store's erase (sqlite-erasure.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Eraser } from '../domain/authority/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { checksMade, currentGeneration, generationNow } from './read-validity.ts';

export interface EraseWatch {
  /**
   * Whether another process erased since the last check; if so, `onErased` has run. With
   * `checksBefore` (`checksMade(db)` taken before a read on this connection): when that read asked
   * the database for its generation, its answer is used rather than asking a second time.
   */
  check(checksBefore?: number): Promise<boolean>;
  /** Counts this process's own erase (registered with its erasers), so it is not taken for another's. */
  readonly eraser: Eraser;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
type Db = Kysely<any>;

async function total(db: Db): Promise<number> {
  const r = await sql<{
    g: number | null;
  }>`select coalesce(sum(generation), 0) as g from erase_generations`.execute(db);
  return Number(r.rows[0]?.g ?? 0);
}

/** Counts one erase of `tenant`; returns the count of every tenant's erases after it. */
async function bump(db: Db, tenant: TenantId): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The write first, so the transaction holds the write lock before it reads (SQLite).
    await sql`insert into erase_generations (tenant, generation) values (${tenant}, 1)
      on conflict (tenant) do update set generation = erase_generations.generation + 1`.execute(trx);
    return total(trx);
  });
}

/** For a process that keeps nothing in memory (the CLI): counts its erase so running servers notice. */
export function eraseGenerationEraser(db: Db): Eraser {
  return {
    async erase(tenant) {
      await bump(db, tenant);
      return [];
    },
  };
}

export async function createEraseWatch(db: Db, onErased: () => void): Promise<EraseWatch> {
  let known = await total(db);
  let seen = await currentGeneration(db);
  return {
    async check(checksBefore) {
      const g =
        checksBefore !== undefined && checksMade(db) !== checksBefore
          ? generationNow(db)
          : await currentGeneration(db);
      if (g === seen) return false;
      seen = g;
      const now = await total(db);
      if (now === known) return false;
      known = now;
      onErased();
      return true;
    },
    eraser: {
      async erase(tenant) {
        const after = await bump(db, tenant);
        // Another process erased in between too: what it erased is not known here, so forget all.
        if (after - 1 !== known) onErased();
        known = after;
        return [];
      },
    },
  };
}
