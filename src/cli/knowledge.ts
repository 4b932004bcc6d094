/**
 * Opens the embedded knowledge core for a CLI verb: the SQLite file under the data directory
 * (--data-dir, else DATA_DIR, else ./data), the real learnables and the authority. The operator at
 * the shell owns the file, so the CLI acts with an admin principal of the tenant it is given: of
 * kind `operator`, named by the `--as` of a writing verb and recorded as the writer (§13.4).
 */
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Kysely } from 'kysely';
import { loadConfig } from '../config/config.ts';
import { createAuthority, type Authority, type Principal } from '../domain/authority/index.ts';
import { createMatchingRuntime } from '../domain/matching/index.ts';
import { createLessonCheck, createMatcherCache } from '../domain/triage/index.ts';
import { systemClock } from '../domain/clock.ts';
import { createLearnables } from '../domain/learnables/index.ts';
import { DEMO_TENANT, tenantId, type TenantId } from '../domain/tenant.ts';
import { engineOf } from '../store/dialect.ts';
import { openStore } from '../store/open-store.ts';
import { eraseSignal } from '../store/postgres-change-feed.ts';
import { createSqliteDefinitionStore } from '../store/sqlite-definition-store.ts';
import { createSqliteTokenStore } from '../store/sqlite-token-store.ts';
import { SqliteCorpusStore } from '../store/sqlite-corpus-store.ts';
import { bytesGone, sqliteErasers } from '../store/sqlite-erasure.ts';
import { eraseGenerationEraser } from '../store/erase-generation.ts';
import { SqliteIngestStore } from '../store/sqlite-ingest-store.ts';
import { UsageError, type CliIo } from './command.ts';

/** The database file inside the data directory. */
export { DATABASE_FILE_NAME as DB_FILE_NAME } from '../store/database.ts';
import { DATABASE_FILE_NAME } from '../store/database.ts';

const COMMON_OPTIONS = {
  tenant: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export interface Knowledge {
  readonly authority: Authority;
  readonly tenant: TenantId;
  readonly principal: Principal;
  readonly dbFile: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  readonly db: Kysely<any>;
  close(): Promise<void>;
}

/** Parse a verb's options (strict: an unknown option is a usage error). */
export function parseOptions<O extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: O,
) {
  try {
    return parseArgs({
      args: [...args],
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * Open the knowledge core. `writer`: who runs a writing verb (its `--as`), recorded as the writer
 * of the activation it makes (§13.4); read verbs open it without one.
 */
export async function openKnowledge(
  values: { tenant?: unknown; 'data-dir'?: unknown },
  io: CliIo,
  writer?: string,
): Promise<Knowledge> {
  const config = loadConfig(io.env);
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : config.dataDir;
  let tenant: TenantId;
  try {
    tenant = typeof values.tenant === 'string' ? tenantId(values.tenant) : DEMO_TENANT;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  // An explicit --data-dir names a SQLite directory; otherwise the server's own DATABASE_URL or DATA_DIR.
  const dbFile = join(dataDir, DATABASE_FILE_NAME);
  const db = await openStore({
    databaseUrl: typeof values['data-dir'] === 'string' ? undefined : config.databaseUrl,
    dataDir,
  });
  const tokens = createSqliteTokenStore(db);
  const learnables = createLearnables();
  const settings = { identificationMargin: config.identificationMargin };
  const authority = createAuthority({
    store: createSqliteDefinitionStore(db),
    learnables,
    settings,
    clock: systemClock,
    // §9: an application's or service's own name is never a taughtBy.
    isServiceAccount: (t, name) => tokens.isServiceAccount(t, name),
    // §14: the stores in the file; the erase is counted, so a server running on the same file
    // forgets what it holds in memory on its next read (store/erase-generation.ts).
    erasers: [
      ...sqliteErasers({
        db,
        corpus: new SqliteCorpusStore(db),
        ingest: new SqliteIngestStore(db),
        now: () => systemClock.now(),
      }),
      eraseGenerationEraser(db),
      // On PostgreSQL the running replicas' memory is reached too (postgres-change-feed.ts).
      ...(engineOf(db) === 'postgres' ? [eraseSignal(db)] : []),
      bytesGone(db),
    ],
    // §13.1: the CLI's lessons are tried on the same corpus as the server's.
    checkLesson: createLessonCheck({
      corpus: new SqliteCorpusStore(db),
      learnables,
      settings,
      matcherCache: createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() }),
    }),
  });
  return {
    authority,
    tenant,
    principal: { id: writer ?? CLI_READER, kind: 'operator', tenant, roles: ['admin'] },
    dbFile,
    db,
    close: () => db.destroy(),
  };
}

/** The principal of a CLI verb that writes nothing (reads, tokens). */
const CLI_READER = 'cli:operator';

/** `--by` and `--as`: the options of every verb that writes an activation. */
const WRITER_OPTIONS = {
  by: { type: 'string' },
  as: { type: 'string' },
  reason: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

const WRITER_USAGE = `  --by PERSON      who taught this (a person, e.g. dana@warehouse.example)
  --as OPERATOR    who is running this command (e.g. ops@warehouse.example); recorded as the writer
  --reason TEXT    why, in their words`;

/**
 * Every writing verb names who runs it with --as (§13.4: recorded as the writer, never nobody) and
 * the person it is for with --by (§9).
 */
function requireWriter(values: { by?: unknown; as?: unknown }): { by: string; as: string } {
  if (typeof values.as !== 'string' || values.as.trim() === '') {
    throw new UsageError(
      'say who is running this with --as <operator>, e.g. --as ops@warehouse.example (it is recorded as the writer of the change)',
    );
  }
  return { by: requireBy(values), as: values.as.trim() };
}

/** What every writing verb takes from here: its options, their usage lines, and the check. */
export const WRITER = { options: WRITER_OPTIONS, usage: WRITER_USAGE, require: requireWriter } as const;

/** The --by option, required for every write: who is doing this (a person, §9). */
function requireBy(values: { by?: unknown }): string {
  if (typeof values.by !== 'string' || values.by.trim() === '') {
    throw new UsageError('say who is doing this with --by <person>, e.g. --by dana@warehouse.example');
  }
  return values.by;
}

export function requireInt(raw: unknown, flag: string): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`${flag} needs a whole number, e.g. ${flag} 3`);
  return n;
}

export function shortId(versionId: string): string {
  return versionId.length > 19 ? `${versionId.slice(0, 19)}…` : versionId;
}

export const COMMON_USAGE = `  --tenant T       the tenant (default: demo)
  --data-dir DIR   where learnables-triage.sqlite lives (default: $DATA_DIR or ./data)
  --json           print JSON instead of text`;
