/**
 * Whether a read remembered from the database still holds, per connection. SQLite's
 * `PRAGMA data_version` changes whenever another connection (another process: the CLI, a second
 * server) commits to the file; on PostgreSQL the `change_generation` counter (migration 008) moves
 * with every committed write of the tables remembered reads come from, whichever replica wrote it,
 * so a token revoked on one replica is refused by every other on its next request. Writes through
 * this connection that a remembered read depends on call `invalidate`. A remembered read is good while the generation it was read under is current.
 * Exact, not a TTL: the price is one pragma (one single-row read on PostgreSQL) per check instead
 * of the query it replaces.
 *
 * One state per Kysely instance (one connection), shared by every store made on it.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './dialect.ts';

interface Validity {
  dataVersion: number | null;
  generation: number;
}

const validities = new WeakMap<object, Validity>();

function validityOf(db: Kysely<unknown>): Validity {
  let v = validities.get(db);
  if (v === undefined) {
    v = { dataVersion: null, generation: 0 };
    validities.set(db, v);
  }
  return v;
}

/** The current generation, after asking SQLite whether another connection has committed since. */
export async function currentGeneration(db: Kysely<unknown>): Promise<number> {
  const v = validityOf(db);
  const version = engineOf(db) === 'postgres' ? await changeGeneration(db) : await dataVersion(db);
  if (version !== v.dataVersion) {
    v.dataVersion = version;
    v.generation++;
  }
  return v.generation;
}

async function dataVersion(db: Kysely<unknown>): Promise<number> {
  const r = await sql<{ data_version: number }>`pragma data_version`.execute(db);
  return Number(r.rows[0]?.data_version);
}

async function changeGeneration(db: Kysely<unknown>): Promise<number> {
  const r = await sql<{ n: number }>`select n from change_generation where id = 1`.execute(db);
  return Number(r.rows[0]?.n);
}

/** The generation as last checked (no query): for a read to compare against after it finished. */
export function generationNow(db: Kysely<unknown>): number {
  return validityOf(db).generation;
}

/** Everything remembered on this connection is stale (a write through it). */
export function invalidate(db: Kysely<unknown>): void {
  validityOf(db).generation++;
}

/** Runs a write through this connection, invalidating before (for reads it races) and after. */
export async function writing<T>(db: Kysely<unknown>, write: () => Promise<T>): Promise<T> {
  invalidate(db);
  try {
    return await write();
  } finally {
    invalidate(db);
  }
}

/**
 * Reads remembered under a generation, at most `max` (the oldest dropped first). `get` answers
 * only an entry read under `generation`; `set` keeps a value only if it was read under the
 * generation that is still current, so a read that raced a write is never remembered.
 */
export class RememberedReads<V> {
  readonly #entries = new Map<string, { value: V; generation: number }>();

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly max: number,
  ) {}

  has(key: string, generation: number): boolean {
    return this.#entries.get(key)?.generation === generation;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  set(key: string, value: V, readUnder: number): void {
    if (readUnder !== generationNow(this.db)) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, generation: readUnder });
    while (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
