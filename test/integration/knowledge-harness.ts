/** Builds the knowledge core on real SQLite with the real migrations and the real learnables. */
import type { Kysely } from 'kysely';
import { createAuthority, type EmbeddedAuthority, type Principal } from '../../src/domain/authority/index.ts';
import { createLearnables, type Learnable } from '../../src/domain/learnables/index.ts';
import { tenantId, type TenantId } from '../../src/domain/tenant.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { createMatchingRuntime } from '../../src/domain/matching/index.ts';
import { createLessonCheck, createMatcherCache } from '../../src/domain/triage/index.ts';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import {
  createSqliteDefinitionStore,
  type SqliteDefinitionStore,
} from '../../src/store/sqlite-definition-store.ts';

export interface Core {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  readonly db: Kysely<any>;
  readonly store: SqliteDefinitionStore;
  readonly corpus: SqliteCorpusStore;
  readonly authority: EmbeddedAuthority;
  readonly tenant: TenantId;
  readonly teacher: Principal;
  close(): Promise<void>;
}

/** A clock that moves one second per reading, so every activation has its own time. */
export function steppingClock(start = Date.UTC(2026, 7, 17, 9, 0, 0)): Clock {
  let t = start;
  return {
    now: () => {
      const s = new Date(t).toISOString();
      t += 1000;
      return s;
    },
  };
}

export async function openCore(
  options: {
    file?: string;
    learnables?: readonly Learnable[];
    servicePrincipals?: readonly string[];
    tenant?: string;
    /** Issue 26: try every lesson on the corpus in the same database, as the server does. */
    checkLessons?: boolean;
  } = {},
): Promise<Core> {
  const db = await openDatabase({ file: options.file ?? ':memory:' });
  const store = createSqliteDefinitionStore(db);
  const tenant = tenantId(options.tenant ?? 'acme');
  const learnables = options.learnables ?? createLearnables();
  const settings = { identificationMargin: 0.5 };
  const corpus = new SqliteCorpusStore(db);
  const authority = createAuthority({
    store,
    learnables,
    settings,
    clock: steppingClock(),
    ...(options.servicePrincipals === undefined ? {} : { servicePrincipals: options.servicePrincipals }),
    ...(options.checkLessons === true
      ? {
          checkLesson: createLessonCheck({
            corpus,
            learnables,
            settings,
            matcherCache: createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() }),
          }),
        }
      : {}),
  });
  return {
    db,
    store,
    corpus,
    authority,
    tenant,
    // An application writing for the people the tests name (a person's token may only write as
    // itself, §13.2; attribution.ts).
    teacher: { id: 'app:console', kind: 'application', tenant, roles: ['admin'] },
    close: () => db.destroy(),
  };
}
