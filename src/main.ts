/**
 * Composition root: configuration, the database, the authority (embedded, or remote through
 * AUTHORITY_URL), the triage service, the token store, and the server. On the first start with an
 * empty data directory it creates the demo tenant and prints a token for it once, also writing it to
 * DATA_DIR/demo-token readable only by its owner.
 *
 * `compose(config)` builds everything without listening (tests and the card check use it);
 * running this file listens and stops cleanly on SIGINT/SIGTERM.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MailReader } from './a2a/ports.ts';
import { createAdmission, type Admission } from './admission/admission.ts';
import { createAuthThrottle } from './admission/auth-throttle.ts';
import { admissionLimitsOf, loadConfig, mailLimitsOf, type Config } from './config/config.ts';
import type { MailLimits } from './domain/mail/index.ts';
import { createLearnables, type Learnable } from './domain/learnables/index.ts';
import type { TriageService } from './domain/triage/index.ts';
import { redactForLog } from './domain/log-redaction.ts';
import type { TenantId } from './domain/tenant.ts';
import { messageFromFields } from './ingest/mail/from-fields.ts';
import { parseMail } from './ingest/mail/parse.ts';
import { runCluster } from './cluster.ts';
import { composeDefinitions, type Topology } from './compose-definitions.ts';
import { composeMailIngest } from './compose-mail.ts';
import { composeProcess, type ProcessParts } from './compose-process.ts';
import { composeTriage } from './compose-triage.ts';
import { createServer, type AppServer, type ServerDeps, type WorkerIdentity } from './server.ts';
import { createLogger, faultLogOf, type Logger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { authorityCheck, mailboxCheck, type ReadinessCheck } from './observability/readiness.ts';
import { describeStore, openStore, serverDatabase } from './store/open-store.ts';
import { failInterruptedTasks } from './store/interrupted-tasks.ts';
import { createRawMailRetention } from './store/raw-mail-retention.ts';
import { createSqliteTaskPins } from './store/sqlite-task-pins.ts';
import type { createSqliteTokenStore } from './store/sqlite-token-store.ts';

/** The demo directory imported on first start. */
export { DEMO_DIRECTORY_FILE } from './compose-definitions.ts';
/** The database file under DATA_DIR. */
export { DATABASE_FILE_NAME as DATABASE_FILE } from './store/database.ts';
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
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const metrics = createMetrics({ maxTenants: config.metricsMaxTenants });
  warnWithoutPublicUrl(config, logger);
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // DATABASE_URL: PostgreSQL, shared by every replica; else the SQLite file under DATA_DIR.
  const db = await openStore({ databaseUrl: config.databaseUrl, dataDir });
  const closing = closers(() => db.destroy());
  try {
    // A task a killed process left submitted or working is told so, not left waiting forever.
    if (options.worker === undefined) await failInterruptedTasks(db, Date.now());
    const parts = await composeProcess({ config, db, logger, metrics });
    closing.add(() => parts.close());
    const learnables = createLearnables(options.learnables);
    const settings = { identificationMargin: config.identificationMargin };
    const topology = await composeDefinitions({ config, parts, learnables, settings, logger });
    closing.add(() => topology.close());
    parts.forgetting.add(() => parts.recentTasksDropped.call());
    if (options.onMemoryForgotten !== undefined) parts.forgetting.add(options.onMemoryForgotten);
    const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
    // The agent's own callers need a token too when the authority is elsewhere: for the tenant it serves.
    const demoToken = await firstStartToken(parts.tokens, topology.tenant, dataDir, announce);
    const { triage, matchers } = composeTriage({
      config,
      parts,
      topology,
      learnables,
      settings,
      logger,
      metrics,
    });
    // One admission gate for every path mail comes in by: A2A, webhooks (INBOUND_WEBHOOKS), IMAP (MAILBOXES).
    const admission = createAdmission(admissionLimitsOf(config));
    let a2a: AppServer['a2a'] = null; // the mail pipelines reach the A2A app, made after them
    const mail = composeMailIngest({
      config,
      db,
      submitMail: () => a2a?.submitMail.bind(a2a) ?? null,
      taskFiling: () => a2a?.taskFiling.bind(a2a) ?? null,
      log: logger,
      admission,
    });
    const server = createServer(
      serverDeps({
        config,
        options,
        parts,
        topology,
        triage,
        learnables,
        admission,
        mail,
        logger,
        metrics,
        matchers,
      }),
    );
    closing.add(() => server.close());
    closing.add(() => mail.stop()); // before the server: no mail is taken in while it closes
    a2a = server.a2a;
    parts.recentTasksDropped.add(() => server.a2a?.forgetRecentTasks());
    // §14: raw mail is kept RAW_MAIL_RETENTION_DAYS, then incinerated (swept now and periodically).
    const retention = createRawMailRetention({
      db,
      corpus: parts.corpus,
      days: config.rawMailRetentionDays,
      log: faultLogOf(logger),
    });
    await retention.start();
    closing.add(() => retention.stop());
    // Pollers retry unreachable mailboxes in the background; with WORKERS, one worker polls (cluster.ts).
    if (config.role !== 'authority' && (options.worker?.pollsMailboxes ?? true)) await mail.start();
    return { server, demoToken, admission, close: () => closing.run() };
  } catch (e) {
    await closing.run();
    throw e;
  }
}

/** What to close on the way out, the last added first (a part closes before what it was made on). */
function closers(first: () => Promise<void>) {
  const fns: (() => unknown)[] = [first];
  return {
    add: (fn: () => unknown) => void fns.push(fn),
    run: async (): Promise<void> => {
      for (const fn of fns.splice(0).reverse()) await fn();
    },
  };
}

/** The server's dependencies, read from the parts compose made (one field per part; no topology branch but the tagged one). */
function serverDeps(c: {
  readonly config: Config;
  readonly options: ComposeOptions;
  readonly parts: ProcessParts;
  readonly topology: Topology;
  readonly triage: TriageService;
  readonly learnables: readonly Learnable[];
  readonly admission: Admission;
  readonly mail: ReturnType<typeof composeMailIngest>;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly matchers: readonly ReadinessCheck[];
}): ServerDeps {
  const { config, parts, topology, triage, learnables } = c;
  const agent =
    config.role === 'authority'
      ? null
      : {
          triage,
          mail: mailReaderFor(mailLimitsOf(config)),
          descriptors: () => topology.source.descriptors(),
        };
  return {
    config,
    database: serverDatabase(parts.db),
    headBell: parts.headBell,
    verifier: parts.tokens,
    authority: topology.kind === 'embedded' ? topology.authority : null,
    ...(topology.kind === 'remote' ? { remote: topology.remote } : {}),
    taskPins: createSqliteTaskPins(parts.db),
    dryRun: (t, _principal, lesson) => triage.dryRun(t, lesson),
    // The senders of a collection whose learnable keeps a record (default: the first).
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
    admission: c.admission,
    authThrottle: createAuthThrottle({
      burst: config.authFailureBurst,
      perMinute: config.authFailuresPerMinute,
    }),
    ...(agent === null ? {} : { inbound: c.mail.router }),
    ...(c.options.worker === undefined ? {} : { worker: c.options.worker }),
    delivery: {
      allowedHosts: config.pushNotificationAllowedHosts,
      maxAttempts: config.deliveryMaxAttempts,
      retryBaseMs: config.deliveryRetryBaseMs,
      retentionDays: config.deliveryRetentionDays,
      pollMs: config.deliveryPollMs,
      bell: parts.deliveryBell,
    },
    observability: {
      logger: c.logger,
      metrics: c.metrics,
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
      ...(config.metricsPort === undefined ? {} : { metricsPort: config.metricsPort }),
      readiness: readinessOf(c),
    },
  };
}

/**
 * /readyz beside the database (the server's own check): each served tenant's matcher, each mailbox
 * this process polls, the remote authority. The mailboxes are scraped into the metrics too.
 */
function readinessOf(c: {
  readonly config: Config;
  readonly options: ComposeOptions;
  readonly topology: Topology;
  readonly mail: ReturnType<typeof composeMailIngest>;
  readonly metrics: Metrics;
  readonly matchers: readonly ReadinessCheck[];
}): () => readonly ReadinessCheck[] {
  const polled = (c.options.worker?.pollsMailboxes ?? true) ? c.config.mailboxes : [];
  const status = (i: number) => c.mail.pollers[i]!.status();
  const readiness: ReadinessCheck[] = [
    ...c.matchers,
    ...polled.map((m, i) => mailboxCheck(m.name, () => status(i))),
    ...(c.topology.kind === 'remote' ? [authorityCheck(c.topology.reachable)] : []),
  ];
  c.metrics.onScrape((set) =>
    polled.forEach((m, i) => {
      const { connected, reconnects, lagSeconds, backlog } = status(i);
      set.mailbox(m.name, { connected, reconnects, lagSeconds, backlog });
    }),
  );
  return () => readiness;
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
    // WORKERS: one port, N processes on one store (src/cluster.ts).
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
