/**
 * What the mail pipelines (IMAP poller, inbound webhooks) need from the rest of the server.
 * The ingest layer never imports src/a2a or src/store: server.ts implements these ports and wires them.
 * Deliberately absent: any notion of how a message is triaged; that is the submitter's business.
 */
import type { TenantId } from '../domain/tenant.ts';
import type { MailSourceRef, SubmitResult, TaskFiling } from '../domain/mail/index.ts';

export type {
  ClaimRequest,
  ClaimResult,
  IngestStore,
  MailboxLease,
  MailboxLeaseStore,
  MailboxState,
  MailSourceRef,
  SubmitResult,
  SubmittedState,
  TaskFiling,
} from '../domain/mail/index.ts';

/**
 * Triages one raw RFC 822 message for a tenant through the same path as `triage_inbound` (an A2A
 * sendMessage with a message/rfc822 file part, in-process, for a mailbox principal of the tenant), so a
 * question it raises waits as an ordinary input-required task. Throws only for faults (the caller retries);
 * an unreadable message is a task in state `failed`, not an exception.
 */
export interface MailSubmitter {
  /**
   * `contextId` is the A2A context the task is created in: the intake derives it from the message's
   * dedupe key, so a task created by a process that died before recording it can be found again.
   */
  submit(tenant: TenantId, raw: Buffer, source: MailSourceRef, contextId: string): Promise<SubmitResult>;
  /** The task's state now and what it was decided as; null when the tenant has no such task. */
  filing?(tenant: TenantId, taskId: string, source: MailSourceRef): Promise<TaskFiling | null>;
}

/** A structured logger (pino's call shape). Secrets never go in `fields`. */
export interface IngestLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
