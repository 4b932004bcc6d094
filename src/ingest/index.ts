/**
 * The mail pipelines' public surface. server.ts / main.ts wire it:
 *
 *   const ingest = createMailIngest({ submitter, store, log, limits, mailboxes, webhooks });
 *   app.use(INBOUND_PATH, ingest.router);   // before any app-wide body parser
 *   await ingest.start();                   // returns at once; pollers connect and reconnect on their own
 *   await ingest.stop();                    // before closing the database
 *
 * `submitter` is the in-process triage_inbound (A2AApp.submitMail for a mailbox principal of the
 * tenant); `store` is SqliteIngestStore. Nothing here reads the environment.
 */
import type { Router } from 'express';
import { DEFAULT_MAIL_LIMITS, type MailLimits } from '../domain/mail/index.ts';
import {
  createImapPoller,
  type ImapMailboxConfig,
  type ImapPoller,
  type MailboxLeasing,
} from './imap/poller.ts';
import type { Admission } from '../admission/admission.ts';
import { createIntake, type Intake } from './intake.ts';
import type { IngestLog, IngestStore, MailSubmitter } from './ports.ts';
import { createInboundRouter, type InboundEndpoint } from './webhooks/router.ts';
import type { SpentTokenStore } from './webhooks/seen-tokens.ts';

export type { ImapMailboxConfig, ImapPoller, ImapPollerStatus, MailboxLeasing } from './imap/poller.ts';
export type { Intake, IntakeOutcome } from './intake.ts';
export type { IngestLog, IngestStore, MailSourceRef, MailSubmitter, SubmitResult } from './ports.ts';
export type { InboundEndpoint } from './webhooks/router.ts';
export { createImapPoller } from './imap/poller.ts';
export {
  createAccessTokens,
  TokenRefused,
  type AccessTokens,
  type OAuth2SignIn,
} from './imap/access-tokens.ts';
export { createIntake } from './intake.ts';
export { createInboundRouter } from './webhooks/router.ts';

/** Where server.ts mounts the webhook router. */
export const INBOUND_PATH = '/inbound/v1';

export interface MailIngestOptions {
  readonly submitter: MailSubmitter;
  readonly store: IngestStore;
  /** Where spent Mailgun tokens outlive a restart (issue 12.5); usually the same store. */
  readonly spentTokens?: SpentTokenStore;
  readonly log: IngestLog;
  readonly limits?: Partial<MailLimits>;
  readonly mailboxes: readonly ImapMailboxConfig[];
  readonly webhooks: readonly InboundEndpoint[];
  /** The process's admission gate, shared with A2A (src/admission). */
  readonly admission?: Admission;
  /** How long a claim holds before another attempt may take it over, ms (INGEST_CLAIM_LEASE_MS). */
  readonly leaseMs?: number;
  /** One owner per mailbox among replicas: each poller polls only while it holds this lease. */
  readonly mailboxLease?: MailboxLeasing;
}

export interface MailIngest {
  readonly intake: Intake;
  /** Mount at INBOUND_PATH. Answers 401 to every post when no endpoint is configured. */
  readonly router: Router;
  readonly pollers: readonly ImapPoller[];
  /** Starts every poller and returns at once: they connect, and retry unreachable mailboxes, in the background. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createMailIngest(options: MailIngestOptions): MailIngest {
  const maxMessageBytes = options.limits?.maxMessageBytes ?? DEFAULT_MAIL_LIMITS.maxMessageBytes;
  const intake = createIntake({
    submitter: options.submitter,
    store: options.store,
    log: options.log,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.admission === undefined ? {} : { admission: options.admission }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
  const pollers = options.mailboxes.map((m) =>
    createImapPoller(m, {
      intake,
      store: options.store,
      log: options.log,
      maxMessageBytes,
      ...(options.mailboxLease === undefined ? {} : { lease: options.mailboxLease }),
      ...(options.submitter.filing === undefined
        ? {}
        : { filing: options.submitter.filing.bind(options.submitter) }),
    }),
  );
  return {
    intake,
    router: createInboundRouter({
      endpoints: options.webhooks,
      intake,
      log: options.log,
      maxMessageBytes,
      ...(options.spentTokens === undefined ? {} : { spentTokens: options.spentTokens }),
      ...(options.admission === undefined ? {} : { admission: options.admission }),
    }),
    pollers,
    start() {
      for (const p of pollers) void p.start(); // never rejects: connect() logs and retries its own failures
      return Promise.resolve();
    },
    async stop() {
      await Promise.all(pollers.map((p) => p.stop()));
    },
  };
}
