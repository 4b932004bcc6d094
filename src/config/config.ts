/**
 * The server's configuration: one strict zod schema over environment variables, parsed once (in
 * main) into a frozen object. `process.env` is read nowhere else; callers pass the environment in.
 *
 * Owns: names, defaults and validation of every setting, and the ConfigError that lists every bad
 * setting with an example of a good one. Does not own: what a setting means to the code that uses it.
 *
 * Adding a setting: add one entry to SETTINGS (env name, zod schema with its default, an example),
 * its sentence in settings-doc.ts, and run `npm run docs:settings` (a test keeps docs/settings.md equal).
 */
import { availableParallelism, totalmem } from 'node:os';
import { z } from 'zod';
import { DomainError } from '../domain/errors.ts';
import { DEFAULT_MAIL_LIMITS, type MailLimits } from '../domain/mail/index.ts';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from '../ingest/mail/attachments/index.ts';
import { INBOUND_WEBHOOKS_SETTING, MAILBOXES_SETTING, resolveIngestSecrets } from './ingest-settings.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce.number().int().min(0).max(65535);
/** A mail limit (src/domain/mail/limits.ts owns the defaults and the sentences a person reads). */
const limit = (name: keyof MailLimits) => ({
  schema: z.coerce.number().int().positive().default(DEFAULT_MAIL_LIMITS[name]),
  example: String(DEFAULT_MAIL_LIMITS[name]),
});
/** A bound on reading one attached document (src/ingest/mail/attachments/limits.ts owns the defaults). */
const documentLimit = (name: keyof DocumentLimits) => ({
  schema: z.coerce.number().int().positive().default(DEFAULT_DOCUMENT_LIMITS[name]),
  example: String(DEFAULT_DOCUMENT_LIMITS[name]),
});
/** DELIVERY_MAX_ATTEMPTS and DELIVERY_RETRY_BASE_MS unset (and a server created without settings). */
export const DELIVERY_DEFAULTS = {
  maxAttempts: 12,
  retryBaseMs: 2000,
  retentionDays: 30,
  pollMs: 5000,
} as const;
const httpUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));

/**
 * Every setting: its environment variable, its schema (with the default, if any) and an example of
 * a good value for the error message.
 */
export const SETTINGS = {
  host: { env: 'HOST', schema: z.string().min(1).default('127.0.0.1'), example: '127.0.0.1' },
  port: { env: 'PORT', schema: port.default(8080), example: '8080' },
  /** The base URL clients reach this server at (the card's interface URLs); defaults to http://HOST:PORT. */
  publicUrl: { env: 'PUBLIC_URL', schema: httpUrl.optional(), example: 'https://triage.example.com' },
  dataDir: { env: 'DATA_DIR', schema: z.string().min(1).default('./data'), example: './data' },
  /**
   * A PostgreSQL server for every store (replicas share it); unset keeps the embedded SQLite file
   * under DATA_DIR. Shown as "(hidden)" in errors: it may hold a password.
   */
  databaseUrl: {
    env: 'DATABASE_URL',
    schema: z
      .string()
      .refine((u) => /^postgres(ql)?:\/\/[^\s/]+/i.test(u) && URL.canParse(u), {
        message:
          'must be a postgres:// URL naming the server and database; unset it to keep SQLite under DATA_DIR',
      })
      .optional(),
    example: 'postgres://triage:secret@db.internal:5432/triage',
  },
  /** The lead the best candidate needs over the next, as a share of all points (0 < m < 1). */
  identificationMargin: {
    env: 'IDENTIFICATION_MARGIN',
    schema: z.coerce.number().gt(0).lt(1).default(0.5),
    example: '0.5',
  },
  /** Days a read message is kept in the corpus for dry runs and suggestions (§13.1); unset keeps them. */
  corpusRetentionDays: {
    env: 'CORPUS_RETENTION_DAYS',
    schema: z.coerce.number().int().min(1).max(36500).optional(),
    example: '90',
  },
  /**
   * Days the raw mail a task was given is kept (§14): then its bytes and text are incinerated,
   * keeping the content hash, the reading and the provenance. 0 drops it once it has been read.
   */
  rawMailRetentionDays: {
    env: 'RAW_MAIL_RETENTION_DAYS',
    schema: z.coerce.number().int().min(0).max(36500).default(30),
    example: '30',
  },
  /** Resolve definitions from another process's authority instead of the embedded one (§12.1). */
  authorityUrl: { env: 'AUTHORITY_URL', schema: httpUrl.optional(), example: 'http://127.0.0.1:8081' },
  /** A bearer token with the read role, bound to the tenant this agent serves (with AUTHORITY_URL). */
  authorityToken: { env: 'AUTHORITY_TOKEN', schema: z.string().min(8).optional(), example: 'lt_…' },
  /**
   * How long the agent waits for any answer of its authority (with AUTHORITY_URL), in ms. Past it the
   * call fails as AUTHORITY_UNAVAILABLE; triage carries on under the last version it verified.
   */
  authorityTimeoutMs: {
    env: 'AUTHORITY_TIMEOUT_MS',
    schema: z.coerce.number().int().min(100).max(60000).default(3000),
    example: '3000',
  },
  /**
   * Hosts push notifications and delivery webhooks may reach although they resolve to loopback,
   * private or reserved addresses, and over plain http: `host` or `host:port`, comma-separated.
   */
  pushNotificationAllowedHosts: {
    env: 'PUSH_NOTIFICATION_ALLOWED_HOSTS',
    schema: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter((h) => h !== ''),
      )
      .pipe(
        z.array(
          z
            .string()
            .regex(
              /^[a-z0-9._:[\]-]+$/,
              'each entry must be a host or host:port, the entries comma-separated (not JSON)',
            ),
        ),
      ),
    example: 'hooks.internal:8443,127.0.0.1:9000',
  },
  /** Tries of one push notification or delivery webhook before it is given up. */
  deliveryMaxAttempts: {
    env: 'DELIVERY_MAX_ATTEMPTS',
    schema: z.coerce.number().int().min(1).max(100).default(DELIVERY_DEFAULTS.maxAttempts),
    example: '12',
  },
  /** The wait before the first retry of a delivery, ms; each next one doubles, up to five minutes. */
  deliveryRetryBaseMs: {
    env: 'DELIVERY_RETRY_BASE_MS',
    schema: z.coerce.number().int().min(10).max(600000).default(DELIVERY_DEFAULTS.retryBaseMs),
    example: '2000',
  },
  /** Days a delivered or given-up delivery is kept (its outcome, for the console) before it is pruned. */
  deliveryRetentionDays: {
    env: 'DELIVERY_RETENTION_DAYS',
    schema: z.coerce.number().int().min(1).max(3650).default(DELIVERY_DEFAULTS.retentionDays),
    example: '30',
  },
  /**
   * How often the outbox is read without being woken, ms: the net for deliveries owed by another
   * process (on PostgreSQL each is announced by a notice, migration 016) and for claims a dead one left.
   */
  deliveryPollMs: {
    env: 'DELIVERY_POLL_MS',
    schema: z.coerce.number().int().min(100).max(3_600_000).default(DELIVERY_DEFAULTS.pollMs),
    example: '5000',
  },
  /** `all`: agent and embedded authority; `authority`: only /authority/v1 (the agent runs elsewhere). */
  role: { env: 'ROLE', schema: z.enum(['all', 'authority']).default('all'), example: 'authority' },
  /**
   * Server processes `npm start` runs on one port (node:cluster, src/cluster.ts): 1 (default) runs
   * one; `auto` one per core this process may use. They share DATA_DIR (SQLite in WAL) or DATABASE_URL.
   */
  workers: {
    env: 'WORKERS',
    schema: z
      .union([z.literal('auto'), z.coerce.number().int().min(1).max(64)])
      .default(1)
      .transform((w) => (w === 'auto' ? availableParallelism() : w)),
    example: '2',
  },
  /** The lowest level written to the JSON log on stderr (pino). */
  logLevel: { env: 'LOG_LEVEL', schema: z.enum(LOG_LEVELS).default('info'), example: 'info' },
  /** Opens GET /metrics on the main port to `Authorization: Bearer <it>` (16+ characters). */
  metricsToken: {
    env: 'METRICS_TOKEN',
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    example: 'a-long-random-string',
  },
  /** Serves GET /metrics, without a token, on a listener of its own (bound to HOST). */
  metricsPort: { env: 'METRICS_PORT', schema: port.optional(), example: '9464' },
  /** Distinct tenant label values in the metrics; later tenants are counted as "_other". */
  metricsMaxTenants: {
    env: 'METRICS_MAX_TENANTS',
    schema: z.coerce.number().int().min(1).max(10000).default(50),
    example: '50',
  },
  /** Limits on reading one message (every path: A2A, IMAP, webhooks, CLI). */
  maxMessageBytes: { env: 'MAX_MESSAGE_BYTES', ...limit('maxMessageBytes') },
  maxAttachmentBytes: { env: 'MAX_ATTACHMENT_BYTES', ...limit('maxAttachmentBytes') },
  maxHeaderBytes: { env: 'MAX_HEADER_BYTES', ...limit('maxHeaderBytes') },
  maxAttachments: { env: 'MAX_ATTACHMENTS', ...limit('maxAttachments') },
  maxTextChars: { env: 'MAX_TEXT_CHARS', ...limit('maxTextChars') },
  parseTimeoutMs: { env: 'PARSE_TIMEOUT_MS', ...limit('parseTimeoutMs') },
  maxNestingDepth: { env: 'MAX_NESTING_DEPTH', ...limit('maxNestingDepth') },
  /**
   * Bounds on reading one attached document, a PDF's text or an XLSX's rows (docs/attachments.md;
   * src/ingest/mail/attachments/limits.ts documents each). Past one, the document is kept by name
   * with a note in the reading; the message is still read.
   */
  maxDocumentBytes: { env: 'MAX_DOCUMENT_BYTES', ...documentLimit('maxDocumentBytes') },
  maxPdfPages: { env: 'MAX_PDF_PAGES', ...documentLimit('maxPdfPages') },
  maxXlsxCells: { env: 'MAX_XLSX_CELLS', ...documentLimit('maxXlsxCells') },
  maxXlsxInflatedBytes: { env: 'MAX_XLSX_INFLATED_BYTES', ...documentLimit('maxXlsxInflatedBytes') },
  documentTimeoutMs: { env: 'DOCUMENT_TIMEOUT_MS', ...documentLimit('documentTimeoutMs') },
  documentMemoryMb: { env: 'DOCUMENT_MEMORY_MB', ...documentLimit('documentMemoryMb') },
  /**
   * Admission control (src/admission): messages parsed and triaged at once, across A2A, webhooks
   * and IMAP. Beyond it A2A and webhooks wait up to ADMISSION_QUEUE_MS, then answer 503 with
   * Retry-After; IMAP waits. Default: twice the cores this process may use, at least 4 (large mail
   * is held back by ADMISSION_MAX_BYTES, so small mail may run wider than the cores).
   */
  admissionMaxMessages: {
    env: 'ADMISSION_MAX_MESSAGES',
    schema: z.coerce
      .number()
      .int()
      .positive()
      .default(Math.max(4, 2 * availableParallelism())),
    example: '4',
  },
  /**
   * Raw request bytes held at once (bodies being received, messages being read), bytes. Default
   * 48 MiB: one of the largest messages (25 MiB, base64 in JSON: ~35 MB) and room for small calls.
   * Measured (soak/memory.ts): one 24.6 MB mail on the A2A path peaks near 600 MiB over idle (the
   * SDK decodes, stores and answers it with its history), two at once 1.4 GiB; small mail still
   * runs ADMISSION_MAX_MESSAGES at a time.
   */
  admissionMaxBytes: {
    env: 'ADMISSION_MAX_BYTES',
    schema: z.coerce
      .number()
      .int()
      .positive()
      .default(48 * 1024 * 1024),
    example: String(48 * 1024 * 1024),
  },
  /**
   * What every tenant this process serves may hold for reading, MiB (issue 51,
   * src/domain/tenant-memory.ts): its definitions, objects and compiled matchers, estimated as
   * resident memory; the least recently used tenant is forgotten whole and read again on its next
   * task. The matcher cache alone keeps within it too. Default: an eighth of the
   * machine's memory, between 64 and 4,096 MiB. Measured: ~3.4 MB per 1,000-customer tenant.
   */
  matcherMemoryBudgetMb: {
    env: 'MATCHER_MEMORY_BUDGET_MB',
    schema: z.coerce
      .number()
      .int()
      .min(16)
      .max(1024 * 1024)
      .default(Math.min(4096, Math.max(64, Math.floor(totalmem() / 2 ** 20 / 8)))),
    example: '512',
  },
  /** How long an A2A or webhook message waits for a slot before it is answered 503, ms. Default 2,000. */
  admissionQueueMs: {
    env: 'ADMISSION_QUEUE_MS',
    schema: z.coerce.number().int().min(0).max(60_000).default(2_000),
    example: '2000',
  },
  /** Seconds a refused caller is told to wait (Retry-After). Default 2. */
  admissionRetryAfterSeconds: {
    env: 'ADMISSION_RETRY_AFTER_SECONDS',
    schema: z.coerce.number().int().min(1).max(3600).default(2),
    example: '2',
  },
  /**
   * How long a mail pipeline's claim on a message holds before another attempt may take it over, ms
   * (src/ingest/intake.ts): a process killed mid-triage delays that message's retry this long. Default 5 minutes.
   */
  ingestClaimLeaseMs: {
    env: 'INGEST_CLAIM_LEASE_MS',
    schema: z.coerce
      .number()
      .int()
      .min(1000)
      .default(5 * 60_000),
    example: '300000',
  },
  /**
   * How long a replica's lease on an IMAP mailbox holds, ms (src/ingest/imap/poller.ts):
   * only the holder polls the mailbox, and when it dies a standby takes over within this plus
   * MAILBOX_LEASE_RENEW_MS. Default 10 s.
   */
  mailboxLeaseMs: {
    env: 'MAILBOX_LEASE_MS',
    schema: z.coerce.number().int().min(1000).max(3_600_000).default(10_000),
    example: '10000',
  },
  /** How often the holder renews its mailbox lease and a standby tries to take it, ms; below MAILBOX_LEASE_MS. Default 3 s. */
  mailboxLeaseRenewMs: {
    env: 'MAILBOX_LEASE_RENEW_MS',
    schema: z.coerce.number().int().min(100).max(3_600_000).default(3_000),
    example: '3000',
  },
  /** Failed authentications a source may make at once before it is answered 429 (src/admission/auth-throttle.ts). Default 20. */
  authFailureBurst: {
    env: 'AUTH_FAILURE_BURST',
    schema: z.coerce.number().int().positive().default(20),
    example: '20',
  },
  /** Failed authentications per minute a throttled source regains. Default 30. */
  authFailuresPerMinute: {
    env: 'AUTH_FAILURES_PER_MINUTE',
    schema: z.coerce.number().positive().default(30),
    example: '30',
  },
  /** Deepest JSON nesting an A2A request body may have; refused in words before it is parsed. Default 64. */
  maxJsonDepth: {
    env: 'MAX_JSON_DEPTH',
    schema: z.coerce.number().int().min(8).max(10_000).default(64),
    example: '64',
  },
  /** IMAP mailboxes to poll (JSON array; passwords from the variables named by passwordEnv). */
  mailboxes: MAILBOXES_SETTING,
  /** Inbound-mail webhook endpoints (JSON array; tokens from the variables named by tokenEnv). */
  inboundWebhooks: INBOUND_WEBHOOKS_SETTING,
} as const;

type Settings = typeof SETTINGS;

/** The parsed, frozen configuration. */
export type Config = Readonly<{ [K in keyof Settings]: z.output<Settings[K]['schema']> }>;

export interface ConfigIssue {
  /** The environment variable. */
  readonly setting: string;
  /** The value that was given (never printed for settings that look secret). */
  readonly problem: string;
  readonly example: string;
}

/** Lists every bad setting at once, each with an example of a good value. */
export class ConfigError extends DomainError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = issues.map((i) => `  ${i.setting}: ${i.problem} (for example ${i.setting}=${i.example})`);
    super('CONFIG_INVALID', `The configuration has ${issues.length} bad setting(s):\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = Object.freeze([...issues]);
  }
}

const SECRET_RE = /SECRET|PASSWORD|TOKEN|KEY|DATABASE_URL/i;

/**
 * Parses the environment once. Empty strings count as unset. Throws ConfigError naming every bad
 * setting. The result is frozen.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const out: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof Settings, Settings[keyof Settings]][]) {
    const raw = env[setting.env];
    const given = raw === undefined || raw.trim() === '' ? undefined : raw.trim();
    const parsed = (setting.schema as z.ZodType).safeParse(given);
    if (parsed.success) {
      out[key] = parsed.data;
    } else {
      const shown = SECRET_RE.test(setting.env) ? '(hidden)' : JSON.stringify(given);
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      issues.push({
        setting: setting.env,
        problem: `${shown} is not usable: ${why}`,
        example: setting.example,
      });
    }
  }
  // Secrets named by the mail-pipeline settings (ingest-settings.ts).
  resolveIngestSecrets(out, env, issues);
  // Settings that only make sense together.
  if (
    typeof out.mailboxLeaseMs === 'number' &&
    typeof out.mailboxLeaseRenewMs === 'number' &&
    out.mailboxLeaseRenewMs >= out.mailboxLeaseMs
  ) {
    issues.push({
      setting: 'MAILBOX_LEASE_RENEW_MS',
      problem: `${out.mailboxLeaseRenewMs} is not below MAILBOX_LEASE_MS (${out.mailboxLeaseMs}): the lease would run out between renewals and the mailbox change hands while its owner lives; renew at most a third of the lease`,
      example: String(Math.floor(out.mailboxLeaseMs / 3)),
    });
  }
  if (out.authorityUrl !== undefined && out.authorityToken === undefined && issues.length === 0) {
    issues.push({
      setting: 'AUTHORITY_TOKEN',
      problem: 'is required when AUTHORITY_URL is set (a token with the read role from that authority)',
      example: 'lt_…',
    });
  }
  if (out.authorityUrl !== undefined && out.role === 'authority') {
    issues.push({
      setting: 'ROLE',
      problem:
        '"authority" serves the authority itself and cannot also use a remote one (unset AUTHORITY_URL)',
      example: 'all',
    });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return Object.freeze(out) as Config;
}

/**
 * The mail limits this configuration sets (defaults where unset), with the bounds on attached
 * documents, which travel with them to every parser.
 */
export function mailLimitsOf(
  config: Pick<Config, keyof MailLimits> & Partial<Pick<Config, keyof DocumentLimits>>,
): MailLimits & DocumentLimits {
  const documents = { ...DEFAULT_DOCUMENT_LIMITS, ...config };
  return Object.freeze({
    maxMessageBytes: config.maxMessageBytes,
    maxAttachmentBytes: config.maxAttachmentBytes,
    maxHeaderBytes: config.maxHeaderBytes,
    maxAttachments: config.maxAttachments,
    maxTextChars: config.maxTextChars,
    parseTimeoutMs: config.parseTimeoutMs,
    maxNestingDepth: config.maxNestingDepth,
    maxDocumentBytes: documents.maxDocumentBytes,
    maxPdfPages: documents.maxPdfPages,
    maxXlsxCells: documents.maxXlsxCells,
    maxXlsxInflatedBytes: documents.maxXlsxInflatedBytes,
    documentTimeoutMs: documents.documentTimeoutMs,
    documentMemoryMb: documents.documentMemoryMb,
  });
}

/** The admission bounds this configuration sets (src/admission). */
export function admissionLimitsOf(
  config: Pick<
    Config,
    'admissionMaxMessages' | 'admissionMaxBytes' | 'admissionRetryAfterSeconds' | 'admissionQueueMs'
  >,
): { maxMessages: number; maxBytes: number; retryAfterSeconds: number; queueMs: number } {
  return {
    queueMs: config.admissionQueueMs,
    maxMessages: config.admissionMaxMessages,
    maxBytes: config.admissionMaxBytes,
    retryAfterSeconds: config.admissionRetryAfterSeconds,
  };
}

/** The base URL the card advertises: PUBLIC_URL, else http://HOST:PORT (with the bound port). */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'host'>, boundPort: number): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${boundPort}`;
}
