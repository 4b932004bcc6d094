/**
 * Composition of the mail pipelines (part of the composition root, beside main.ts): the IMAP pollers of
 * MAILBOXES and the webhook endpoints of INBOUND_WEBHOOKS, submitting through the agent's in-process
 * triage_inbound (A2AApp.submitMail) for a mailbox principal of the tenant, with the ingest store on the
 * server's database, each poller under its mailbox's lease (one owner among replicas). Secrets
 * are revealed here, handed to the adapters, and never logged.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Admission } from './admission/admission.ts';
import { mailLimitsOf, type Config } from './config/config.ts';
import type { MailLimits, SubmitResult, TaskFiling } from './domain/mail/index.ts';
import type { Principal } from './domain/authority/index.ts';
import { tenantId, type TenantId } from './domain/tenant.ts';
import {
  createAccessTokens,
  createMailIngest,
  type IngestLog,
  type MailIngest,
  type MailSourceRef,
} from './ingest/index.ts';
import { KyselyMailboxLeaseStore } from './store/mailbox-lease-store.ts';
import { SqliteIngestStore } from './store/sqlite-ingest-store.ts';
import { joiningRequestLine, withCallContext } from './observability/request-context.ts';

export type SubmitMail = (
  principal: Principal,
  raw: Buffer,
  source: MailSourceRef,
  contextId: string,
) => Promise<SubmitResult>;

/** The principal a mailbox or webhook acts as: a service of the tenant that may start triage tasks. */
export function mailboxPrincipal(tenant: TenantId, source: MailSourceRef): Principal {
  return { id: `mailbox:${source.kind}:${source.name}`, kind: 'service', tenant, roles: ['read'] };
}

export function composeMailIngest(options: {
  readonly config: Pick<Config, 'mailboxes' | 'inboundWebhooks' | keyof MailLimits> &
    Partial<Pick<Config, 'ingestClaimLeaseMs' | 'mailboxLeaseMs' | 'mailboxLeaseRenewMs'>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  readonly db: Kysely<any>;
  /** Late-bound: the A2A app exists only once the server is created. */
  readonly submitMail: () => SubmitMail | null;
  /** Late-bound likewise: a task's state and what it was decided as. */
  readonly taskFiling: () => ((principal: Principal, taskId: string) => Promise<TaskFiling | null>) | null;
  /** The process's JSON log (src/observability/logger.ts): a pino logger is an IngestLog. */
  readonly log: IngestLog;
  /** The process's admission gate, shared with A2A (src/admission). */
  readonly admission?: Admission;
}): MailIngest {
  const { config } = options;
  const store = new SqliteIngestStore(options.db);
  return createMailIngest({
    submitter: {
      submit(tenant, raw, source, contextId) {
        const submit = options.submitMail();
        if (submit === null) throw new Error('the agent is not running in this process (ROLE=authority)');
        // The path a message arrived by, for its log line and messages-read metric (observed.ts).
        const path = source.kind === 'imap' ? 'imap' : `${source.kind}:${source.name}`;
        return withCallContext({ path }, () =>
          submit(mailboxPrincipal(tenant, source), raw, source, contextId),
        );
      },
      filing(tenant, taskId, source) {
        const filing = options.taskFiling();
        if (filing === null) throw new Error('the agent is not running in this process (ROLE=authority)');
        return filing(mailboxPrincipal(tenant, source), taskId);
      },
    },
    store,
    spentTokens: store, // issue 12.5: a Mailgun replay after a restart is refused too
    limits: mailLimitsOf(config),
    // A message taken in during a webhook's request is told on that request's log line.
    log: joiningRequestLine(options.log),
    ...(options.admission === undefined ? {} : { admission: options.admission }),
    ...(config.ingestClaimLeaseMs === undefined ? {} : { leaseMs: config.ingestClaimLeaseMs }),
    // One owner per mailbox among the replicas sharing the database; the holder id is
    // unique per process start, so a restarted replica never mistakes a dead one's lease for its own.
    mailboxLease: {
      store: new KyselyMailboxLeaseStore(options.db),
      holder: `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`,
      leaseMs: config.mailboxLeaseMs ?? 10_000,
      renewMs: config.mailboxLeaseRenewMs ?? 3_000,
    },
    mailboxes: config.mailboxes.map((m) => ({
      name: m.name,
      tenant: tenantId(m.tenant),
      host: m.host,
      port: m.port,
      secure: m.secure,
      ...(m.startTls === undefined ? {} : { startTls: m.startTls }),
      user: m.user,
      ...(m.signIn === undefined
        ? { password: m.password.reveal() }
        : { accessTokens: createAccessTokens(m.signIn.reveal(), m.user) }),
      folder: m.folder,
      processedFolder: m.processedFolder,
      failedFolder: m.failedFolder,
      pollIntervalMs: m.pollIntervalMs,
      ...(m.fileBy === undefined
        ? {}
        : { filing: { template: m.fileBy, questionsFolder: m.questionsFolder, mode: m.fileAs } }),
    })),
    webhooks: config.inboundWebhooks.map((w) => ({
      tenant: tenantId(w.tenant),
      token: w.token.reveal(),
      ...(w.mailgunSigningKey === undefined ? {} : { mailgunSigningKey: w.mailgunSigningKey.reveal() }),
      ...(w.providers === undefined ? {} : { providers: w.providers }),
    })),
  });
}
