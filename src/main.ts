/**
 * Composition root: configuration, the database, the authority (embedded, or remote through
 * AUTHORITY_URL), the triage service, the token store, and the server. On the first start with an
 * empty data directory it creates the demo tenant and prints a token for it once, also writing it to
 * DATA_DIR/demo-token readable only by its owner.
 *
 * `compose(config)` builds everything without listening (tests and the card check use it);
 * running this file listens and stops cleanly on SIGINT/SIGTERM.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import type { MailReader } from './a2a/ports.ts';
import { createAdmission, type Admission } from './admission/admission.ts';
import { createAuthThrottle } from './admission/auth-throttle.ts';
import { admissionLimitsOf, loadConfig, mailLimitsOf, type Config } from './config/config.ts';
import type { MailLimits } from './domain/mail/index.ts';
import {
  createAuthority,
  ensureDemoTenant,
  displayProvenance,
  type DirectoryImport,
  type EmbeddedAuthority,
  type Eraser,
} from './domain/authority/index.ts';
import { systemClock } from './domain/clock.ts';
import { createLearnables, type Learnable } from './domain/learnables/index.ts';
import {
  analysisKeeping,
  createMatcherCache,
  createTriageService,
  cacheEraser,
  checkLessonAtAgent,
  createLessonCheck,
  matchersByTenant,
  withinBudget,
  type Colleagues,
} from './domain/triage/index.ts';
import { createTenantMemory } from './domain/tenant-memory.ts';
import { redactForLog } from './domain/log-redaction.ts';
import { createMatchingRuntime, type MarkAnalysisStore } from './domain/matching/index.ts';
import { DEMO_TENANT, type TenantId } from './domain/tenant.ts';
import { createRemoteDefinitionSource, type DefinitionSource } from './http/remote-authority.ts';
import { createHeadBell } from './http/head-bell.ts';
import type { Definition } from './domain/definitions/index.ts';
import { createForwardedErase, remoteCacheEraser, type ForwardedErase } from './http/remote-erase.ts';
import { createForwardedLesson, type ForwardedLesson } from './http/forwarded-lesson.ts';
import { messageFromFields } from './ingest/mail/from-fields.ts';
import { parseMail } from './ingest/mail/parse.ts';
import { runCluster } from './cluster.ts';
import { composeMailIngest } from './compose-mail.ts';
import { createServer, type AppServer, type WorkerIdentity } from './server.ts';
import { createLogger, faultLogOf, type Logger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { observeMatcherCache } from './observability/observed.ts';
import { tenantMemoryMetrics } from './observability/tenant-memory-metrics.ts';
import {
  authorityCheck,
  mailboxCheck,
  matcherCheck,
  type ReadinessCheck,
} from './observability/readiness.ts';
import { describeStore, openStore } from './store/open-store.ts';
import { eraseSignal, startChangeFeed, type ChangeFeed } from './store/postgres-change-feed.ts';
import { createDeliveryBell } from './delivery/bell.ts';
import { checksMade, createPushedValidity } from './store/read-validity.ts';
import { isPostgresUrl, postgresRoundTrips } from './store/postgres-database.ts';
import { SqliteCorpusStore } from './store/sqlite-corpus-store.ts';
import { bytesGone, sqliteErasers } from './store/sqlite-erasure.ts';
import { createEraseWatch, type EraseWatch } from './store/erase-generation.ts';
import { SqliteIngestStore } from './store/sqlite-ingest-store.ts';
import { failInterruptedTasks } from './store/interrupted-tasks.ts';
import { createRawMailRetention } from './store/raw-mail-retention.ts';
import { createSqliteDefinitionStore } from './store/sqlite-definition-store.ts';
import { createColleagues } from './store/people-store.ts';
import { createSqliteMarkAnalyses } from './store/sqlite-mark-analyses.ts';
import { createSqliteTaskPins } from './store/sqlite-task-pins.ts';
import { createSqliteTokenStore } from './store/sqlite-token-store.ts';

/** The demo directory imported on first start. */
export const DEMO_DIRECTORY_FILE = fileURLToPath(new URL('../fixtures/directory/demo.json', import.meta.url));
/** The database file under DATA_DIR. */
export { DATABASE_FILE_NAME as DATABASE_FILE } from './store/database.ts';
/** Tenants whose new activations this process compiles as they are announced (the most recently served). */
const MAX_RECENT_TENANTS = 64;
/** Where the first-start token is written (mode 0600). */
export const DEMO_TOKEN_FILE = 'demo-token';

export interface Composition {
  readonly server: AppServer;
  /** The token created on this (first) start, or null. */
  readonly demoToken: string | null;
  /** The admission gate every mail path shares (src/admission); its load is the operator's to read. */
  readonly admission: Admission;
  close(): Promise<void>;
}

export interface ComposeOptions {
  /** Where the first-start token is announced. Default: stdout. */
  readonly announce?: (line: string) => void;
  /**
   * Learnables declared after this agent's own (customers, kinds, mappings), through the same
   * registry: a new learnable is a deployment, not a release (§9). Default: none.
   */
  readonly learnables?: readonly Learnable[];
  /** The JSON log. Default: pino at LOG_LEVEL on stderr. */
  readonly logger?: Logger;
  /**
   * Told each time this process forgets what it holds in memory because another process (the CLI)
   * erased on its database (§14, store/erase-generation.ts). Default: nothing.
   */
  readonly onMemoryForgotten?: () => void;
  /**
   * This process is one of WORKERS (src/cluster.ts): the primary has already failed the tasks a
   * previous run left unfinished (a worker must not fail its siblings' tasks in flight), only the
   * worker that `pollsMailboxes` polls IMAP (and reports mailboxes in /readyz), and every response
   * names the worker. Default: a process on its own.
   */
  readonly worker?: WorkerIdentity;
}

export async function compose(config: Config, options: ComposeOptions = {}): Promise<Composition> {
  const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const metrics = createMetrics({ maxTenants: config.metricsMaxTenants });
  warnWithoutPublicUrl(config, logger);
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // DATABASE_URL: PostgreSQL, shared by every replica; else the SQLite file under DATA_DIR.
  const db = await openStore({ databaseUrl: config.databaseUrl, dataDir });
  let eraseFeed: ChangeFeed | null = null;
  let closeRemote = (): void => {};
  try {
    // A task a killed process left submitted or working is told so, not left waiting forever.
    if (options.worker === undefined) await failInterruptedTasks(db, Date.now());
    const polling = options.worker?.pollsMailboxes ?? true;
    const polledMailboxes = polling ? config.mailboxes : [];
    const tokens = createSqliteTokenStore(db);
    const settings = { identificationMargin: config.identificationMargin };
    const learnables = createLearnables(options.learnables);

    let authority: EmbeddedAuthority | null = null;
    let source: DefinitionSource;
    let remoteRulesInForce: EmbeddedAuthority['rulesInForce'] | undefined;
    let authorityReachable: (() => Promise<string | null>) | undefined;
    let remoteErase: ForwardedErase | undefined;
    let remoteLesson: ForwardedLesson | undefined;
    // Readings name who taught each matched mark (§13.4): the handle behind the stable person id (§14).
    let resolvePerson: ((t: TenantId, id: string) => Promise<string | null>) | undefined;
    let colleagues: Colleagues | undefined;
    let tenant = DEMO_TENANT;
    // Kept regex analyses live beside the definitions, whose §14 erase clears them; an agent against
    // a remote authority keeps them in memory only (an erase there could not reach its rows).
    let analyses: MarkAnalysisStore | undefined;
    const corpus = new SqliteCorpusStore(db);
    // The server's matching runtime: its analyses, buffers and matchers, which a §14 erase clears.
    const matchingRuntime = createMatchingRuntime();
    // Issue 15: one byte budget for every tenant's compiled matchers, least recently used out.
    const versionedMatchers = createMatcherCache({
      budgetBytes: config.matcherMemoryBudgetMb * 2 ** 20,
      runtime: matchingRuntime,
    });
    metrics.matcherCacheFrom(() => versionedMatchers.stats());
    const matcherCache = observeMatcherCache(versionedMatchers, metrics);
    // §14: what an erase must reach in this process: every store in its file, its memory, and last
    // the bytes themselves (the WAL folded in and truncated).
    // An erase made by another process on this database (the CLI) is noticed on the next read,
    // and this process then forgets what it holds in memory, as a restart would (§14).
    let forgetMemory = (): void => matchingRuntime.forgetEverything();
    // The A2A app, once the server is made (the mail pipelines and the erasers reach it late).
    let a2a: AppServer['a2a'] = null;
    const eraseWatch = await createEraseWatch(db, () => {
      forgetMemory();
      a2a?.forgetRecentTasks();
      options.onMemoryForgotten?.();
    });
    const onPostgres = isPostgresUrl(config.databaseUrl);
    if (onPostgres) metrics.databaseRoundTripsFrom(postgresRoundTrips);
    // §14: the task copies the A2A app keeps for a moment after a save are dropped by an erase, so
    // none from before it is served. Memory, not a store: the erase reports nothing for it.
    const recentTaskCopies: Eraser = {
      erase: () => {
        a2a?.forgetRecentTasks();
        return Promise.resolve([]);
      },
    };
    const processErasers = (memory: readonly Eraser[] = []): Eraser[] => [
      ...sqliteErasers({ db, corpus, ingest: new SqliteIngestStore(db), now: () => systemClock.now() }),
      cacheEraser(matchingRuntime, matcherCache),
      recentTaskCopies,
      ...memory,
      eraseWatch.eraser,
      // On PostgreSQL, every other replica drops its reading caches too (postgres-change-feed.ts).
      ...(onPostgres ? [eraseSignal(db)] : []),
      bytesGone(db),
    ];
    // Issue 15: on PostgreSQL the active head is kept valid by the change feed's push (a NOTIFY per
    // activation, migration 011), and each new version's matcher is compiled once when it is
    // announced, before the next task asks (set below, once the triage path exists).
    const pushed = onPostgres ? createPushedValidity() : undefined;
    // Split topology: the authority's GET /head?after= long-polls wake at a new activation.
    const headBell = createHeadBell();
    // A delivery another replica owes wakes this one's dispatcher (migration 016).
    const deliveryBell = createDeliveryBell();
    let onActivated = (_tenant: TenantId): void => {};
    // Tenants this process resolved definitions for lately: the ones a new activation is compiled for.
    const recentTenants = new Set<TenantId>();
    // §14 across replicas: an erase on any replica (or by the CLI) empties this one's reading caches;
    // the feed carries only the tenant, so every remembered analysis goes (the next task compiles again).
    eraseFeed = onPostgres
      ? await startChangeFeed({
          url: config.databaseUrl,
          db,
          onErased: () => void matchingRuntime.forgetSourcesMentioning(() => true),
          onActivated: (notice) => {
            headBell.ring(notice.tenant);
            onActivated(notice.tenant);
          },
          onDeliveriesOwed: () => deliveryBell.ring(),
          ...(pushed === undefined ? {} : { pushed }),
          log: faultLogOf(logger),
        })
      : null;
    if (config.authorityUrl !== undefined) {
      // §12.1: definitions come from another process; this agent keeps none of its own.
      // Issue 15: the agent follows the authority's head by long-poll (a push), falling back to
      // the short TTL when the follow is down; each new version is compiled as it is announced.
      let compileAnnounced = (_definition: Definition): void => {};
      const remote = await createRemoteDefinitionSource({
        url: config.authorityUrl,
        token: config.authorityToken ?? '',
        follow: true,
        onActivated: (definition) => compileAnnounced(definition),
        log: faultLogOf(logger),
        timeoutMs: config.authorityTimeoutMs,
      });
      closeRemote = () => remote.close();
      compileAnnounced = (definition) => {
        if (!recentTenants.has(remote.tenant)) return;
        matcherCache
          .matcherFor(definition, learnables)
          .catch((e: unknown) => faultLogOf(logger)('compiling a newly activated version failed', e));
      };
      source = remote;
      remoteRulesInForce = (t, versionId) => remote.rulesInForce(t, versionId);
      resolvePerson = (t, id) => remote.personHandle(t, id);
      authorityReachable = () => remote.reachable();
      tenant = remote.tenant;
      // §14: an erase posted to this agent goes to the authority, then reaches this agent's own
      // stores and caches too (the corpus, its tasks, its ingest ledger, its memory), bytes included.
      forgetMemory = () => {
        matchingRuntime.forgetEverything();
        remote.forget();
      };
      remoteErase = createForwardedErase({
        remote,
        erasers: processErasers([remoteCacheEraser(remote)]),
      });
      // Issue 26 (§13.1): this agent holds the corpus, so a lesson posted here is checked against it
      // (under the version the authority has active now) before it is forwarded.
      remoteLesson = createForwardedLesson({
        remote,
        check: (t, body) =>
          checkLessonAtAgent(
            { corpus, learnables, settings, matcherCache, definitions: remote, clock: systemClock },
            t,
            body,
          ),
      });
    } else {
      const stored = createSqliteDefinitionStore(db, pushed === undefined ? {} : { pushed });
      // Its own commits wake the long-polls at once (another replica's come by NOTIFY, above).
      const definitionStore: typeof stored = {
        ...stored,
        async commit(t, request) {
          const result = await stored.commit(t, request);
          if (result === 'committed') headBell.ring(t);
          return result;
        },
      };
      analyses = createSqliteMarkAnalyses(db);
      // Issue 39: the tenant's people, whose forwards are read as the message they forward.
      colleagues = createColleagues(db);
      // A lesson an application wrote for a person reads "dana@…, via app:…" (§13.4).
      resolvePerson = (t, id) => displayProvenance(id, (person) => definitionStore.personHandle(t, person));
      const embedded = createAuthority({
        store: definitionStore,
        learnables,
        settings,
        clock: systemClock,
        // §9: an application's or service's own name is never a taughtBy.
        isServiceAccount: (t, name) => tokens.isServiceAccount(t, name),
        // §14: an erase reaches every store and cache of this process, then the bytes leave the file.
        erasers: processErasers(),
        // §13.1 (issue 26): every lesson is tried on this process's corpus before it is absorbed.
        checkLesson: createLessonCheck({ corpus, learnables, settings, matcherCache }),
      });
      authority = embedded;
      source = embedded;
      forgetMemory = () => {
        matchingRuntime.forgetEverything();
        embedded.forgetMemory();
      };
      const directory = JSON.parse(readFileSync(DEMO_DIRECTORY_FILE, 'utf8')) as DirectoryImport;
      await ensureDemoTenant(authority, directory);
    }

    // The agent's own callers need a token too when the authority is elsewhere: for the tenant it serves.
    const demoToken = await firstStartToken(tokens, tenant, dataDir, announce);
    // Issue 51: one budget for what every tenant's reading holds (its definitions and objects when the
    // authority is embedded, its compiled matchers); the least recently used tenant is forgotten whole.
    const matchersOfTenants = matchersByTenant(matcherCache);
    const tenantMemory = createTenantMemory({
      budgetBytes: config.matcherMemoryBudgetMb * 2 ** 20,
      parts: [...(authority === null ? [] : [authority.memory]), matchersOfTenants],
    });
    tenantMemoryMetrics(metrics.registry, () => tenantMemory.stats());
    const triage = createTriageService({
      definitions: withinBudget(
        watchedForErasures(source, eraseWatch, db, recentTenants),
        tenantMemory,
        matchersOfTenants,
      ),
      corpus,
      learnables,
      settings: {
        ...settings,
        rawMailRetentionDays: config.rawMailRetentionDays,
        ...(config.corpusRetentionDays === undefined
          ? {}
          : { corpusRetentionDays: config.corpusRetentionDays }),
      },
      matcherCache,
      ...(analyses === undefined ? {} : { analyses }),
      clock: systemClock,
      ...(resolvePerson === undefined ? {} : { resolvePerson }),
      ...(colleagues === undefined ? {} : { colleagues }),
    });
    if (config.role !== 'authority') {
      const log = faultLogOf(logger);
      // One compile per new version: the matcher cache shares a compile in progress for a version
      // with every task that asks for it meanwhile, and answers later ones from the cache.
      onActivated = (t) => {
        if (!recentTenants.has(t)) return; // a tenant this process does not serve now compiles on its first task
        void source
          .active(t)
          .then(({ definition }) =>
            matcherCache.matcherFor(definition, learnables, analysisKeeping(analyses, t)),
          )
          .catch((e: unknown) => log('compiling a newly activated version failed', e));
      };
    }
    const agent =
      config.role === 'authority'
        ? null
        : { triage, mail: mailReaderFor(mailLimitsOf(config)), descriptors: () => source.descriptors() };
    // Mail pipelines (MAILBOXES, INBOUND_WEBHOOKS): the same in-process path as triage_inbound.
    // One admission gate for every path mail comes in by (issue 16): A2A, webhooks, IMAP.
    const admission = createAdmission(admissionLimitsOf(config));
    const mail = composeMailIngest({
      config,
      db,
      submitMail: () => a2a?.submitMail.bind(a2a) ?? null,
      taskFiling: () => a2a?.taskFiling.bind(a2a) ?? null,
      log: logger,
      admission,
    });
    // /readyz: each part by name (the database check is the server's own).
    const servedTenants = [
      ...new Set<TenantId>([
        tenant,
        ...config.mailboxes.map((m) => m.tenant as TenantId),
        ...config.inboundWebhooks.map((w) => w.tenant as TenantId),
      ]),
    ];
    const matchers =
      agent === null
        ? []
        : servedTenants.map((t) =>
            matcherCheck(t, {
              active: async () => {
                const a = await source.active(t);
                return { definitionVersion: a.definitionVersion, versionId: a.definition.versionId };
              },
              compiled: () => matcherCache.versions(),
              // The path a task takes (sliced, reading and keeping the tenant's analyses).
              compile: async () =>
                matcherCache.matcherFor(
                  (await source.active(t)).definition,
                  learnables,
                  analysisKeeping(analyses, t),
                ),
            }),
          );
    for (const m of matchers) m.warm(); // the first task of each tenant served need not wait for it
    const readiness: ReadinessCheck[] = [
      ...matchers,
      ...polledMailboxes.map((m, i) => mailboxCheck(m.name, () => mail.pollers[i]!.status())),
      ...(authorityReachable === undefined ? [] : [authorityCheck(authorityReachable)]),
    ];
    metrics.onScrape((set) =>
      polledMailboxes.forEach((m, i) => {
        const s = mail.pollers[i]!.status();
        set.mailbox(m.name, {
          connected: s.connected,
          reconnects: s.reconnects,
          lagSeconds: s.lagSeconds,
          backlog: s.backlog,
        });
      }),
    );
    const server = createServer({
      config,
      db,
      headBell,
      verifier: tokens,
      authority,
      taskPins: createSqliteTaskPins(db),
      dryRun: (t, _principal, lesson) => triage.dryRun(t, lesson),
      // Issue 38: the senders of a collection whose learnable keeps a record (default: the first).
      senders: async (t, collection, limit) => {
        const l = learnables.find(
          (x) => x.recordKeys !== undefined && (collection === undefined || x.collection === collection),
        );
        return l === undefined
          ? null
          : { collection: l.collection, senders: await triage.senders(t, l.collection, limit) };
      },
      entryLabels: learnables,
      agent,
      admission,
      authThrottle: createAuthThrottle({
        burst: config.authFailureBurst,
        perMinute: config.authFailuresPerMinute,
      }),
      ...(remoteRulesInForce === undefined ? {} : { remoteRulesInForce }),
      ...(remoteErase === undefined ? {} : { remoteErase }),
      ...(remoteLesson === undefined ? {} : { remoteLesson }),
      ...(agent === null ? {} : { inbound: mail.router }),
      ...(config.authorityUrl === undefined ? {} : { remoteAuthorityUrl: config.authorityUrl }),
      ...(options.worker === undefined ? {} : { worker: options.worker }),
      delivery: {
        allowedHosts: config.pushNotificationAllowedHosts,
        maxAttempts: config.deliveryMaxAttempts,
        retryBaseMs: config.deliveryRetryBaseMs,
        retentionDays: config.deliveryRetentionDays,
        pollMs: config.deliveryPollMs,
        bell: deliveryBell,
      },
      observability: {
        logger,
        metrics,
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        ...(config.metricsPort === undefined ? {} : { metricsPort: config.metricsPort }),
        readiness: () => readiness,
      },
    });
    a2a = server.a2a;
    // §14: raw mail is kept RAW_MAIL_RETENTION_DAYS, then incinerated (swept now and periodically).
    const retention = createRawMailRetention({
      db,
      corpus,
      days: config.rawMailRetentionDays,
      log: faultLogOf(logger),
    });
    await retention.start();
    // Pollers retry unreachable mailboxes in the background; with WORKERS, one worker polls (cluster.ts).
    if (agent !== null && polling) await mail.start();
    return {
      server,
      demoToken,
      admission,
      async close() {
        await retention.stop();
        await mail.stop();
        closeRemote();
        await server.close();
        await eraseFeed?.stop();
        await db.destroy();
      },
    };
  } catch (e) {
    closeRemote();
    await eraseFeed?.stop();
    await db.destroy();
    throw e;
  }
}

/**
 * The definitions triage reads, each read first asking whether another process erased since (§14):
 * every task, show-back and dry run resolves its version through here before it uses the memory.
 */
function watchedForErasures(
  source: DefinitionSource,
  watch: EraseWatch,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  db: Kysely<any>,
  recentTenants: Set<TenantId>,
): DefinitionSource {
  return {
    descriptors: () => source.descriptors(),
    async active(tenant, options) {
      recentTenants.delete(tenant);
      recentTenants.add(tenant);
      if (recentTenants.size > MAX_RECENT_TENANTS) recentTenants.delete(recentTenants.values().next().value!);
      // The head read asks the database whether another process committed; the watch reuses that
      // answer (one pragma per task, not two). Found an erase: memory is forgotten, resolve again.
      const before = checksMade(db);
      const pinned = await source.active(tenant, options);
      return (await watch.check(before)) ? source.active(tenant, options) : pinned;
    },
    async load(tenant, versionId) {
      await watch.check();
      return source.load(tenant, versionId);
    },
  };
}

/** The A2A adapter's MailReader over the ingest parsers (mailparser; data-part fields), with the configured limits. */
function mailReaderFor(limits: MailLimits): MailReader {
  return {
    parse: (raw) => parseMail(raw, limits),
    fromFields: (fields) => messageFromFields(fields, limits),
  };
}

/**
 * §13.2 first start: the demo tenant gets one admin token, printed once and written to a file only
 * the owner can read. A later start (the tenant already has tokens) creates nothing.
 */
async function firstStartToken(
  tokens: ReturnType<typeof createSqliteTokenStore>,
  tenant: TenantId,
  dataDir: string,
  announce: (line: string) => void,
): Promise<string | null> {
  if ((await tokens.list(tenant)).length > 0) return null;
  const { token, record } = await tokens.create({
    tenant,
    principal: 'demo-operator',
    // An application (a console) acting for the people it names in taughtBy; a person's token could
    // only write as that person (§13.2, attribution.ts).
    kind: 'application',
    roles: ['admin'],
  });
  const file = join(dataDir, DEMO_TOKEN_FILE);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // in case the file existed with wider permissions
  announce(
    `First start: created an admin token for the "${tenant}" tenant (${record.id}). It is shown only now:\n\n  ${token}\n\n` +
      `It is also saved in ${file} (readable only by you). Create more with \`npx learnables-triage tokens create\`.`,
  );
  return token;
}

/**
 * PUBLIC_URL (decided in issue 18): bound to every interface (HOST=0.0.0.0 or ::, the Docker
 * default) without PUBLIC_URL, the card advertises http://127.0.0.1:PORT, which only a client on
 * this machine (or through a port mapped to it) can reach. The server still starts, so `docker run -p`
 * works on one machine, but says so loudly, once, naming the setting to fix it.
 */
export function warnWithoutPublicUrl(config: Pick<Config, 'host' | 'publicUrl'>, logger: Logger): void {
  if (config.publicUrl !== undefined || !['0.0.0.0', '::', '[::]'].includes(config.host)) return;
  logger.warn(
    { setting: 'PUBLIC_URL', host: config.host },
    `HOST=${config.host} listens on every interface, but PUBLIC_URL is not set, so the agent card advertises http://127.0.0.1:<port>, which remote clients cannot reach. Set PUBLIC_URL to the address they use, e.g. PUBLIC_URL=https://triage.example.com.`,
  );
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel });
  const where = `data in ${describeStore({ databaseUrl: config.databaseUrl, dataDir: resolve(config.dataDir) })}`;
  const role = config.role === 'authority' ? 'authority' : 'agent';
  if (config.workers > 1) {
    // WORKERS (issue 15): one port, N processes on one store (src/cluster.ts).
    await runCluster({
      workers: config.workers,
      log: logger,
      prepare: () => prepareStore(config),
      serve: async (worker) => {
        const composition = await compose(config, { logger, worker });
        const { localUrl } = await composition.server.listen(config.port, config.host);
        return { url: localUrl, close: () => composition.close() };
      },
      onListening: (url, pids) =>
        process.stdout.write(
          `learnables-triage ${role} listening on ${url} (${pids.length} workers, pids ${pids.join(' ')}; ${where})\n`,
        ),
    });
    return;
  }
  const composition = await compose(config, { logger });
  const { localUrl: url } = await composition.server.listen(config.port, config.host);
  process.stdout.write(`learnables-triage ${role} listening on ${url} (${where})\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    composition.close().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.fatal({ err: redactForLog(e) }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * What WORKERS' primary does once before any worker starts: the migrations (openStore applies
 * them), and the tasks a previous run left submitted or working are told so. A worker never does
 * the latter: it would fail its siblings' tasks in flight.
 */
async function prepareStore(config: Config): Promise<void> {
  mkdirSync(resolve(config.dataDir), { recursive: true });
  const db = await openStore({ databaseUrl: config.databaseUrl, dataDir: resolve(config.dataDir) });
  try {
    await failInterruptedTasks(db, Date.now());
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    // Before the log exists (a bad setting): a sentence for the person starting it, not a log line.
    process.stderr.write(`${redactForLog(e instanceof Error ? e.message : e)}\n`);
    process.exit(1);
  });
}
