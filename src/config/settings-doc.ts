/**
 * docs/settings.md, generated from the one config schema (config.ts SETTINGS): every environment
 * variable with its default, its range (from the zod schema, as JSON Schema) and an example, beside
 * one sentence each from SETTING_DOCS. `npm run docs:settings` writes the file; settings-doc.test.ts
 * fails when the file and the schema differ, or when a setting has no sentence here.
 *
 * Owns: the sentences. Does not own: names, defaults or validation (config.ts does).
 */
import { z } from 'zod';
import { SETTINGS } from './config.ts';

/** One sentence per environment variable: what it does, for whoever deploys the server. */
export const SETTING_DOCS: Readonly<Record<string, string>> = {
  HOST: 'The interface to listen on. `0.0.0.0` (the Docker image) listens on every interface: then set `PUBLIC_URL`, or the server warns at start that its card advertises `http://127.0.0.1:PORT`.',
  PORT: 'The port to listen on; `0` takes any free one (tests do).',
  PUBLIC_URL:
    'The base URL clients reach this server at: the agent card advertises its interfaces under it. Unset: `http://HOST:PORT` (`127.0.0.1` when HOST is every interface, with a warning at start).',
  DATA_DIR: 'Where the SQLite database and the first-start `demo-token` live.',
  IDENTIFICATION_MARGIN:
    'The lead the best candidate needs over the next, as a share of all points, before a reading is settled without asking.',
  CORPUS_RETENTION_DAYS:
    'Days a read message stays in the corpus for dry runs and suggestions (§13.1). Unset keeps them.',
  RAW_MAIL_RETENTION_DAYS:
    "Days a task's raw mail is kept before its bytes and text are incinerated (§14); `0` drops it once read.",
  AUTHORITY_URL:
    'Resolve definitions from the authority at this URL (§12.1) instead of the embedded one. Lessons are then posted there.',
  AUTHORITY_TOKEN:
    'A token of that authority with the `read` role; it decides which tenant this agent serves. Required with AUTHORITY_URL.',
  AUTHORITY_TIMEOUT_MS:
    'How long the agent waits for an answer of its authority, in ms. Past it (or when it is down) new triage carries on under the last version the agent verified; show-back, rules in force and what the agent has never fetched answer 503 AUTHORITY_UNAVAILABLE, naming the authority, to retry.',
  DELIVERY_RETENTION_DAYS:
    'Days a delivered or given-up push notification or delivery webhook is kept (its outcome and last error, which the console counts per endpoint) before it is pruned; a delivery still owed is never pruned.',
  DELIVERY_POLL_MS:
    'How often the outbox of owed deliveries is read without being woken, in ms. A delivery this process owes is sent at once; on PostgreSQL one another replica owes is announced by a notice and sent at once too. The poll is the net for a dropped notice connection and for a delivery a stopped process had claimed.',
  PUSH_NOTIFICATION_ALLOWED_HOSTS:
    'Hosts that push notifications and delivery webhooks may reach although they resolve to loopback, private, link-local or reserved addresses, and the only hosts plain `http` may be used for: `host` or `host:port`, comma-separated. Every other delivery URL must be `https` to a public address, checked when the config is stored and again, after DNS, each time it is sent.',
  DELIVERY_MAX_ATTEMPTS:
    'Tries of one push notification or delivery webhook before it is given up (the console shows it per endpoint). A delivery is retried with exponential backoff and jitter while its receiver is down or answers other than 2xx, across restarts.',
  DELIVERY_RETRY_BASE_MS:
    'The wait before the first retry of a delivery, in ms; each next wait doubles, up to five minutes.',
  ROLE: '`all`: agent and embedded authority. `authority`: only `/authority/v1` (the agent runs elsewhere).',
  WORKERS:
    'Server processes `npm start` runs, sharing the port (node:cluster) and the data directory (SQLite in WAL) or DATABASE_URL: a number from 1 to 64, or `auto` for one per core. Migrations run once, before the workers start; only the first worker polls IMAP mailboxes; a worker that dies is started again. Default: 1 (one process, no cluster).',
  LOG_LEVEL:
    'The lowest level written to the JSON log on stderr (one line per request, carrying the message it triaged; one per message an IMAP sweep triaged).',
  METRICS_TOKEN:
    'Opens `GET /metrics` on the main port to `Authorization: Bearer <METRICS_TOKEN>`. A tenant token never opens it: the metrics span tenants.',
  METRICS_PORT:
    'Serves `GET /metrics`, without a token, on a listener of its own bound to HOST (for a network only the scraper reaches). With neither this nor METRICS_TOKEN, metrics are off.',
  METRICS_MAX_TENANTS:
    'How many distinct tenants the metrics label by name; later ones are counted under `tenant="_other"`, so the series stay bounded.',
  MAX_MESSAGE_BYTES:
    'The largest message read, in bytes, on every path (A2A, IMAP, webhooks, CLI); it also sizes the A2A body limit.',
  MAX_ATTACHMENT_BYTES: 'The largest single attachment read, in bytes.',
  MAX_HEADER_BYTES: 'The largest header block of a message, in bytes.',
  MAX_ATTACHMENTS: 'The most attachments read from one message.',
  MAX_TEXT_CHARS: 'The most characters of text read from one message.',
  PARSE_TIMEOUT_MS: 'How long parsing one message may take, in ms.',
  MAX_NESTING_DEPTH: 'How deep forwarded messages (message/rfc822 inside message/rfc822) are opened.',
  MAILBOXES:
    'IMAP mailboxes to watch: a JSON array of `{name, tenant, host, user, passwordEnv, …}` (docs/mail-pipelines.md). Each password comes from the variable its `passwordEnv` names. Microsoft 365 and Google Workspace sign in by OAuth2 instead: `oauth2` is `{provider:"microsoft", tenantId, clientId, clientSecretEnv}` (or `certificate: {thumbprintSha256, privateKeyEnv}`), `{provider:"google-service-account", keyEnv}` (the JSON key, domain-wide delegation) or `{provider:"google-refresh-token", clientId, clientSecretEnv, refreshTokenEnv}`. `fileBy` (e.g. `"Customers/{customer}"`) files each triaged message in a folder named by the label it was read as, a message that asks in `questionsFolder` (default `Questions`) until it is answered. `fileAs` is `folders` (the default: moved), `keywords` (left in place, marked with an IMAP keyword such as `$Customers/Acme_Freight`) or `labels` (a Gmail label, on a server with X-GM-EXT-1).',
  INBOUND_WEBHOOKS:
    'Inbound-mail webhook endpoints: a JSON array of `{tenant, tokenEnv, mailgunSigningKeyEnv?, providers?}`. Each token (16+ characters) comes from the variable its `tokenEnv` names; a Mailgun signing key that is a placeholder (`…`) is refused at start.',
  DATABASE_URL:
    '`postgres://\u2026` keeps every store in that PostgreSQL database (docs/postgres.md); unset, SQLite under DATA_DIR. Never printed in errors.',
  MAX_DOCUMENT_BYTES:
    'The largest attached PDF or XLSX whose text or rows are read, in bytes; a larger one is kept by name with a note (docs/attachments.md).',
  MAX_PDF_PAGES: 'The most pages of one PDF whose text is read; the rest are left out, with a note.',
  MAX_XLSX_CELLS:
    'The most cells read from one XLSX workbook; past it the workbook is kept by name with a note.',
  MAX_XLSX_INFLATED_BYTES:
    "The most bytes an XLSX may inflate to (its zip's declared and actual sizes are both checked); a zip bomb is kept by name with a note.",
  DOCUMENT_TIMEOUT_MS:
    'How long reading one attached document may take, in ms; its worker thread is ended at the bound and the reading gets a note.',
  DOCUMENT_MEMORY_MB:
    'The heap of the worker thread that reads one document, in MiB; a document that needs more is kept by name with a note.',
  ADMISSION_MAX_MESSAGES:
    'Messages parsed and triaged at once across A2A, webhooks and IMAP (issue 16). Beyond it A2A and webhooks wait ADMISSION_QUEUE_MS, then answer 503 with Retry-After; IMAP waits. Default: twice the cores this process may use, at least 4.',
  ADMISSION_MAX_BYTES:
    'Raw request bytes held at once (bodies being received, messages being read), reserved from Content-Length before a body is read.',
  MATCHER_MEMORY_BUDGET_MB:
    "The memory, in MiB, every tenant this process serves may hold together for reading its mail: its definitions, their parsed objects and its compiled matchers (estimated, as resident memory); past it the least recently used tenant is forgotten whole and read again from the store on its next task. Default: an eighth of the machine's memory, between 64 and 4,096 MiB.",
  ADMISSION_QUEUE_MS: 'How long an A2A or webhook message waits for a slot before it is answered 503, in ms.',
  ADMISSION_RETRY_AFTER_SECONDS: 'The `Retry-After` a caller turned away by admission is given, in seconds.',
  INGEST_CLAIM_LEASE_MS:
    "How long a mail pipeline's claim on a message holds before another attempt may take it over, in ms: a process killed mid-triage delays that message's retry this long.",
  MAILBOX_LEASE_MS:
    'How long a replica holds its lease on an IMAP mailbox, in ms: only the holder polls it, and when the holder dies another replica takes the mailbox over within this plus MAILBOX_LEASE_RENEW_MS.',
  MAILBOX_LEASE_RENEW_MS:
    'How often the holder renews its mailbox lease and a standby replica tries to take it, in ms; must be below MAILBOX_LEASE_MS (a third of it leaves room for a slow database).',
  AUTH_FAILURE_BURST:
    'Failed authentications one source may make at once before it is answered 429 with Retry-After (valid callers are not slowed).',
  AUTH_FAILURES_PER_MINUTE: 'Failed authentications per minute a throttled source regains.',
  MAX_JSON_DEPTH:
    'The deepest JSON nesting an A2A request body may have; a deeper one is refused in words before it is parsed.',
};

/** Defaults that depend on the machine, in words, so the generated file is the same on every machine. */
const MACHINE_DEFAULTS: Readonly<Record<string, string>> = {
  ADMISSION_MAX_MESSAGES: 'twice the cores, at least 4',
  MATCHER_MEMORY_BUDGET_MB: 'an eighth of the memory, 64 to 4,096',
};

type Setting = { readonly env: string; readonly schema: z.ZodType; readonly example: string };

/**
 * A list setting is written as JSON when its example is (MAILBOXES), otherwise comma-separated
 * (PUSH_NOTIFICATION_ALLOWED_HOSTS: issue 50, the doc said JSON where the code reads commas).
 */
function listForm(s: Setting): 'a JSON array' | 'a comma-separated list' | null {
  const parsed = s.schema.safeParse(undefined);
  if (!parsed.success || !Array.isArray(parsed.data)) return null;
  return s.example.trim().startsWith('[') ? 'a JSON array' : 'a comma-separated list';
}

function range(s: Setting): string {
  const list = listForm(s);
  if (list !== null) return list;
  const schema = s.schema;
  let j: Record<string, unknown>;
  try {
    j = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return '';
  }
  if (Array.isArray(j.enum)) return `one of ${j.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  const parts: string[] = [];
  const safe = (n: unknown) => (n === Number.MAX_SAFE_INTEGER ? undefined : n);
  const lo = j.minimum ?? (j.exclusiveMinimum === undefined ? undefined : `> ${Number(j.exclusiveMinimum)}`);
  const hi =
    safe(j.maximum) ?? (j.exclusiveMaximum === undefined ? undefined : `< ${Number(j.exclusiveMaximum)}`);
  const kind =
    j.type === 'integer'
      ? 'whole number'
      : j.type === 'number'
        ? 'number'
        : j.format === 'uri'
          ? 'http(s) URL'
          : 'text';
  parts.push(kind);
  if (typeof lo === 'number') parts.push(`from ${lo}`);
  else if (typeof lo === 'string') parts.push(lo);
  if (typeof hi === 'number') parts.push(`to ${hi}`);
  else if (typeof hi === 'string') parts.push(hi);
  if (typeof j.minLength === 'number' && j.minLength > 1) parts.push(`at least ${j.minLength} characters`);
  return parts.join(', ');
}

function defaultOf(s: Setting): string {
  const parsed = s.schema.safeParse(undefined);
  if (!parsed.success) return 'required';
  if (parsed.data === undefined) return '(unset)';
  if (listForm(s) === 'a comma-separated list' && Array.isArray(parsed.data))
    return parsed.data.length === 0 ? '(none)' : `\`${parsed.data.join(',')}\``;
  return `\`${typeof parsed.data === 'string' ? parsed.data : JSON.stringify(parsed.data)}\``;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The whole of docs/settings.md. */
export function renderSettingsDoc(): string {
  const rows = (Object.values(SETTINGS) as readonly Setting[]).map(
    (s) =>
      `| \`${s.env}\` | ${MACHINE_DEFAULTS[s.env] ?? defaultOf(s)} | ${cell(range(s))} | \`${cell(s.example)}\` | ${cell(SETTING_DOCS[s.env] ?? '**(no description: add one to src/config/settings-doc.ts)**')} |`,
  );
  return [
    '# Settings',
    '',
    '<!-- Generated by `npm run docs:settings` from src/config/config.ts and src/config/settings-doc.ts; a test keeps it equal. Do not edit by hand. -->',
    '',
    'Every setting is an environment variable, read once at start by the one config schema',
    '(`src/config/config.ts`). Empty counts as unset. A bad value stops the start with every bad setting',
    'listed at once, each with an example of a good one; a secret is never printed.',
    '',
    '| Variable | Default | Range | Example | What it does |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Secrets named by `MAILBOXES` (`passwordEnv`, and under `oauth2` `clientSecretEnv`, `privateKeyEnv`, `keyEnv`, `refreshTokenEnv`) and `INBOUND_WEBHOOKS` (`tokenEnv`,',
    '`mailgunSigningKeyEnv`) are variables of your choosing; they never appear in the JSON itself.',
    '',
    '## Metrics and readiness',
    '',
    '`GET /metrics` (Prometheus text) opens with `METRICS_TOKEN` or on `METRICS_PORT`. Labels are',
    'bounded: `tenant` (at most `METRICS_MAX_TENANTS` names, then `_other`), `path` (`a2a`, `imap`,',
    '`webhook:<provider>`), `collection` (the registered learnables), `mailbox` (configured names),',
    '`route` (a fixed set of route groups). `GET /readyz` answers 200 or 503 with each part by name:',
    '`database`, `matcher:<tenant>`, `mailbox:<name>`, `authority` (with AUTHORITY_URL).',
    '',
  ].join('\n');
}
