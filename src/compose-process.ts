/**
 * What one process holds in memory and what wakes it, put together before either topology is
 * chosen (compose-definitions.ts): the matching runtime and the one matcher cache, the corpus and
 * token stores, the erase watch with every eraser an erase must reach (§14), the bells, and on
 * PostgreSQL the change feed.
 *
 * Parts made later (the topology's memory, the A2A app's recent task copies, the compile of a new
 * activation) join through `forgetting` and `activated`: lists this module calls, which the later
 * parts add themselves to. Nothing here waits on a variable assigned in a branch.
 *
 * Owns: the order an erase reaches this process's stores, memory and bytes. Does not own: which
 * authority the definitions come from, or the triage path.
 */
import type { Kysely } from 'kysely';
import type { Config } from './config/config.ts';
import type { Eraser } from './domain/authority/index.ts';
import { systemClock } from './domain/clock.ts';
import { createMatchingRuntime, type MatchingRuntime } from './domain/matching/index.ts';
import { cacheEraser, createMatcherCache, type MatcherCache } from './domain/triage/index.ts';
import type { TenantId } from './domain/tenant.ts';
import { createDeliveryBell, type DeliveryBell } from './delivery/bell.ts';
import { createHeadBell, type HeadBell } from './http/head-bell.ts';
import { faultLogOf, type Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import { observeMatcherCache } from './observability/observed.ts';
import { createEraseWatch, type EraseWatch } from './store/erase-generation.ts';
import { eraseSignal, startChangeFeed, type ChangeFeed } from './store/postgres-change-feed.ts';
import { isPostgresUrl, postgresRoundTrips } from './store/postgres-database.ts';
import { createPushedValidity, type PushedValidity } from './store/read-validity.ts';
import { SqliteCorpusStore } from './store/sqlite-corpus-store.ts';
import { bytesGone, sqliteErasers } from './store/sqlite-erasure.ts';
import { SqliteIngestStore } from './store/sqlite-ingest-store.ts';
import { createSqliteTokenStore } from './store/sqlite-token-store.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
type Db = Kysely<any>;

/** Functions called in the order they were added; parts made later add themselves. */
export interface Hooks<A extends unknown[]> {
  add(fn: (...args: A) => void): void;
  call(...args: A): void;
}

export function hooks<A extends unknown[]>(): Hooks<A> {
  const fns: ((...args: A) => void)[] = [];
  return {
    add: (fn) => void fns.push(fn),
    call: (...args) => fns.forEach((fn) => fn(...args)),
  };
}

export interface ProcessParts {
  readonly db: Db;
  readonly onPostgres: boolean;
  readonly runtime: MatchingRuntime;
  readonly matcherCache: MatcherCache;
  readonly corpus: SqliteCorpusStore;
  readonly tokens: ReturnType<typeof createSqliteTokenStore>;
  readonly eraseWatch: EraseWatch;
  /** Set on PostgreSQL: remembered heads kept valid by the change feed's push (read-validity.ts). */
  readonly pushed: PushedValidity | undefined;
  /** Split topology: the authority's GET /head?after= long-polls wake at a new activation. */
  readonly headBell: HeadBell;
  /** A delivery another replica owes wakes this one's dispatcher (migration 016). */
  readonly deliveryBell: DeliveryBell;
  /**
   * Called when another process erased on this database (§14): each part forgets its memory, in the
   * order added (the matching runtime first).
   */
  readonly forgetting: Hooks<[]>;
  /** Called with the tenant of each new activation any replica committed. */
  readonly activated: Hooks<[TenantId]>;
  /**
   * Tenants this process resolved definitions for lately (the most recent `MAX_RECENT_TENANTS`,
   * kept by compose-triage.ts): the ones a new activation is compiled for as it is announced.
   */
  readonly recentTenants: Set<TenantId>;
  /** Told to drop the A2A app's recent task copies (added once the server exists). */
  readonly recentTasksDropped: Hooks<[]>;
  /**
   * §14: what an erase must reach in this process: every store in its file, its memory (`memory`,
   * the topology's own), and last the bytes themselves (the WAL folded in and truncated).
   */
  erasers(memory?: readonly Eraser[]): Eraser[];
  close(): Promise<void>;
}

export async function composeProcess(deps: {
  readonly config: Config;
  readonly db: Db;
  readonly logger: Logger;
  readonly metrics: Metrics;
}): Promise<ProcessParts> {
  const { config, db, metrics } = deps;
  const runtime = createMatchingRuntime();
  // One byte budget for every tenant's compiled matchers, least recently used out (a net under
  // the tenant budget, triage/tenant-budget.ts).
  const versionedMatchers = createMatcherCache({
    budgetBytes: config.matcherMemoryBudgetMb * 2 ** 20,
    runtime,
  });
  metrics.matcherCacheFrom(() => versionedMatchers.stats());
  const matcherCache = observeMatcherCache(versionedMatchers, metrics);
  const forgetting = hooks<[]>();
  const recentTasksDropped = hooks<[]>();
  forgetting.add(() => runtime.forgetEverything());
  // An erase made by another process on this database (the CLI) is noticed on the next read, and
  // this process then forgets what it holds in memory, as a restart would (§14).
  const eraseWatch = await createEraseWatch(db, () => forgetting.call());
  const onPostgres = isPostgresUrl(config.databaseUrl);
  if (onPostgres) metrics.databaseRoundTripsFrom(postgresRoundTrips);
  const corpus = new SqliteCorpusStore(db);
  // §14: the task copies the A2A app keeps for a moment after a save are dropped by an erase, so
  // none from before it is served. Memory, not a store: the erase reports nothing for it.
  const recentTaskCopies: Eraser = {
    erase: () => {
      recentTasksDropped.call();
      return Promise.resolve([]);
    },
  };
  const pushed = onPostgres ? createPushedValidity() : undefined;
  const headBell = createHeadBell();
  const deliveryBell = createDeliveryBell();
  const activated = hooks<[TenantId]>();
  // §14 across replicas: an erase on any replica (or by the CLI) empties this one's reading caches;
  // the feed carries only the tenant, so every remembered analysis goes (the next task compiles again).
  const feed: ChangeFeed | null = onPostgres
    ? await startChangeFeed({
        url: config.databaseUrl,
        db,
        onErased: () => void runtime.forgetSourcesMentioning(() => true),
        onActivated: (notice) => {
          headBell.ring(notice.tenant);
          activated.call(notice.tenant);
        },
        onDeliveriesOwed: () => deliveryBell.ring(),
        ...(pushed === undefined ? {} : { pushed }),
        log: faultLogOf(deps.logger),
      })
    : null;
  return {
    db,
    onPostgres,
    runtime,
    matcherCache,
    corpus,
    tokens: createSqliteTokenStore(db),
    eraseWatch,
    pushed,
    headBell,
    deliveryBell,
    forgetting,
    activated,
    recentTenants: new Set<TenantId>(),
    recentTasksDropped,
    erasers: (memory = []) => [
      ...sqliteErasers({ db, corpus, ingest: new SqliteIngestStore(db), now: () => systemClock.now() }),
      cacheEraser(runtime, matcherCache),
      recentTaskCopies,
      ...memory,
      eraseWatch.eraser,
      // On PostgreSQL, every other replica drops its reading caches too (postgres-change-feed.ts).
      ...(onPostgres ? [eraseSignal(db)] : []),
      bytesGone(db),
    ],
    close: async () => {
      await feed?.stop();
    },
  };
}
