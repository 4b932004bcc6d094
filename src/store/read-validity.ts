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
 *
 * On PostgreSQL the active head may instead be kept valid by a push (`PushedValidity`, fed by the
 * LISTEN connection of postgres-change-feed.ts): while that connection is up, a remembered head
 * holds until a notice for its tenant arrives, with no query per task; while it is down, readers
 * fall back to the per-request counter above, so no stale head is served across a dropped
 * connection. The push is as exact as NOTIFY delivery: a head committed elsewhere is seen once its
 * notification reached this process (sent at commit, before the writer answered its caller).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import { engineOf } from './dialect.ts';

interface Validity {
  dataVersion: number | null;
  generation: number;
  /** Queries made by `currentGeneration` (one pragma or one single-row read each). */
  checks: number;
}

const validities = new WeakMap<object, Validity>();

function validityOf(db: Kysely<unknown>): Validity {
  let v = validities.get(db);
  if (v === undefined) {
    v = { dataVersion: null, generation: 0, checks: 0 };
    validities.set(db, v);
  }
  return v;
}

/** How many times `currentGeneration` asked the database on this connection (so a caller can reuse a check). */
export function checksMade(db: Kysely<unknown>): number {
  return validityOf(db).checks;
}

/** Per call: the connections it has checked. */
const calls = new AsyncLocalStorage<Set<object>>();

/**
 * Runs `fn` (one HTTP request) with one check per connection: the first asks the database, later
 * checks in the same call reuse its answer (a triage checked three times, three round
 * trips on PostgreSQL). The call then reads as of its first check, which came after it began, so
 * it still sees every commit made before it; a commit made while it runs is seen by the next call.
 * A write through this connection still makes what was remembered stale at once (`writing`).
 */
export function oneCheckPerCall<T>(fn: () => T): T {
  return calls.run(new Set(), fn);
}

/** The current generation, after asking SQLite whether another connection has committed since. */
export async function currentGeneration(db: Kysely<unknown>): Promise<number> {
  const v = validityOf(db);
  const call = calls.getStore();
  // Checked already in this call: the generation now is at least as fresh as that check (a later
  // call may have moved it on; going back to this call's version would only churn the caches).
  if (call?.has(db) === true) return v.generation;
  v.checks++;
  const version = engineOf(db) === 'postgres' ? await changeGeneration(db) : await dataVersion(db);
  call?.add(db);
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

/**
 * Validity by push, per tenant: a remembered read is good while the push is live and no notice
 * for its tenant arrived since it was read. One per process, made by the composition root, fed by
 * the change feed (notices, connection up and down) and by this process's own writes.
 */
export interface PushedValidity {
  /** Whether notices are being received now; while not, readers use the per-request check. */
  live(): boolean;
  /** What a read of `tenant` is remembered under: changes with every notice for it and every (re)connect. */
  epoch(tenant: string): string;
  /** `tenant`'s remembered reads are stale (a notice, or a write of this process). */
  bump(tenant: string): void;
  /** The feed's connection came up (true, after LISTEN) or went down (false). Either way, all is stale. */
  setLive(live: boolean): void;
}

/** Tenants whose notice counts are kept before all are reset at once (a reconnect's worth of staleness). */
const MAX_PUSHED_TENANTS = 100_000;

export function createPushedValidity(): PushedValidity {
  let connection = 0;
  let up = false;
  const counts = new Map<string, number>();
  return {
    live: () => up,
    epoch: (tenant) => `${connection}:${counts.get(tenant) ?? 0}`,
    bump(tenant) {
      if (counts.size >= MAX_PUSHED_TENANTS && !counts.has(tenant)) {
        counts.clear();
        connection++;
      }
      counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
    },
    setLive(live) {
      up = live;
      connection++;
    },
  };
}

/**
 * Reads remembered under a push (`PushedValidity`), at most `max`, the oldest dropped first. `get`
 * answers only while the push is live and the tenant had no notice since; `set` keeps a value only
 * if no notice (and no reconnect) came while it was being read.
 */
export class PushedReads<V> {
  readonly #entries = new Map<string, { value: V; epoch: string }>();

  constructor(
    private readonly pushed: PushedValidity,
    private readonly max: number,
  ) {}

  /** The remembered value of `tenant`, or undefined (then read it, and `set` with the epoch taken before). */
  get(tenant: string): { value: V } | undefined {
    if (!this.pushed.live()) return undefined;
    const e = this.#entries.get(tenant);
    return e !== undefined && e.epoch === this.pushed.epoch(tenant) ? { value: e.value } : undefined;
  }

  set(tenant: string, value: V, readUnder: string): void {
    if (!this.pushed.live() || readUnder !== this.pushed.epoch(tenant)) return;
    this.#entries.delete(tenant);
    this.#entries.set(tenant, { value, epoch: readUnder });
    while (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
