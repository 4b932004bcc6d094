/**
 * One pass over the watched folder (poller.ts `drain`): every message with a UID above the stored
 * place, in UID order, through the intake (parse, dedupe claim, submit); each flagged \Seen and filed
 * (filer.ts), then the place recorded. A changed UIDVALIDITY rescans the whole folder, relying on the
 * dedupe ledger. Unreadable mail (over the size limit, judged from FETCH RFC822.SIZE before
 * downloading; broken MIME; a submit that keeps failing) goes to the failed folder with the reason
 * logged: never retried forever, never dropped silently.
 *
 * Owns: the batch, the submit faults per UID, and the backlog and lag it measures. Does not own: the
 * connection (imap-connection.ts) or when a pass runs (the poller).
 */
import type { ImapFlow } from 'imapflow';
import type { TenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { IngestLog, IngestStore, MailSourceRef } from '../ports.ts';
import { backoffDelayMs, type BackoffOptions } from './backoff.ts';
import { describeImapError } from './imap-connection.ts';
import type { Filer } from './filer.ts';

type Step = 'done' | 'stop-batch';

export interface FolderBatchDeps {
  readonly tenant: TenantId;
  readonly mailbox: string;
  readonly folder: string;
  readonly failedFolder: string;
  readonly source: MailSourceRef;
  readonly intake: Intake;
  readonly store: IngestStore;
  readonly filer: Filer;
  readonly log: IngestLog;
  readonly where: Record<string, unknown>;
  readonly maxMessageBytes: number;
  readonly maxSubmitAttempts: number;
  readonly busyRetryMs: number;
  readonly reconnect: BackoffOptions;
  /** Whether to go on: not stopped and still the mailbox's owner (checked before every fetch). */
  readonly going: () => boolean;
  /** Read the folder again after `delayMs` (a submit fault, a message busy elsewhere). */
  readonly retry: (delayMs: number) => void;
}

export interface FolderBatch {
  /** `reselect`: file answered tasks and SELECT the folder again first (sweeps do). */
  drain(c: ImapFlow, reselect: boolean): Promise<void>;
  /** Messages found waiting and not yet handled; 0 once a pass has caught up. */
  backlog(): number;
  /** Seconds from the last handled message's INTERNALDATE to its handling; null before the first. */
  lagSeconds(): number | null;
}

export function createFolderBatch(deps: FolderBatchDeps): FolderBatch {
  const { tenant, mailbox, log, where } = deps;
  let backlog = 0;
  let lagSeconds: number | null = null;
  /** Submit faults per UID in this session (a reconnect into a new UIDVALIDITY clears it). */
  const submitFaults = new Map<number, number>();
  let faultsValidity = '';

  /** The place to read from: the stored last UID, or 0 when the folder's UIDVALIDITY changed. */
  async function placeOf(validity: string): Promise<number> {
    const state = await deps.store.getMailboxState(tenant, mailbox);
    let lastUid = state?.lastUid ?? 0;
    if (state !== null && state.uidValidity !== validity) {
      log.warn(
        { ...where, storedUidValidity: state.uidValidity, uidValidity: validity },
        'UIDVALIDITY changed; rescanning the whole folder (already-triaged mail is recognised and not triaged again)',
      );
      lastUid = 0;
    }
    if (state === null || state.uidValidity !== validity)
      await deps.store.setMailboxState(tenant, mailbox, { uidValidity: validity, lastUid });
    if (faultsValidity !== validity) {
      submitFaults.clear();
      faultsValidity = validity;
    }
    return lastUid;
  }

  async function drain(c: ImapFlow, reselect: boolean): Promise<void> {
    if (reselect) await deps.filer.refileAnswered(c, deps.going);
    if (reselect || c.mailbox === false) await c.mailboxOpen(deps.folder);
    if (c.mailbox === false) return;
    const validity = c.mailbox.uidValidity.toString();
    const lastUid = await placeOf(validity);
    if (c.mailbox.exists === 0) return;
    // `N:*` always includes the highest UID even when it is below N (RFC 3501 §6.4.8): filter.
    const pending: { uid: number; size: number; arrived: Date | null }[] = [];
    for await (const m of c.fetch(
      `${lastUid + 1}:*`,
      { uid: true, size: true, internalDate: true },
      { uid: true },
    ))
      if (m.uid > lastUid)
        pending.push({ uid: m.uid, size: m.size ?? 0, arrived: arrivedAt(m.internalDate) });
    pending.sort((a, b) => a.uid - b.uid);
    backlog = pending.length;
    for (const m of pending) {
      // A lost lease stops the batch before the next fetch: the new owner reads the rest.
      if (!deps.going()) return;
      const step = await handle(c, m.uid, m.size);
      backlog = Math.max(0, backlog - 1);
      if (m.arrived !== null) lagSeconds = Math.max(0, (Date.now() - m.arrived.getTime()) / 1000);
      if (step === 'stop-batch') return;
      await deps.store.setMailboxState(tenant, mailbox, { uidValidity: validity, lastUid: m.uid });
    }
  }

  async function handle(c: ImapFlow, uid: number, size: number): Promise<Step> {
    const range = String(uid);
    if (size > deps.maxMessageBytes) {
      await toFailed(c, uid, `message is ${size} bytes, over the limit of ${deps.maxMessageBytes} bytes`);
      return 'done';
    }
    const fetched = await c.fetchOne(range, { uid: true, source: true }, { uid: true });
    if (fetched === false || fetched.source === undefined) return 'done'; // gone meanwhile (moved by someone else)
    let outcome;
    try {
      outcome = await deps.intake.accept(tenant, fetched.source, deps.source);
    } catch (e) {
      return submitFailed(c, uid, e);
    }
    switch (outcome.kind) {
      case 'unreadable':
        await toFailed(c, uid, `${outcome.code}: ${outcome.reason}`);
        return 'done';
      case 'overloaded': // not with the default 'wait'; kept total
      case 'busy':
        // The same message is being triaged through another path right now; its outcome decides.
        deps.retry(deps.busyRetryMs);
        return 'stop-batch';
      case 'submitted':
      case 'duplicate':
        await c.messageFlagsAdd(range, ['\\Seen'], { uid: true });
        await deps.filer.file(c, range, outcome.taskId);
        submitFaults.delete(uid);
        return 'done';
    }
  }

  async function submitFailed(c: ImapFlow, uid: number, e: unknown): Promise<Step> {
    const faults = (submitFaults.get(uid) ?? 0) + 1;
    submitFaults.set(uid, faults);
    if (faults >= deps.maxSubmitAttempts) {
      await toFailed(c, uid, `triage failed ${faults} times; last error: ${describeImapError(e)}`);
      return 'done';
    }
    log.warn(
      { ...where, uid, attempt: faults, error: describeImapError(e) },
      'triage failed; will retry this message',
    );
    deps.retry(backoffDelayMs(faults, deps.reconnect));
    return 'stop-batch';
  }

  async function toFailed(c: ImapFlow, uid: number, reason: string): Promise<void> {
    log.error(
      { ...where, uid, failedFolder: deps.failedFolder, reason },
      'message cannot be triaged; moved to the failed folder',
    );
    await c.messageMove(String(uid), deps.failedFolder, { uid: true });
    submitFaults.delete(uid);
  }

  return { drain, backlog: () => backlog, lagSeconds: () => lagSeconds };
}

/** INTERNALDATE as imapflow gives it (a Date, or a string on some servers); null when absent or unreadable. */
function arrivedAt(internalDate: Date | string | undefined): Date | null {
  if (internalDate === undefined) return null;
  const d = internalDate instanceof Date ? internalDate : new Date(internalDate);
  return Number.isNaN(d.getTime()) ? null : d;
}
