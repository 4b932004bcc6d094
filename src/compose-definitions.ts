/**
 * Where this process's definitions come from, chosen once: the embedded authority on this database,
 * or a remote one (AUTHORITY_URL, §12.1) with the clients the agent needs beside it. The answer is
 * one tagged value; everything that differs between the two topologies is read from it.
 *
 * - **embedded**: the authority owns its definitions, analyses and people on this database; its own
 *   commits wake the head long-polls at once (another replica's come by NOTIFY, compose-process.ts).
 *   The demo tenant is made on the first start.
 * - **remote**: the agent keeps no definitions of its own. It follows the authority's head by
 *   long-poll, falling back to a short TTL when the follow is down, and compiles each new version
 *   as it is announced. Erases and lessons posted to it go to the authority (§14, §13.1), the
 *   lesson first checked against this agent's corpus.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from './config/config.ts';
import {
  createAuthority,
  displayProvenance,
  ensureDemoTenant,
  type DirectoryImport,
  type EmbeddedAuthority,
} from './domain/authority/index.ts';
import { systemClock } from './domain/clock.ts';
import type { Learnable } from './domain/learnables/index.ts';
import type { MarkAnalysisStore } from './domain/matching/index.ts';
import { checkLessonAtAgent, createLessonCheck, type Colleagues } from './domain/triage/index.ts';
import { DEMO_TENANT, type TenantId } from './domain/tenant.ts';
import { createForwardedLesson } from './http/forwarded-lesson.ts';
import { createRemoteDefinitionSource, type DefinitionSource } from './http/remote-authority.ts';
import { createForwardedErase, remoteCacheEraser } from './http/remote-erase.ts';
import { faultLogOf, type Logger } from './observability/logger.ts';
import type { RemoteAuthoritySide } from './server.ts';
import type { ProcessParts } from './compose-process.ts';
import { createColleagues } from './store/people-store.ts';
import { createSqliteDefinitionStore } from './store/sqlite-definition-store.ts';
import { createSqliteMarkAnalyses } from './store/sqlite-mark-analyses.ts';

/** The demo directory imported on first start. */
export const DEMO_DIRECTORY_FILE = fileURLToPath(new URL('../fixtures/directory/demo.json', import.meta.url));

interface Either {
  readonly source: DefinitionSource;
  /** The tenant the first-start token is made for: the demo tenant, or the remote token's. */
  readonly tenant: TenantId;
  /** Readings name who taught each matched mark (§13.4): the handle behind the stable person id (§14). */
  readonly resolvePerson: (tenant: TenantId, id: string) => Promise<string | null>;
  close(): void;
}

export type Topology =
  | (Either & {
      readonly kind: 'embedded';
      readonly authority: EmbeddedAuthority;
      /** Kept regex analyses, beside the definitions, whose §14 erase clears them. */
      readonly analyses: MarkAnalysisStore;
      /** The tenant's people, whose forwards are read as the message they forward. */
      readonly colleagues: Colleagues;
    })
  | (Either & {
      readonly kind: 'remote';
      readonly remote: RemoteAuthoritySide;
      readonly reachable: () => Promise<string | null>;
    });

export interface DefinitionsDeps {
  readonly config: Config;
  readonly parts: ProcessParts;
  readonly learnables: readonly Learnable[];
  readonly settings: { readonly identificationMargin: number };
  readonly logger: Logger;
}

export function composeDefinitions(deps: DefinitionsDeps): Promise<Topology> {
  return deps.config.authorityUrl === undefined ? embedded(deps) : remote(deps, deps.config.authorityUrl);
}

async function embedded({ parts, learnables, settings }: DefinitionsDeps): Promise<Topology> {
  const { db, corpus, matcherCache, headBell, pushed, tokens } = parts;
  const stored = createSqliteDefinitionStore(db, pushed === undefined ? {} : { pushed });
  const store: typeof stored = {
    ...stored,
    async commit(t, request) {
      const result = await stored.commit(t, request);
      if (result === 'committed') headBell.ring(t);
      return result;
    },
  };
  const authority = createAuthority({
    store,
    learnables,
    settings,
    clock: systemClock,
    // §9: an application's or service's own name is never a taughtBy.
    isServiceAccount: (t, name) => tokens.isServiceAccount(t, name),
    // §14: an erase reaches every store and cache of this process, then the bytes leave the file.
    erasers: parts.erasers(),
    // §13.1: every lesson is tried on this process's corpus before it is absorbed.
    checkLesson: createLessonCheck({ corpus, learnables, settings, matcherCache }),
  });
  parts.forgetting.add(() => authority.forgetMemory());
  const directory = JSON.parse(readFileSync(DEMO_DIRECTORY_FILE, 'utf8')) as DirectoryImport;
  await ensureDemoTenant(authority, directory);
  return {
    kind: 'embedded',
    authority,
    source: authority,
    tenant: DEMO_TENANT,
    // A lesson an application wrote for a person reads "dana@…, via app:…" (§13.4).
    resolvePerson: (t, id) => displayProvenance(id, (person) => store.personHandle(t, person)),
    analyses: createSqliteMarkAnalyses(db),
    colleagues: createColleagues(db),
    close: () => {},
  };
}

async function remote(deps: DefinitionsDeps, url: string): Promise<Topology> {
  const { config, parts, learnables, settings, logger } = deps;
  const { corpus, matcherCache } = parts;
  const log = faultLogOf(logger);
  const source = await createRemoteDefinitionSource({
    url,
    token: config.authorityToken ?? '',
    follow: true,
    // Each new version is compiled as it is announced, for a tenant this process serves now.
    onActivated: (definition) => {
      if (!parts.recentTenants.has(source.tenant)) return;
      matcherCache
        .matcherFor(definition, learnables)
        .catch((e: unknown) => log('compiling a newly activated version failed', e));
    },
    log,
    timeoutMs: config.authorityTimeoutMs,
  });
  parts.forgetting.add(() => source.forget());
  return {
    kind: 'remote',
    source,
    tenant: source.tenant,
    resolvePerson: (t, id) => source.personHandle(t, id),
    reachable: () => source.reachable(),
    remote: {
      authorityUrl: url,
      rulesInForce: (t, versionId) => source.rulesInForce(t, versionId),
      // §14: an erase posted to this agent goes to the authority, then reaches this agent's own
      // stores and caches too (the corpus, its tasks, its ingest ledger, its memory), bytes included.
      erase: createForwardedErase({ remote: source, erasers: parts.erasers([remoteCacheEraser(source)]) }),
      // §13.1: this agent holds the corpus, so a lesson posted here is checked against it (under the
      // version the authority has active now) before it is forwarded.
      lesson: createForwardedLesson({
        remote: source,
        check: (t, body) =>
          checkLessonAtAgent(
            { corpus, learnables, settings, matcherCache, definitions: source, clock: systemClock },
            t,
            body,
          ),
      }),
    },
    close: () => source.close(),
  };
}
