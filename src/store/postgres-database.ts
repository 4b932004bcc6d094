/**
 * Opens the shared database when DATABASE_URL is a `postgres://` URL: Kysely's PostgresDialect over
 * a `pg` Pool, with every migration applied (the same list as SQLite, migrations/index.ts). The one
 * place that knows the PostgreSQL driver; stores receive the Kysely instance, as they do on SQLite.
 *
 * 64-bit integers (`bigint` columns, `count(*)`) come back as JavaScript numbers, as SQLite gives
 * them: every one here is a count, a sequence or epoch milliseconds, far below 2^53.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migratedOrClosed } from './migrations/index.ts';

/** Connections per process (a replica's requests, its lessons and its sweeps share them). */
export const POOL_SIZE = 10;
/** OID of PostgreSQL's int8. */
const INT8_OID = 20;

export interface OpenPostgresOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string;
  /** Default POOL_SIZE. */
  readonly poolSize?: number;
}

/** Whether a DATABASE_URL names a PostgreSQL server. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary'
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** Round trips this process's pools made to PostgreSQL, and how many of them began or ended a transaction. */
export interface RoundTrips {
  readonly all: number;
  readonly transactionControl: number;
}
const trips = { all: 0, transactionControl: 0 };
const TRANSACTION_CONTROL = /^\s*(?:begin|commit|rollback|start transaction|savepoint|release)\b/i;

/** The counts so far (`triage_database_round_trips_total`, and the bench's per-triage figure). */
export function postgresRoundTrips(): RoundTrips {
  return { ...trips };
}

/**
 * Counts each query a pooled client sends: one round trip each (the driver sends a statement's
 * parse, bind and execute together). A counter increment, no labels: nothing per query is kept.
 */
function countRoundTrips(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    trips.all++;
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && TRANSACTION_CONTROL.test(text)) trips.transactionControl++;
    return query(...args);
  };
}

/** A pool on the URL whose int8 values are numbers (per pool: the driver's global parsers stay as they are). */
export function createPool(options: OpenPostgresOptions): pg.Pool {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? POOL_SIZE, types });
  pool.on('connect', countRoundTrips);
  // An idle connection the server dropped (a restart, a failover) must not crash the process; the
  // pool replaces it on the next checkout.
  pool.on('error', () => {});
  return pool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations, not a TS type
export async function openPostgres(options: OpenPostgresOptions): Promise<Kysely<any>> {
  return await migratedOrClosed(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    new Kysely<any>({ dialect: new PostgresDialect({ pool: createPool(options) }) }),
  );
}
