/**
 * The IMAP mailbox poller: one per configured mailbox. It connects (imapflow), opens the folder, triages
 * every message with a UID above the stored place through the intake (parse, dedupe claim, submit), flags
 * it \Seen and moves it to the processed folder, then records the place. It watches with IDLE ('exists'
 * events) and sweeps every `pollIntervalMs` as well (the only watch where the server lacks IDLE, and a
 * guard against IDLE dying silently). It reconnects with capped, jittered backoff whenever the connection
 * closes.
 *
 * Crash safety, step by step: triaged-but-not-moved → still in the folder, re-read after restart, the
 * dedupe ledger answers "already triaged", and it is moved then; moved-but-place-not-stored → no longer in
 * the folder, nothing to re-read. A changed UIDVALIDITY rescans the whole folder, again relying on dedupe.
 * Unreadable mail (over the size limit, judged from FETCH RFC822.SIZE before downloading; broken MIME; a
 * submit that keeps failing) goes to the failed folder with the reason logged: never retried forever,
 * never dropped silently.
 *
 * One owner per mailbox (lease-holder.ts): with `deps.lease`, the poller connects and
 * polls only while this replica holds the mailbox's lease in the shared database. It renews it every
 * `renewMs`; a standby tries to take it at the same pace, so a dead owner's mailbox is taken over
 * within `leaseMs + renewMs` (plus a connect). A renew that fails (another replica holds it now), or
 * that cannot reach the database until the lease has run out, loses it: the poller fetches nothing
 * more (it checks before every fetch and before every message), lets the message in hand finish and
 * closes the connection. A message in hand at a handover is guarded by its own claim in the ingest
 * ledger (intake.ts): the new owner finds it `busy`, waits, and retakes it after its claim lease if
 * the old owner died, or reads it as done. A clean stop releases the lease so a standby takes over
 * at once.
 *
 * Its parts: the lease (lease-holder.ts), the connection and sign-in (imap-connection.ts), one pass
 * over the folder (folder-batch.ts) and where each message is filed (filer.ts). This module decides
 * when a pass runs: at the connection's open, at IDLE's 'exists', at each sweep and retry.
 *
 * Deliberately not here: reading the environment (the password arrives resolved, and is never logged).
 */
import type { TenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { IngestLog, IngestStore, MailSourceRef } from '../ports.ts';
import { backoffDelayMs, type BackoffOptions } from './backoff.ts';
import { createFiler } from './filer.ts';
import { createFolderBatch, type FolderBatch } from './folder-batch.ts';
import { createImapConnection, describeImapError, type ImapServerConfig } from './imap-connection.ts';
import { createLeaseHolder, type MailboxLeasing } from './lease-holder.ts';
import type { FilingConfig } from './filing.ts';
import type { TaskFiling } from '../ports.ts';

export interface ImapMailboxConfig extends ImapServerConfig {
  /** Stable name of this mailbox, used in logs, as the task source and as the key of its stored place. */
  readonly name: string;
  readonly tenant: TenantId;
  /** Default 'INBOX'. */
  readonly folder?: string;
  /** Where triaged messages go; created when missing. Default 'Processed'. */
  readonly processedFolder?: string;
  /** Where unreadable messages go; created when missing. Default 'Unreadable'. */
  readonly failedFolder?: string;
  /** Sweep interval, ms: the watch on servers without IDLE, a safety net with it. Default 30 000. */
  readonly pollIntervalMs?: number;
  /** Reconnect backoff, ms. Default 500 → 60 000. */
  readonly reconnect?: BackoffOptions;
  /** Submit faults for one message before it goes to the failed folder. Default 5. */
  readonly maxSubmitAttempts?: number;
  /** Wait before retrying a message another path is triaging right now, ms. Default 2 000. */
  readonly busyRetryMs?: number;
  /** File each message by what it was read as (filing.ts); absent, all go to processedFolder. */
  readonly filing?: FilingConfig;
}

export type { MailboxLeasing };

export interface ImapPollerDeps {
  readonly intake: Intake;
  readonly store: IngestStore;
  readonly log: IngestLog;
  /** Messages larger than this (RFC822.SIZE) are not downloaded; they go to the failed folder. */
  readonly maxMessageBytes: number;
  /** Only for tests: the TLS options (e.g. a test CA). */
  readonly tls?: Record<string, unknown>;
  /** Poll only while holding this mailbox lease; absent, this poller is the mailbox's only reader. */
  readonly lease?: MailboxLeasing;
  /** A task's state and what it was decided as (with `config.filing`). */
  readonly filing?: (tenant: TenantId, taskId: string, source: MailSourceRef) => Promise<TaskFiling | null>;
}

export interface ImapPollerStatus {
  readonly connected: boolean;
  readonly idleSupported: boolean | null;
  readonly reconnects: number;
  readonly lastError: string | null;
  /**
   * Issue 18 (IMAP lag): seconds from the server's arrival time (INTERNALDATE) of the last message
   * handled to the moment it was handled; null before the first.
   */
  readonly lagSeconds: number | null;
  /** Messages found waiting in the folder and not yet handled (0 once a sweep has caught up). */
  readonly backlog: number;
  /**
   * 'owner' while this replica polls the mailbox (always, without a lease); 'standby' while another
   * replica holds its lease and this one waits to take over.
   */
  readonly role: 'owner' | 'standby';
}

export interface ImapPoller {
  /** Starts watching; resolves after the first connection attempt (a failed one is retried in the background). */
  start(): Promise<void>;
  /** Stops after the message in hand is finished; closes the connection. */
  stop(): Promise<void>;
  status(): ImapPollerStatus;
}

export function createImapPoller(config: ImapMailboxConfig, deps: ImapPollerDeps): ImapPoller {
  const folder = config.folder ?? 'INBOX';
  const processedFolder = config.processedFolder ?? 'Processed';
  const failedFolder = config.failedFolder ?? 'Unreadable';
  const pollIntervalMs = config.pollIntervalMs ?? 30_000;
  const reconnect = config.reconnect ?? { initialMs: 500, maxMs: 60_000 };
  const where = { mailbox: config.name, tenant: config.tenant, host: config.host, user: config.user, folder };
  const log = deps.log;

  let stopped = true;
  let sweepTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let draining: Promise<void> | null = null;
  let drainAgain = false;
  let reselectAgain = false;

  /** Every timer of this poller's own and its connection's (the lease holder keeps its own). */
  function clearTimers(): void {
    for (const t of [sweepTimer, retryTimer]) if (t !== null) clearTimeout(t);
    sweepTimer = retryTimer = null;
    connection.clearTimers();
  }

  const holder = createLeaseHolder({
    lease: deps.lease,
    tenant: config.tenant,
    mailbox: config.name,
    where,
    log,
    gained: () => connection.connect(),
    // The lease was lost: no fetch after this (drain checks `owns()`); the message in hand finishes
    // on its own connection, which is closed after it.
    lost: () => {
      clearTimers();
      void connection.drop(draining ?? undefined);
    },
    failed: (error) => connection.failed(error),
    describe: describeImapError,
  });
  const owns = (): boolean => holder.owns();
  const going = (): boolean => !stopped && owns();
  const connection = createImapConnection({
    config,
    folder,
    folders: [processedFolder, failedFolder],
    reconnect,
    tls: deps.tls,
    log,
    where,
    running: () => !stopped,
    owns,
    holds: () => holder.holds(),
    ready: () => requestDrain(),
    exists: () => requestDrain(),
    inHand: () => draining,
  });
  const batch = folderBatchOf(
    config,
    deps,
    { folder, processedFolder, failedFolder, where, reconnect },
    going,
    (ms) => scheduleRetry(ms),
  );

  function scheduleSweep(): void {
    if (sweepTimer !== null) clearTimeout(sweepTimer);
    sweepTimer = setTimeout(() => {
      sweepTimer = null;
      requestDrain(true);
    }, pollIntervalMs);
  }

  function scheduleRetry(delayMs: number): void {
    if (stopped || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      requestDrain();
    }, delayMs);
  }

  /** `reselect`: SELECT the folder again first (sweeps do: a folder deleted and recreated under an open session shows no event). */
  function requestDrain(reselect = false): void {
    if (!going()) return;
    if (draining !== null) {
      drainAgain = true;
      reselectAgain ||= reselect;
      return;
    }
    draining = (async () => {
      try {
        let again = reselect;
        do {
          drainAgain = false;
          reselectAgain = false;
          const c = connection.client();
          if (c !== null && c.usable && owns()) await batch.drain(c, again);
          again = reselectAgain;
        } while (drainAgain && !stopped);
      } catch (e) {
        const error = describeImapError(e);
        connection.failed(error);
        log.warn({ ...where, error }, 'IMAP drain interrupted; will resume');
        // A broken connection closes and reconnects; anything else is retried on the next sweep.
        if (connection.client()?.usable === true) scheduleRetry(backoffDelayMs(1, reconnect));
      } finally {
        draining = null;
        if (going()) scheduleSweep();
      }
    })();
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      await holder.start();
    },
    async stop() {
      stopped = true;
      clearTimers();
      await holder.halt();
      if (draining !== null) await draining.catch(() => {});
      await connection.drop();
      // A clean stop hands the mailbox over at once instead of after the lease runs out.
      await holder.release();
    },
    status() {
      const role = holder.holds() ? 'owner' : 'standby';
      return { ...connection.status(), lagSeconds: batch.lagSeconds(), backlog: batch.backlog(), role };
    },
  };
}

/** The folder's batch and its filer, for one mailbox (folder-batch.ts, filer.ts). */
function folderBatchOf(
  config: ImapMailboxConfig,
  deps: ImapPollerDeps,
  at: {
    readonly folder: string;
    readonly processedFolder: string;
    readonly failedFolder: string;
    readonly where: Record<string, unknown>;
    readonly reconnect: BackoffOptions;
  },
  going: () => boolean,
  retry: (delayMs: number) => void,
): FolderBatch {
  const source: MailSourceRef = { kind: 'imap', name: config.name };
  const { folder, processedFolder, where } = at;
  const filer = createFiler({
    tenant: config.tenant,
    source,
    folder,
    processedFolder,
    intake: deps.intake,
    log: deps.log,
    where,
    ...(config.filing === undefined ? {} : { filing: config.filing }),
    ...(deps.filing === undefined ? {} : { taskFiling: deps.filing }),
  });
  return createFolderBatch({
    ...at,
    tenant: config.tenant,
    mailbox: config.name,
    source,
    intake: deps.intake,
    store: deps.store,
    filer,
    log: deps.log,
    maxMessageBytes: deps.maxMessageBytes,
    maxSubmitAttempts: config.maxSubmitAttempts ?? 5,
    busyRetryMs: config.busyRetryMs ?? 2_000,
    going,
    retry,
  });
}
