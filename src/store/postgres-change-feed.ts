/**
 * §14 across replicas on PostgreSQL: an erase handled by one replica must also empty the caches of
 * every other (compiled matchers, remembered regex analyses), which its database rows do not reach.
 * `eraseSignal` is the eraser the handling replica runs: it moves the tenant's `erase_generation`
 * counter (migration 008) and sends NOTIFY in the same transaction (delivered at commit).
 * `startEraseFeed` runs on every replica: it LISTENs on a dedicated connection (a pooled one would
 * lose its LISTEN when recycled), reconnects when that connection drops, and also polls the
 * counters every `pollMs`, so an erase committed while it was disconnected is still seen. The
 * counters, not the notifications, are the truth; a notification only says "look now". Neither
 * carries the identifier: the payload is the tenant, and a replica drops all of that tenant's
 * reading caches.
 *
 * Deliberately not: remembered reads (read-validity.ts keeps those exact by a query on every
 * check; a push cannot promise the very next request) or anything on SQLite (one server per file).
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Eraser } from '../domain/authority/index.ts';
import type { TenantId } from '../domain/tenant.ts';

/** The NOTIFY channel of erasures. */
export const ERASE_CHANNEL = 'learnables_erased';
/** How often a replica reads the counters even without a notification, in ms. */
export const ERASE_POLL_MS = 5_000;
/** Wait before reconnecting a dropped listener, in ms. */
const RECONNECT_MS = 1_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
type Db = Kysely<any>;

/** The eraser that tells every replica (this one included) that `tenant` had an erase. */
export function eraseSignal(db: Db): Eraser {
  return {
    async erase(tenant) {
      await db.transaction().execute(async (trx) => {
        await sql`insert into erase_generation (tenant, n) values (${tenant}, 1)
          on conflict (tenant) do update set n = erase_generation.n + 1`.execute(trx);
        await sql`select pg_notify(${ERASE_CHANNEL}, ${tenant})`.execute(trx);
      });
      return [{ store: 'replicas told to drop their reading caches', changed: 1 }];
    },
  };
}

export interface EraseFeedOptions {
  readonly url: string;
  readonly db: Db;
  /** Drops this process's reading caches for the tenant. */
  readonly onErased: (tenant: TenantId) => void;
  /** Default ERASE_POLL_MS. */
  readonly pollMs?: number;
  /** A listener failure worth a line in the log (the feed keeps going). */
  readonly log?: (message: string, cause: unknown) => void;
}

export interface EraseFeed {
  /** Reads the counters now (tests; the poll and notifications do it otherwise). */
  check(): Promise<void>;
  /** Whether the LISTEN connection is up at the moment. */
  listening(): boolean;
  stop(): Promise<void>;
}

export async function startEraseFeed(options: EraseFeedOptions): Promise<EraseFeed> {
  const known = new Map<string, number>();
  const read = async (): Promise<{ tenant: string; n: number }[]> =>
    (await sql<{ tenant: string; n: number }>`select tenant, n from erase_generation`.execute(options.db))
      .rows;
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
    check().catch((e: unknown) => options.log?.('erase feed: reading the counters failed', e));
  };

  let client: pg.Client | null = null;
  let up = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: options.url });
    client = c;
    const dropped = (e?: unknown): void => {
      if (client !== c) return;
      up = false;
      client = null;
      c.removeAllListeners();
      c.on('error', () => {});
      void c.end().catch(() => {});
      if (e !== undefined) options.log?.('erase feed: the listening connection dropped; reconnecting', e);
      if (!stopped) {
        retry = setTimeout(() => void connect(), RECONNECT_MS);
        retry.unref();
      }
    };
    c.on('error', dropped);
    c.on('end', () => dropped());
    c.on('notification', (m) => {
      if (m.channel === ERASE_CHANNEL) checkQuietly();
    });
    try {
      await c.connect();
      await c.query(`listen ${ERASE_CHANNEL}`);
      up = true;
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
    async stop() {
      stopped = true;
      clearInterval(poll);
      if (retry !== null) clearTimeout(retry);
      const c = client;
      client = null;
      up = false;
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
