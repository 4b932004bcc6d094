/**
 * createServer(deps): the express app of one process, wired from ports, with listen/close. Tests
 * use it directly (listening on 127.0.0.1:0); main.ts builds the production dependencies.
 *
 * Routes: the agent card (public), /healthz and /readyz (public), /metrics (METRICS_TOKEN, or its
 * own port), /a2a/jsonrpc and /a2a/rest (bearer token with the read role; the Teach method also
 * needs teach), /authority/v1/openapi.json (public) and /authority/v1 when this process owns an
 * authority. Every request gets one JSON log line (src/observability/http-log.ts); the triage port
 * and the authority are observed at this boundary (src/observability/observed.ts). Either role can be absent: an agent against a remote authority (AUTHORITY_URL) has
 * no /authority/v1; an authority-only process has no /a2a.
 *
 * Deliberately does not: read the environment (config is passed in) or open the database.
 */
import type { HeadBell } from './http/head-bell.ts';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Router } from 'express';
import type { Kysely } from 'kysely';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { createA2AApp, type A2AApp } from './a2a/a2a-app.ts';
import { deliveryBodies, deliveryEventOf } from './a2a/delivery-bodies.ts';
import { principalOfContext } from './a2a/user.ts';
import type { Dispatcher } from './delivery/dispatcher.ts';
import { createDelivery, type Delivery, type DeliverySettings } from './compose-delivery.ts';
import { deliveryMetrics } from './observability/delivery-metrics.ts';
import type { Admission } from './admission/admission.ts';
import type { AuthThrottle } from './admission/auth-throttle.ts';
import type { MailReader, TriagePort } from './a2a/ports.ts';
import { DELIVERY_DEFAULTS, publicBaseUrl, type Config } from './config/config.ts';
import type { Authority, TokenVerifier } from './domain/authority/index.ts';
import { DEFAULT_MAIL_LIMITS } from './domain/mail/index.ts';
import { JSONRPC_PATH, REST_PATH } from './a2a/agent-card.ts';
import { bearerAuth, principalOf, requireRole } from './http/auth.ts';
import {
  AUTHORITY_API_PATH,
  createAuthorityRouter,
  createAgentSideRouter,
  type AgentSideRouterDeps,
  type LessonDryRun,
  type SendersView,
  type TaskPinReader,
} from './http/authority-api.ts';
import { authorityCors, CONSOLE_PATH, consoleRouter } from './http/console.ts';
import { createEntriesRouter, ENTRIES_PATH, type EntriesApiDeps } from './http/entries-api.ts';
import { createDeliveriesRouter, DELIVERIES_PATH } from './http/deliveries-api.ts';
import { errorHandler, notFoundHandler, type FaultLog } from './http/errors.ts';
import { healthRouter } from './http/health.ts';
import { openApiRouter } from './http/openapi.ts';
import { INBOUND_PATH } from './ingest/index.ts';
import { versionedCard } from './http/card-version.ts';
import { createLogger, faultLogOf, type Logger } from './observability/logger.ts';
import { requestLog } from './observability/http-log.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { httpMetrics } from './observability/http-metrics.ts';
import { metricsOffRouter, metricsRouter } from './observability/metrics-route.ts';
import { observeAuthority, observeTriage } from './observability/observed.ts';
import { databaseCheck, readinessRouter, type ReadinessCheck } from './observability/readiness.ts';
import { sql } from 'kysely';

/** What the agent needs to serve A2A. */
export interface AgentDeps {
  readonly triage: TriagePort;
  readonly mail: MailReader;
  /** §6.2 descriptors for the card (the authority's, embedded or remote). */
  readonly descriptors: Authority['descriptors'];
  /** Serve v0.3 clients through the SDK's compatibility layer. Default true. */
  readonly legacyCompat?: boolean;
}

/** One of WORKERS server processes (src/cluster.ts): every response names it (X-Worker-Id, X-Worker-Pid). */
export interface WorkerIdentity {
  /** 1 … WORKERS; a restarted worker keeps its number. */
  readonly index: number;
  readonly pollsMailboxes: boolean;
}

export interface ServerDeps {
  /** Wakes the authority's GET /head?after= long-polls at a new activation. Default: they re-read every second. */
  readonly headBell?: HeadBell;
  /** Set when this process is one of several workers on one port. */
  readonly worker?: WorkerIdentity;
  /** `maxMessageBytes` sizes the A2A body limit (default: the mail limits' default). */
  readonly config: Pick<Config, 'host' | 'port' | 'publicUrl'> &
    Partial<Pick<Config, 'maxMessageBytes' | 'maxJsonDepth'>>;
  /** The admission gate shared by A2A and the mail pipelines (src/admission); none: unbounded. */
  readonly admission?: Admission;
  /** Wrong tokens throttled per source (src/admission/auth-throttle.ts); none: not throttled. */
  readonly authThrottle?: AuthThrottle;
  /** The migrated database (tasks, tokens, …) and what the server asks of it. */
  readonly database: ServerDatabase;
  readonly verifier: TokenVerifier;
  /** The embedded authority: mounts /authority/v1 and makes the agent self-owning (§12.2). Null: definitions come from elsewhere. */
  readonly authority: Authority | null;
  readonly taskPins?: TaskPinReader;
  readonly dryRun?: LessonDryRun;
  /** GET /authority/v1/senders, from the corpus this agent keeps. */
  readonly senders?: SendersView;
  /** Null: an authority-only process. */
  readonly agent: AgentDeps | null;
  /** Set with a remote authority (§12.1, AUTHORITY_URL): what the agent serves on its behalf. */
  readonly remote?: RemoteAuthoritySide;
  readonly log?: FaultLog;
  /** With the embedded authority: the learnables that label entries for GET /authority/v1/entries. */
  readonly entryLabels?: EntriesApiDeps['learnables'];
  /** The inbound-mail webhooks (src/ingest), mounted at /inbound/v1 with their own auth and body parsing. */
  readonly inbound?: Router;
  /** Logs, metrics and readiness. Default: a log at `info` on stderr, metrics off, readiness of the database. */
  readonly observability?: Observability;
  /** How push notifications and delivery webhooks are sent. Default: DEFAULT_DELIVERY. */
  readonly delivery?: DeliverySettings;
}

export type { DeliverySettings };

/** The database as the server uses it (store/open-store.ts `serverDatabase` makes one). */
export interface ServerDatabase {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  readonly db: Kysely<any>;
  /** Replicas on one PostgreSQL write the same task rows. */
  readonly shared: boolean;
  /** Runs a request so it asks the database once whether another process committed (read-validity.ts). */
  oneCheckPerCall<T>(fn: () => T): T;
}

/**
 * What an agent against a remote authority (§12.1) serves itself: GET /authority/v1/rules-in-force
 * (it holds the task pins), asked of that authority; POST /authority/v1/erase and /lessons,
 * forwarded (§14, §13.1); and the authority's URL, named when a caller posts here what only the
 * authority takes.
 */
export interface RemoteAuthoritySide {
  readonly authorityUrl: string;
  readonly rulesInForce: Authority['rulesInForce'];
  readonly erase: NonNullable<AgentSideRouterDeps['erase']>;
  readonly lesson: NonNullable<AgentSideRouterDeps['lesson']>;
}

export const DEFAULT_DELIVERY: DeliverySettings = { allowedHosts: [], ...DELIVERY_DEFAULTS };

export interface Observability {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** METRICS_TOKEN: opens /metrics on the main port. METRICS_PORT: serves it on its own listener. */
  readonly metricsToken?: string;
  readonly metricsPort?: number;
  /** The parts /readyz asks beside the database (mailboxes, matchers, the remote authority). */
  readonly readiness?: () => readonly ReadinessCheck[];
}

export interface RunningServer {
  /** The base URL the card advertises (PUBLIC_URL, else the bound address). */
  readonly url: string;
  /** The bound address, for callers on this machine. */
  readonly localUrl: string;
  readonly port: number;
  /** The metrics listener's port (METRICS_PORT; 0 binds any), or null. */
  readonly metricsPort: number | null;
}

export interface AppServer {
  readonly app: Express;
  /** The A2A wiring (card, request handler, in-process mail submission); null for an authority-only process. */
  readonly a2a: A2AApp | null;
  listen(port?: number, host?: string): Promise<RunningServer>;
  close(): Promise<void>;
}

/** The largest A2A request body: a message of `maxMessageBytes`, base64-encoded, in its JSON envelope. */
export function a2aBodyLimit(maxMessageBytes: number): number {
  return Math.ceil(maxMessageBytes * 1.4) + 64 * 1024;
}

export function createServer(deps: ServerDeps): AppServer {
  const obs = deps.observability ?? {
    logger: createLogger({ level: 'info' }),
    metrics: createMetrics(),
  };
  const { logger, metrics } = obs;
  const log = deps.log ?? faultLogOf(logger);
  let baseUrl = publicBaseUrl(deps.config, deps.config.port);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  if (deps.worker !== undefined) {
    const { index } = deps.worker;
    app.use((_req, res, next) => {
      res.setHeader('X-Worker-Id', String(index));
      res.setHeader('X-Worker-Pid', String(process.pid));
      next();
    });
  }
  if (deps.authThrottle !== undefined) app.use(deps.authThrottle.middleware);
  app.use(requestLog(logger), httpMetrics(metrics));
  // A request asks the database once whether another process committed (read-validity.ts).
  app.use((_req, _res, next) => deps.database.oneCheckPerCall(next));
  app.use(healthRouter());
  const { db } = deps.database;
  const checks = (): readonly ReadinessCheck[] => [
    databaseCheck(() => sql`select 1`.execute(db)),
    ...(obs.readiness?.() ?? []),
  ];
  app.use(readinessRouter(checks));
  if (obs.metricsToken !== undefined) app.use(metricsRouter(metrics, { token: obs.metricsToken }));
  else app.use(metricsOffRouter());
  const authority = deps.authority === null ? null : observeAuthority(deps.authority, metrics);
  app.use(CONSOLE_PATH, consoleRouter()).use(AUTHORITY_API_PATH, authorityCors()); // issue 17: the operator console

  const agent =
    deps.agent === null
      ? null
      : mountAgent(app, deps, deps.agent, { authority, log, logger, metrics, baseUrl: () => baseUrl });
  const a2a = agent?.a2a ?? null;
  const dispatcher = agent?.dispatcher ?? null;
  if (authority !== null || deps.inbound !== undefined) app.use(AUTHORITY_API_PATH, openApiRouter());
  if (authority !== null) {
    if (deps.entryLabels !== undefined)
      app.use(
        ENTRIES_PATH,
        createEntriesRouter({
          authority,
          verifier: deps.verifier,
          learnables: deps.entryLabels,
        }),
      );
    app.use(
      AUTHORITY_API_PATH,
      createAuthorityRouter({
        authority,
        verifier: deps.verifier,
        taskPins: deps.taskPins ?? { pinOf: () => Promise.resolve(null) },
        ...(deps.dryRun === undefined ? {} : { dryRun: deps.dryRun }),
        ...(deps.senders === undefined ? {} : { senders: deps.senders }),
        ...(deps.headBell === undefined ? {} : { headBell: deps.headBell }),
        log,
      }),
    );
  }
  if (authority === null && deps.remote !== undefined && deps.taskPins !== undefined) {
    // §13.4: "which rules were in force when task X was decided" stays one call against the agent;
    // §13.1: so does a dry run, against the corpus this agent keeps.
    const { remote } = deps;
    app.use(
      AUTHORITY_API_PATH,
      createAgentSideRouter({
        verifier: deps.verifier,
        taskPins: deps.taskPins,
        rulesInForce: remote.rulesInForce,
        authorityUrl: remote.authorityUrl,
        erase: remote.erase,
        lesson: remote.lesson,
        ...(deps.dryRun === undefined ? {} : { dryRun: deps.dryRun }),
        ...(deps.senders === undefined ? {} : { senders: deps.senders }),
        log,
      }),
    );
  }
  if (deps.inbound !== undefined) app.use(INBOUND_PATH, deps.inbound);
  app.use(notFoundHandler());
  app.use(errorHandler(log));

  let server: Server | null = null;
  let metricsServer: Server | null = null;
  return {
    app,
    a2a,
    async listen(port = deps.config.port, host = deps.config.host) {
      if (server !== null) throw new Error('createServer: already listening');
      const s = createHttpServer(app);
      server = s;
      await listenOn(s, port, host);
      dispatcher?.start();
      const bound = (s.address() as AddressInfo).port;
      baseUrl = publicBaseUrl({ ...deps.config, host }, bound);
      let metricsPort: number | null = null;
      if (obs.metricsPort !== undefined) {
        // METRICS_PORT: the exposition alone, without a token, for a network only the scraper reaches.
        const m = express()
          .disable('x-powered-by')
          .use(metricsRouter(metrics, { token: null }));
        metricsServer = createHttpServer(m);
        await listenOn(metricsServer, obs.metricsPort, host);
        metricsPort = (metricsServer.address() as AddressInfo).port;
      }
      return {
        url: baseUrl,
        localUrl: publicBaseUrl({ publicUrl: undefined, host }, bound),
        port: bound,
        metricsPort,
      };
    },
    async close() {
      const s = server;
      const m = metricsServer;
      server = metricsServer = null;
      await dispatcher?.stop();
      await Promise.all([s, m].map((x) => (x === null ? Promise.resolve() : closeServer(x))));
    },
  };
}

/**
 * The agent's routes: the card (public; §7, the declaration is data-only), A2A over JSON-RPC and
 * REST behind a token (§13.2), and the tenant's delivery webhooks beside the tasks they report on.
 */
function mountAgent(
  app: Express,
  deps: ServerDeps,
  agent: AgentDeps,
  on: {
    readonly authority: Authority | null;
    readonly log: FaultLog;
    readonly logger: Logger;
    readonly metrics: Metrics;
    readonly baseUrl: () => string;
  },
): { a2a: A2AApp; dispatcher: Dispatcher } {
  const delivery = deliveryOf(deps, on.logger, on.metrics);
  const a2a = createA2AApp({
    baseUrl: on.baseUrl,
    descriptors: agent.descriptors(),
    triage: observeTriage(agent.triage, on.logger, on.metrics),
    mail: agent.mail,
    taskStore: (ownerResolver) => delivery.taskStore(ownerResolver),
    pushNotifications: delivery.pushConfigs,
    lessons: on.authority,
    principalOf: (req: Request) => principalOf(req.res!),
    legacyCompat: agent.legacyCompat ?? true,
    bodyLimitBytes: a2aBodyLimit(deps.config.maxMessageBytes ?? DEFAULT_MAIL_LIMITS.maxMessageBytes),
    ...(deps.config.maxJsonDepth === undefined ? {} : { maxJsonDepth: deps.config.maxJsonDepth }),
    ...(deps.admission === undefined ? {} : { admission: deps.admission }),
    log: on.log,
    // Replicas on one PostgreSQL write the same task rows.
    sharedTasks: deps.database.shared,
  });
  // A GET without A2A-Version gets the v1.0 card; a v0.3 client asks with A2A-Version: 0.3 or at
  // the pre-1.0 path (card-version.ts).
  app.use(`/${AGENT_CARD_PATH}`, versionedCard('negotiate'), a2a.cardRouter);
  if (agent.legacyCompat ?? true) app.use(LEGACY_CARD_PATH, versionedCard('0.3'), a2a.cardRouter);
  // §13.2: every A2A call needs a token; the tenant is the token's.
  const guard = [bearerAuth(deps.verifier), requireRole('read')];
  // Bodies are read once, after the token check, bounded and admitted by the A2A app itself
  // (a2a/json-body.ts), with room for the largest message the mail limits accept; the SDK's own
  // parsers then find them read (left alone, they cap a body at 100 KB, the Teach router's at 1 MB).
  app.use(JSONRPC_PATH, ...guard, ...a2a.jsonRpcRouters);
  app.use(REST_PATH, ...guard, a2a.restRouter);
  app.use(
    DELIVERIES_PATH,
    createDeliveriesRouter({
      verifier: deps.verifier,
      endpoints: delivery.endpoints,
      checkUrl: async (url) => {
        await delivery.guard.checkUrl(url);
      },
    }),
  );
  return { a2a, dispatcher: delivery.dispatcher };
}

const tenantOf = (context: Parameters<typeof principalOfContext>[0]) => principalOfContext(context).tenant;

/** Delivery (src/compose-delivery.ts) with this server's wire wording, bodies and metrics. */
function deliveryOf(deps: ServerDeps, logger: Logger, metrics: Metrics): Delivery {
  const counted = deliveryMetrics(metrics.registry);
  return createDelivery({
    db: deps.database.db,
    settings: deps.delivery ?? DEFAULT_DELIVERY,
    log: logger,
    tenantOf,
    delivered: (task) => deliveryEventOf(task) !== null,
    bodiesOf: deliveryBodies,
    // The refusal in the caller's transport's shape: INVALID_PARAMS / 400, naming the rule.
    refused: (message) => new RequestMalformedError(message),
    onBacklog: (n) => counted.backlog(n),
    onOutcome: (kind, outcome) => counted.outcome(kind, outcome),
  });
}

/** The path v0.3 clients found the card at before A2A v1.0 (served as the v0.3 card). */
export const LEGACY_CARD_PATH = '/.well-known/agent.json';

function listenOn(s: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve();
    });
  });
}

function closeServer(s: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    s.close((e) => (e === undefined ? resolve() : reject(e)));
    s.closeAllConnections();
  });
}
