/**
 * The triage service for a CLI verb, over the same embedded database as the knowledge core: the
 * authority as definition source, the SQLite corpus, and person ids resolved to handles for display.
 */
import { loadConfig } from '../config/config.ts';
import { displayProvenance } from '../domain/authority/index.ts';
import { createLearnables } from '../domain/learnables/index.ts';
import { createMatchingRuntime } from '../domain/matching/index.ts';
import { createMatcherCache, createTriageService, type TriageService } from '../domain/triage/index.ts';
import { SqliteCorpusStore } from '../store/sqlite-corpus-store.ts';
import { createSqliteDefinitionStore } from '../store/sqlite-definition-store.ts';
import { createSqliteMarkAnalyses } from '../store/sqlite-mark-analyses.ts';
import type { CliIo } from './command.ts';
import type { Knowledge } from './knowledge.ts';

export function openTriage(k: Knowledge, io: CliIo): TriageService {
  const config = loadConfig(io.env);
  const store = createSqliteDefinitionStore(k.db);
  const retention = config.corpusRetentionDays;
  return createTriageService({
    definitions: k.authority,
    corpus: new SqliteCorpusStore(k.db),
    learnables: createLearnables(),
    settings: {
      identificationMargin: config.identificationMargin,
      ...(retention === undefined ? {} : { corpusRetentionDays: retention }),
    },
    matcherCache: createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() }),
    analyses: createSqliteMarkAnalyses(k.db),
    resolvePerson: (tenant, id) => displayProvenance(id, (person) => store.personHandle(tenant, person)),
  });
}
