/**
 * The one door every ingest path (IMAP poller, each webhook) goes through: parse the raw message (to
 * refuse unreadable mail early and to learn its Message-ID), claim its dedupe key, submit it, record the
 * task. Nothing is triaged twice as long as the claim ledger holds; a fault releases the claim so the next
 * attempt (the next poll, a provider's retry) triages it, so nothing is lost either.
 *
 * A process that dies after the submitter created the task but before `complete` recorded it leaves a
 * pending claim; it expires after `leaseMs`, and whoever takes it over first looks for that task in the
 * message's own A2A context (derived from tenant and dedupe key) and records it instead of triaging the
 * message again. Only a process that dies while the task is still being triaged leaves no outcome to
 * find: then the message is triaged again (at-least-once there).
 *
 * Admission (src/admission): a message takes a slot of the process's gate, with its bytes, before it
 * is parsed, and keeps it until its task is recorded. A webhook asks with `admission: 'try'` and is
 * told 'overloaded' (its provider retries on 503); the IMAP poller waits its turn.
 */
import { createHash } from 'node:crypto';
import type { Admission, Permit } from '../admission/admission.ts';
import { isDomainError } from '../domain/errors.ts';
import type { MailLimits, MailMessage } from '../domain/mail/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { parseMail } from './mail/parse.ts';
import type { IngestLog, IngestStore, MailSourceRef, MailSubmitter, SubmittedState } from './ports.ts';

export type IntakeOutcome =
  | {
      readonly kind: 'submitted';
      readonly taskId: string;
      readonly state: SubmittedState;
      readonly dedupeKey: string;
    }
  | {
      readonly kind: 'duplicate';
      readonly taskId: string;
      readonly state: SubmittedState;
      readonly dedupeKey: string;
    }
  | { readonly kind: 'busy'; readonly dedupeKey: string }
  /** The admission gate is full (only with `admission: 'try'`): nothing was read; retry after the seconds. */
  | { readonly kind: 'overloaded'; readonly retryAfterSeconds: number; readonly reason: string }
  | {
      readonly kind: 'unreadable';
      readonly code: 'MESSAGE_TOO_LARGE' | 'MESSAGE_UNREADABLE';
      readonly reason: string;
    };

export interface AcceptOptions {
  /** 'wait' (default; IMAP) waits for a slot of the gate; 'try' (webhooks) answers 'overloaded'. */
  readonly admission?: 'wait' | 'try';
  /** The caller already holds the message's bytes in the gate (a webhook's request body). */
  readonly bytesHeld?: boolean;
}

export interface Intake {
  accept(
    tenant: TenantId,
    raw: Buffer,
    source: MailSourceRef,
    options?: AcceptOptions,
  ): Promise<IntakeOutcome>;
}

export interface IntakeDeps {
  readonly submitter: MailSubmitter;
  readonly store: IngestStore;
  /** The same limits the submitter's parse applies (a message refused here is refused there). */
  readonly limits?: Partial<MailLimits>;
  readonly log: IngestLog;
  /** The process's admission gate, shared with A2A; none: unbounded. */
  readonly admission?: Admission;
  /** How long a claim holds before another path may take it over, ms. Default 5 minutes. */
  readonly leaseMs?: number;
}

const DEFAULT_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * `mid:<Message-ID>` when the message has one (the same mail by two paths has the same Message-ID but
 * rarely the same bytes: Received headers differ), else `sha256:<content hash>`.
 */
function dedupeKeyOf(message: Pick<MailMessage, 'messageId' | 'contentHash'>): string {
  const id = message.messageId?.trim().replace(/^<|>$/g, '') ?? '';
  if (id !== '') {
    // Keys stay bounded whatever a sender puts in Message-ID.
    return id.length <= 200 ? `mid:${id}` : `mid-sha256:${createHash('sha256').update(id).digest('hex')}`;
  }
  return `sha256:${message.contentHash}`;
}

/**
 * The A2A context an ingested message's task is created in: a UUID-shaped digest of tenant and dedupe
 * key, so every attempt at one message uses the same context and a task left behind can be found.
 */
export function ingestContextId(tenant: TenantId, dedupeKey: string): string {
  const h = createHash('sha256').update(`${tenant}\u0000${dedupeKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function createIntake(deps: IntakeDeps): Intake {
  const leaseMs = deps.leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  const admission = deps.admission;
  return {
    async accept(tenant, raw, source, options) {
      if (admission === undefined) return read(tenant, raw, source);
      const request = { bytes: options?.bytesHeld === true ? 0 : raw.length, message: true };
      let permit: Permit | null;
      if (options?.admission === 'try') {
        permit = await admission.admitWithin(request, admission.limits.queueMs);
        if (permit === null) {
          return {
            kind: 'overloaded',
            retryAfterSeconds: admission.limits.retryAfterSeconds,
            reason: admission.busySentence(),
          };
        }
      } else {
        permit = await admission.admit(request);
      }
      try {
        return await read(tenant, raw, source);
      } finally {
        permit.release();
      }
    },
  };

  async function read(tenant: TenantId, raw: Buffer, source: MailSourceRef): Promise<IntakeOutcome> {
    let message: MailMessage;
    try {
      message = await parseMail(raw, deps.limits);
    } catch (e) {
      if (isDomainError(e, 'MESSAGE_TOO_LARGE'))
        return { kind: 'unreadable', code: 'MESSAGE_TOO_LARGE', reason: e.message };
      if (isDomainError(e, 'MESSAGE_UNREADABLE'))
        return { kind: 'unreadable', code: 'MESSAGE_UNREADABLE', reason: e.message };
      throw e;
    }
    const dedupeKey = dedupeKeyOf(message);
    const claim = await deps.store.claim(tenant, dedupeKey, { source, leaseMs });
    if (claim.kind === 'done') {
      deps.log.info(
        { tenant, dedupeKey, source, taskId: claim.taskId },
        'message already triaged; not triaged again',
      );
      return { kind: 'duplicate', taskId: claim.taskId, state: claim.state, dedupeKey };
    }
    if (claim.kind === 'busy') return { kind: 'busy', dedupeKey };

    const contextId = ingestContextId(tenant, dedupeKey);
    if (claim.retaken) {
      const earlier = await deps.store.earlierTask(tenant, contextId);
      // A failed task is no reading: most often one a killed process left unfinished, failed at the
      // next start (store/interrupted-tasks.ts). The message is triaged again rather than lost.
      if (earlier !== null && earlier.state !== 'failed') {
        await deps.store.complete(tenant, dedupeKey, claim.claimId, earlier);
        deps.log.warn(
          { tenant, dedupeKey, source, taskId: earlier.taskId, state: earlier.state },
          'message was triaged by a process that stopped before recording it; recorded that task, not triaged again',
        );
        return { kind: 'duplicate', taskId: earlier.taskId, state: earlier.state, dedupeKey };
      }
    }
    let result;
    try {
      result = await deps.submitter.submit(tenant, raw, source, contextId);
    } catch (e) {
      await deps.store.release(tenant, dedupeKey, claim.claimId);
      throw e;
    }
    await deps.store.complete(tenant, dedupeKey, claim.claimId, result);
    deps.log.info(
      { intake: { tenant, dedupeKey, source, taskId: result.taskId, state: result.state } },
      'message taken in',
    );
    return result.state === 'duplicate'
      ? { kind: 'duplicate', taskId: result.taskId, state: result.state, dedupeKey }
      : { kind: 'submitted', taskId: result.taskId, state: result.state, dedupeKey };
  }
}
