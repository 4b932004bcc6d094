/**
 * §14 erase over the SQLite file beyond the definitions (which their own store tombstones): the
 * kept regex analyses, the corpus of seen messages, the SDK's task history, status messages and
 * artifacts, and the ingest ledger, each with its count; then `bytesGone`, which makes the bytes really leave the file.
 *
 * Why `bytesGone` is needed: a rewritten row's old bytes stay in the page's free space, in freed
 * pages and in the write-ahead log. `openDatabase` turns on `secure_delete` (freed space is
 * zeroed as it is freed) and `bytesGone` runs `wal_checkpoint(TRUNCATE)`, which copies the WAL into
 * the file and truncates it to zero bytes. Costs are measured in docs/architecture.md.
 *
 * Deliberately not here: the in-memory caches (the composition root registers their erasers).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Eraser } from '../domain/authority/index.ts';
import type { SqliteCorpusStore } from './sqlite-corpus-store.ts';
import type { SqliteIngestStore } from './sqlite-ingest-store.ts';
import { engineOf } from './dialect.ts';
import { eraseFromTasks } from './sqlite-task-mail.ts';
import { eraseMarkAnalyses } from './sqlite-mark-analyses.ts';
import { KyselyDeliveryOutbox } from './delivery-outbox.ts';

export interface SqliteErasersDeps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  readonly db: Kysely<any>;
  readonly corpus: Pick<SqliteCorpusStore, 'erase'>;
  readonly ingest: Pick<SqliteIngestStore, 'erase'>;
  /** ISO-8601 now, stamped on each dropped part. */
  readonly now: () => string;
}

/** The stores in the SQLite file, in the order an erase visits them. */
export function sqliteErasers(deps: SqliteErasersDeps): Eraser[] {
  return [
    {
      erase: async (tenant) => [
        { store: 'kept regex analyses', changed: await eraseMarkAnalyses(deps.db, tenant) },
      ],
    },
    {
      erase: async (tenant, identifier) => [
        { store: 'corpus messages', changed: await deps.corpus.erase(tenant, identifier) },
      ],
    },
    {
      async erase(tenant, identifier) {
        const r = await eraseFromTasks(deps.db, tenant, identifier, deps.now());
        return [
          { store: 'tasks (history, status messages, artifacts)', changed: r.tasks },
          { store: 'task message parts whose bytes were dropped', changed: r.partsDropped },
        ];
      },
    },
    {
      erase: async (tenant, identifier) => [
        { store: 'ingest claims', changed: await deps.ingest.erase(tenant, identifier) },
      ],
    },
    {
      // A notification still owed carries the task's status and artifacts; issue 50: a
      // push config or webhook may carry the identifier in its URL, token or credentials.
      async erase(tenant, identifier) {
        const r = await new KyselyDeliveryOutbox(deps.db).erase(tenant, identifier);
        return [
          { store: 'deliveries owed (push notifications, delivery webhooks)', changed: r.owed },
          { store: 'push configs and delivery webhooks naming it', changed: r.targets },
        ];
      },
    },
  ];
}

/**
 * The last eraser: folds the write-ahead log into the file and truncates it, so the old bytes of
 * every rewritten row are gone from disk (with `secure_delete`, from the file's free space too).
 * Counts the WAL frames it copied; a reader holding an old snapshot (another process) can keep
 * it from finishing, which it reports as -1 (the file's own checkpoints finish the job later).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see SqliteErasersDeps
export function bytesGone(db: Kysely<any>): Eraser {
  if (engineOf(db) === 'postgres') return postgresBytesGone(db);
  return {
    async erase() {
      // The checkpoint thread (database.ts) may be mid-checkpoint right after the erase's writes,
      // which makes this one busy: wait for it a few times before reporting "not finished".
      for (let attempt = 1; ; attempt++) {
        const { rows } = await sql<{
          busy: number;
          log: number;
          checkpointed: number;
        }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
        const r = rows[0];
        if (r !== undefined && r.busy === 0) {
          return [{ store: 'write-ahead log frames folded in and truncated', changed: r.checkpointed }];
        }
        if (attempt >= CHECKPOINT_ATTEMPTS) {
          return [{ store: 'write-ahead log frames folded in and truncated', changed: -1 }];
        }
        await delay(CHECKPOINT_RETRY_MS * attempt);
      }
    },
  };
}

/** How many times the truncating checkpoint is tried while a checkpoint or reader holds the log. */
const CHECKPOINT_ATTEMPTS = 5;
/** The first wait between tries, in ms (then twice, three times as long, …). */
const CHECKPOINT_RETRY_MS = 20;
/** The tables an erase rewrites (the definitions' own and those of sqliteErasers). */
const ERASED_TABLES = [
  'activations',
  'objects',
  'people',
  'mark_analyses',
  'corpus_messages',
  'sender_records',
  'tasks',
  'ingest_claims',
  'delivery_outbox',
];

/**
 * The same on PostgreSQL: a rewritten row's old version stays in the table's pages until a vacuum;
 * `VACUUM FULL` writes each table anew and drops the old files, so the erased bytes leave the
 * tables. What it cannot reach: WAL segments not yet recycled, and base backups or replicas'
 * archives, which the operator's retention must cover (README). Counts the tables rewritten. It
 * locks each table for its rewrite (a fraction of a second at these sizes): erases are rare.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see SqliteErasersDeps
function postgresBytesGone(db: Kysely<any>): Eraser {
  return {
    async erase() {
      for (const table of ERASED_TABLES) await sql.raw(`vacuum full ${table}`).execute(db);
      return [{ store: 'tables rewritten without their old row versions', changed: ERASED_TABLES.length }];
    },
  };
}
