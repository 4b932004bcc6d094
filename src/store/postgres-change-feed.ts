/**
 * What replicas on one PostgreSQL push to each other: new activations, erasures (§14)
 * and owed deliveries. One dedicated LISTEN connection per replica (a pooled one would lose its
 * LISTEN when recycled) on three channels:
 * - `learnables_activated` (migration 011: a trigger on `activations`, so every writer sends it, in
 *   its own transaction, delivered at commit). The replica drops the tenant's remembered head
 *   (`PushedValidity`) and is told `onActivated`, where the composition root compiles the new
 *   version's matcher once, before the next task asks for it (§10.3: that task reads under it).
 * - `learnables_erased` (`eraseSignal`, registered after the eraser that counts the erase in
 *   `erase_generations`, erase-generation.ts, so the count is committed before the notice). The
 *   replica drops the caches that may hold the identifier (`onErased`); the counters, not the
 *   notifications, are the truth (and a server's erase watch reads the same counters per request).
 * - `learnables_deliveries_owed` (migration 016: a trigger on `delivery_outbox`): the replica wakes
 *   its dispatcher (`onDeliveriesOwed`), so a delivery another replica owes is sent without waiting
 *   for the dispatcher's poll, which stays the net for a dropped connection.
 *
 * When the connection drops, the push goes dark at once (`setLive(false)`): remembered heads then
 * fall back to the per-request counter (read-validity.ts), so no stale head is served while it is
 * down. The feed reconnects with backoff (250 ms doubling to 30 s); once LISTEN is back it reads the
 * erase counters (an erase committed meanwhile is still seen) and turns the push on again, with
 * every head remembered before the drop stale. The erase counters are also polled every `pollMs`.
 *
 * Deliberately not: tokens and person handles (read-validity.ts keeps those exact by the
 * per-request counter: a revoked token must be refused by the very next request, not once a
 * notification arrives), or anything on SQLite (processes on one file share its `data_version`).
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Eraser } from '../domain/authority/index.ts';
import { tenantId, type TenantId } from '../domain/tenant.ts';
import { ACTIVATION_CHANNEL } from './migrations/011-activation-notify.ts';
import { DELIVERIES_CHANNEL } from './migrations/016-deliveries-notify.ts';
import type { PushedValidity } from './read-validity.ts';

export { ACTIVATION_CHANNEL, DELIVERIES_CHANNEL };
/** The NOTIFY channel of erasures. */
export const ERASE_CHANNEL = 'learnables_erased';
/** How often a replica reads the erase counters even without a notification, in ms. */
export const ERASE_POLL_MS = 5_000;
/** First wait before reconnecting a dropped listener, in ms; doubled on each failure up to RECONNECT_MAX_MS. */
const RECONNECT_MS = 250;
const RECONNECT_MAX_MS = 30_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
type Db = Kysely<any>;

/**
 * The eraser that tells every replica (this one included) that `tenant` had an erase: registered
 * after the one that counts it (`eraseGenerationEraser` or the erase watch's own), whose count the
 * notified replicas then read.
 */
export function eraseSignal(db: Db): Eraser {
  return {
    async erase(tenant) {
      await sql`select pg_notify(${ERASE_CHANNEL}, ${tenant})`.execute(db);
      return [{ store: 'replicas told to drop their reading caches', changed: 1 }];
    },
  };
}

/** What an activation notice says (migration 011's payload). */
export interface ActivationNotice {
  readonly tenant: TenantId;
  readonly definitionVersion: number;
  readonly versionId: string;
}

export interface ChangeFeedOptions {
  readonly url: string;
  readonly db: Db;
  /** Drops this process's reading caches for the tenant. */
  readonly onErased: (tenant: TenantId) => void;
  /** A new activation was committed (by any replica, this one included). Default: nothing. */
  readonly onActivated?: (notice: ActivationNotice) => void;
  /** A delivery is owed (migration 016; any replica's commit, this one's included). Default: nothing. */
  readonly onDeliveriesOwed?: () => void;
  /** The push remembered heads are kept valid by; the feed bumps it and turns it on and off. */
  readonly pushed?: PushedValidity;
  /** Default ERASE_POLL_MS. */
  readonly pollMs?: number;
  /** A listener failure worth a line in the log (the feed keeps going). */
  readonly log?: (message: string, cause: unknown) => void;
}

export interface ChangeFeed {
  /** Reads the erase counters now (tests; the poll and notifications do it otherwise). */
  check(): Promise<void>;
  /** Whether the LISTEN connection is up at the moment. */
  listening(): boolean;
  /** How many times the listening connection came up (1 after the start, +1 per reconnect). */
  connections(): number;
  stop(): Promise<void>;
}

function activationNotice(payload: string | undefined): ActivationNotice | null {
  try {
    const p = JSON.parse(payload ?? '') as Partial<Record<keyof ActivationNotice, unknown>>;
    if (typeof p.tenant !== 'string' || typeof p.versionId !== 'string') return null;
    return {
      tenant: tenantId(p.tenant),
      definitionVersion: Number(p.definitionVersion),
      versionId: p.versionId,
    };
  } catch {
    return null;
  }
}

export async function startChangeFeed(options: ChangeFeedOptions): Promise<ChangeFeed> {
  const { pushed } = options;
  const known = new Map<string, number>();
  const read = async (): Promise<{ tenant: string; n: number }[]> =>
    (
      await sql<{
        tenant: string;
        n: number;
      }>`select tenant, generation as n from erase_generations`.execute(options.db)
    ).rows;
  for (const r of await read()) known.set(r.tenant, Number(r.n)); // erasures before this start are not ours
  let stopped = false;
  let checking: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    // One read at a time; a request while one runs waits for it and then reads again.
    while (checking !== null) await checking;
    checking = (async () => {
      for (const r of await read()) {
        const n = Number(r.n);
        if (known.get(r.tenant) === n) continue;
        known.set(r.tenant, n);
        pushed?.bump(r.tenant);
        options.onErased(r.tenant as TenantId);
      }
    })();
    try {
      await checking;
    } finally {
      checking = null;
    }
  };
  const checkQuietly = (): void => {
    check().catch((e: unknown) => options.log?.('change feed: reading the erase counters failed', e));
  };

  let client: pg.Client | null = null;
  let up = false;
  let connections = 0;
  let failures = 0;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: options.url, keepAlive: true });
    client = c;
    const dropped = (e?: unknown): void => {
      if (client !== c) return;
      up = false;
      pushed?.setLive(false); // at once: from here on heads are checked per request
      client = null;
      c.removeAllListeners();
      c.on('error', () => {});
      void c.end().catch(() => {});
      if (e !== undefined) options.log?.('change feed: the listening connection dropped; reconnecting', e);
      if (!stopped) {
        const waitMs = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** failures);
        failures++;
        retry = setTimeout(() => void connect(), waitMs);
        retry.unref();
      }
    };
    c.on('error', dropped);
    c.on('end', () => dropped());
    c.on('notification', (m) => {
      if (m.channel === ERASE_CHANNEL) {
        if (m.payload !== undefined) pushed?.bump(m.payload);
        checkQuietly();
      } else if (m.channel === ACTIVATION_CHANNEL) {
        const notice = activationNotice(m.payload);
        if (notice === null) return;
        pushed?.bump(notice.tenant);
        options.onActivated?.(notice);
      } else if (m.channel === DELIVERIES_CHANNEL) {
        options.onDeliveriesOwed?.();
      }
    });
    try {
      await c.connect();
      await c.query(`listen ${ERASE_CHANNEL}; listen ${ACTIVATION_CHANNEL}; listen ${DELIVERIES_CHANNEL}`);
      if (client !== c) return;
      up = true;
      failures = 0;
      connections++;
      pushed?.setLive(true); // every head remembered before (or during) a drop is stale
      checkQuietly(); // whatever was erased while it was down
    } catch (e) {
      dropped(e);
    }
  };
  await connect();
  const poll = setInterval(checkQuietly, options.pollMs ?? ERASE_POLL_MS);
  poll.unref();

  return {
    check,
    listening: () => up,
    connections: () => connections,
    async stop() {
      stopped = true;
      clearInterval(poll);
      if (retry !== null) clearTimeout(retry);
      const c = client;
      client = null;
      up = false;
      pushed?.setLive(false);
      if (c !== null) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
      const pending: Promise<void> | null = checking;
      if (pending !== null) await pending.catch(() => {});
    },
  };
}
