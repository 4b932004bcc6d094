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
 * One owner per mailbox (issue 15, lease-holder.ts): with `deps.lease`, the poller connects and
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
 * Deliberately not here: reading the environment (the password arrives resolved, and is never logged).
 */
import { ImapFlow } from 'imapflow';
import type { TenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { IngestLog, IngestStore, MailSourceRef } from '../ports.ts';
import { renewAt, TokenRefused, type AccessTokens } from './access-tokens.ts';
import { backoffDelayMs, type BackoffOptions } from './backoff.ts';
import { createFiler, ensureFolder } from './filer.ts';
import { createLeaseHolder, type MailboxLeasing } from './lease-holder.ts';
import type { FilingConfig } from './filing.ts';
import type { TaskFiling } from '../ports.ts';

export interface ImapMailboxConfig {
  /** Stable name of this mailbox, used in logs, as the task source and as the key of its stored place. */
  readonly name: string;
  readonly tenant: TenantId;
  readonly host: string;
  readonly port: number;
  /** Implicit TLS (port 993). Without it STARTTLS is used when offered unless `startTls` is false. */
  readonly secure: boolean;
  readonly startTls?: boolean;
  readonly user: string;
  /**
   * How it signs in: exactly one of a password (resolved from the environment variable the
   * configuration names; never logged) and OAuth2 access tokens (access-tokens.ts, SASL XOAUTH2 or
   * OAUTHBEARER, whichever the server offers).
   */
  readonly password?: string;
  readonly accessTokens?: AccessTokens;
  /** Default 'INBOX'. */
  readonly folder?: string;
  /** Where triaged messages go; created when missing. Default 'Processed'. */
  readonly processedFolder?: string;
  /** Where unreadable messages go; created when missing. Default 'Unreadable'. */
  readonly failedFolder?: string;
  /** Sweep interval, ms: the watch on servers without IDLE, a safety net with it. Default 30 000. */
  readonly pollIntervalMs?: number;
  /** Inactivity before IDLE starts (imapflow autoIdleDelay), ms. Default 200. */
  readonly idleDelayMs?: number;
  /** Reconnect backoff, ms. Default 500 → 60 000. */
  readonly reconnect?: BackoffOptions;
  /** Submit faults for one message before it goes to the failed folder. Default 5. */
  readonly maxSubmitAttempts?: number;
  /** Wait before retrying a message another path is triaging right now, ms. Default 2 000. */
  readonly busyRetryMs?: number;
  /** Issue 40: file each message by what it was read as (filing.ts); absent, all go to processedFolder. */
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
  /** Issue 40: a task's state and what it was decided as (with `config.filing`). */
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

type Step = 'done' | 'stop-batch';

export function createImapPoller(config: ImapMailboxConfig, deps: ImapPollerDeps): ImapPoller {
  const folder = config.folder ?? 'INBOX';
  const processedFolder = config.processedFolder ?? 'Processed';
  const failedFolder = config.failedFolder ?? 'Unreadable';
  const pollIntervalMs = config.pollIntervalMs ?? 30_000;
  const reconnect = config.reconnect ?? { initialMs: 500, maxMs: 60_000 };
  const maxSubmitAttempts = config.maxSubmitAttempts ?? 5;
  const busyRetryMs = config.busyRetryMs ?? 2_000;
  const source: MailSourceRef = { kind: 'imap', name: config.name };
  const where = { mailbox: config.name, tenant: config.tenant, host: config.host, user: config.user, folder };
  const log = deps.log;
  const filer = createFiler({
    tenant: config.tenant,
    source,
    folder,
    processedFolder,
    intake: deps.intake,
    log,
    where,
    ...(config.filing === undefined ? {} : { filing: config.filing }),
    ...(deps.filing === undefined ? {} : { taskFiling: deps.filing }),
  });

  let stopped = true;
  let client: ImapFlow | null = null;
  let connected = false;
  let idleSupported: boolean | null = null;
  let reconnects = 0;
  let attempt = 0;
  let lastError: string | null = null;
  let lagSeconds: number | null = null;
  let backlog = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  /** With OAuth2: signs in again before the token runs out. */
  let renewTimer: NodeJS.Timeout | null = null;
  let draining: Promise<void> | null = null;
  let drainAgain = false;
  let reselectAgain = false;
  /** Submit faults per UID in this session (a reconnect into a new UIDVALIDITY clears it). */
  const submitFaults = new Map<number, number>();
  let faultsValidity = '';

  /** Every timer of this poller's own (the lease holder keeps its own). */
  function clearTimers(): void {
    for (const t of [reconnectTimer, sweepTimer, retryTimer, renewTimer]) if (t !== null) clearTimeout(t);
    reconnectTimer = sweepTimer = retryTimer = renewTimer = null;
  }

  /**
   * The lease was lost: no fetch after this (drain checks `owns()`); the message in hand finishes on
   * its own connection, which is closed after it.
   */
  function standBy(): void {
    clearTimers();
    const c = client;
    client = null;
    connected = false;
    if (c === null) return;
    const inHand = draining ?? Promise.resolve();
    void inHand
      .catch(() => {})
      .then(() => withTimeout(c.logout(), 2_000))
      .catch(() => c.close());
  }

  const holder = createLeaseHolder({
    lease: deps.lease,
    tenant: config.tenant,
    mailbox: config.name,
    where,
    log,
    gained: () => connect(),
    lost: standBy,
    failed: (error) => {
      lastError = error;
    },
    describe,
  });
  const owns = (): boolean => holder.owns();

  function scheduleReconnect(): void {
    if (stopped || !holder.holds() || reconnectTimer !== null) return;
    const delay = backoffDelayMs(attempt++, reconnect);
    log.warn({ ...where, delayMs: delay, lastError }, 'IMAP connection lost; reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void connect();
    }, delay);
  }

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

  /**
   * Connects and signs in. With OAuth2, a token the server refuses (AUTHENTICATIONFAILED) is
   * replaced by a fresh one once, at once; any other failure (the token endpoint refused too) waits
   * for the reconnect backoff, so a refusing endpoint is asked at most once per backoff step.
   */
  async function connect(fresh = false): Promise<void> {
    if (stopped || !owns()) return;
    for (let retried = false; ; retried = true) {
      let c: ImapFlow | null = null;
      try {
        const auth = await signIn(fresh || retried);
        if (stopped || !owns()) return;
        c = newClient(auth.credentials);
        await open(c);
        if (auth.token !== null) scheduleRenewal(auth.token.expiresAt);
        return;
      } catch (e) {
        lastError = describe(e);
        if (c !== null && client === c) {
          client = null;
          connected = false;
          c.close();
        }
        if (!retried && config.accessTokens !== undefined && refusedCredentials(e)) {
          log.warn(
            { ...where, error: lastError },
            'the IMAP server refused the access token; fetching a new one',
          );
          if (reconnectTimer !== null) clearTimeout(reconnectTimer);
          reconnectTimer = null;
          continue;
        }
        log.error(
          { ...where, error: lastError },
          e instanceof TokenRefused ? 'could not get an access token for the mailbox' : 'IMAP connect failed',
        );
        if (c === null || client === null) scheduleReconnect();
        return;
      }
    }
  }

  type Credentials = { user: string; pass: string } | { user: string; accessToken: string };

  async function signIn(
    fresh: boolean,
  ): Promise<{ credentials: Credentials; token: { expiresAt: number } | null }> {
    if (config.accessTokens === undefined)
      return { credentials: { user: config.user, pass: config.password ?? '' }, token: null };
    const token = await config.accessTokens.get(fresh);
    return { credentials: { user: config.user, accessToken: token.token }, token };
  }

  function newClient(auth: Credentials): ImapFlow {
    const c = new ImapFlow({
      host: config.host,
      port: config.port,
      secure: config.secure,
      doSTARTTLS: config.secure ? undefined : config.startTls === false ? false : undefined,
      auth,
      logger: false,
      autoIdleDelay: config.idleDelayMs ?? 200,
      // Restart IDLE now and then: some servers drop an IDLE silently (postalsys/imapflow#14).
      maxIdleTime: 5 * 60_000,
      // A black-holed host must not hold a reconnect (or the server's start) for imapflow's default 90 s.
      connectionTimeout: 15_000,
      greetingTimeout: 10_000,
      ...(deps.tls === undefined ? {} : { tls: deps.tls }),
    });
    client = c;
    c.on('error', (e: unknown) => {
      lastError = describe(e);
      log.warn({ ...where, error: lastError }, 'IMAP connection error');
    });
    c.on('close', () => {
      if (client !== c) return;
      connected = false;
      client = null;
      if (!stopped) {
        reconnects++;
        scheduleReconnect();
      }
    });
    c.on('exists', () => requestDrain());
    return c;
  }

  async function open(c: ImapFlow): Promise<void> {
    await c.connect();
    await ensureFolder(c, processedFolder);
    await ensureFolder(c, failedFolder);
    await c.mailboxOpen(folder);
    idleSupported = c.capabilities.has('IDLE');
    connected = true;
    attempt = 0;
    lastError = null;
    log.info({ ...where, idle: idleSupported }, 'IMAP mailbox open');
    requestDrain();
  }

  /**
   * Signs in again with a fresh token before this one runs out: after the message in hand, the
   * session is logged out and a new one opened. The stored place makes it lose and double nothing.
   */
  function scheduleRenewal(expiresAt: number): void {
    if (renewTimer !== null) clearTimeout(renewTimer);
    const now = Date.now();
    renewTimer = setTimeout(
      () => {
        renewTimer = null;
        void renewSession();
      },
      Math.max(0, renewAt(expiresAt, now) - now),
    );
  }

  async function renewSession(): Promise<void> {
    if (stopped || !owns()) return;
    if (draining !== null) await draining.catch(() => {});
    const old = client;
    client = null;
    connected = false;
    if (old !== null) void withTimeout(old.logout(), 2_000).catch(() => old.close());
    log.info(where, 'signing in again with a fresh access token before this one runs out');
    await connect(true);
  }

  /** `reselect`: SELECT the folder again first (sweeps do: a folder deleted and recreated under an open session shows no event). */
  function requestDrain(reselect = false): void {
    if (stopped || !owns()) return;
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
          await drain(again);
          again = reselectAgain;
        } while (drainAgain && !stopped);
      } catch (e) {
        lastError = describe(e);
        log.warn({ ...where, error: lastError }, 'IMAP drain interrupted; will resume');
        // A broken connection closes and reconnects; anything else is retried on the next sweep.
        if (client !== null && client.usable) scheduleRetry(backoffDelayMs(1, reconnect));
      } finally {
        draining = null;
        if (!stopped && owns()) scheduleSweep();
      }
    })();
  }

  async function drain(reselect: boolean): Promise<void> {
    const c = client;
    if (c === null || !c.usable || !owns()) return;
    if (reselect) await filer.refileAnswered(c, () => !stopped && owns());
    if (reselect || c.mailbox === false) await c.mailboxOpen(folder);
    if (c.mailbox === false) return;
    const validity = c.mailbox.uidValidity.toString();
    const state = await deps.store.getMailboxState(config.tenant, config.name);
    let lastUid = state?.lastUid ?? 0;
    if (state !== null && state.uidValidity !== validity) {
      log.warn(
        { ...where, storedUidValidity: state.uidValidity, uidValidity: validity },
        'UIDVALIDITY changed; rescanning the whole folder (already-triaged mail is recognised and not triaged again)',
      );
      lastUid = 0;
    }
    if (state === null || state.uidValidity !== validity) {
      await deps.store.setMailboxState(config.tenant, config.name, { uidValidity: validity, lastUid });
    }
    if (faultsValidity !== validity) {
      submitFaults.clear();
      faultsValidity = validity;
    }
    if (c.mailbox.exists === 0) return;

    // `N:*` always includes the highest UID even when it is below N (RFC 3501 §6.4.8): filter.
    const pending: { uid: number; size: number; arrived: Date | null }[] = [];
    for await (const m of c.fetch(
      `${lastUid + 1}:*`,
      { uid: true, size: true, internalDate: true },
      { uid: true },
    )) {
      if (m.uid > lastUid)
        pending.push({ uid: m.uid, size: m.size ?? 0, arrived: arrivedAt(m.internalDate) });
    }
    pending.sort((a, b) => a.uid - b.uid);
    backlog = pending.length;

    for (const m of pending) {
      // A lost lease stops the batch before the next fetch (issue 15): the new owner reads the rest.
      if (stopped || !owns()) return;
      const step = await handle(c, m.uid, m.size);
      backlog = Math.max(0, backlog - 1);
      if (m.arrived !== null) lagSeconds = Math.max(0, (Date.now() - m.arrived.getTime()) / 1000);
      if (step === 'stop-batch') return;
      await deps.store.setMailboxState(config.tenant, config.name, { uidValidity: validity, lastUid: m.uid });
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
      outcome = await deps.intake.accept(config.tenant, fetched.source, source);
    } catch (e) {
      const faults = (submitFaults.get(uid) ?? 0) + 1;
      submitFaults.set(uid, faults);
      if (faults >= maxSubmitAttempts) {
        await toFailed(c, uid, `triage failed ${faults} times; last error: ${describe(e)}`);
        return 'done';
      }
      log.warn(
        { ...where, uid, attempt: faults, error: describe(e) },
        'triage failed; will retry this message',
      );
      scheduleRetry(backoffDelayMs(faults, reconnect));
      return 'stop-batch';
    }
    switch (outcome.kind) {
      case 'unreadable':
        await toFailed(c, uid, `${outcome.code}: ${outcome.reason}`);
        return 'done';
      case 'overloaded': // not with the default 'wait'; kept total
      case 'busy':
        // The same message is being triaged through another path right now; its outcome decides.
        scheduleRetry(busyRetryMs);
        return 'stop-batch';
      case 'submitted':
      case 'duplicate':
        await c.messageFlagsAdd(range, ['\\Seen'], { uid: true });
        await filer.file(c, range, outcome.taskId);
        submitFaults.delete(uid);
        return 'done';
    }
  }

  async function toFailed(c: ImapFlow, uid: number, reason: string): Promise<void> {
    log.error(
      { ...where, uid, failedFolder, reason },
      'message cannot be triaged; moved to the failed folder',
    );
    await c.messageMove(String(uid), failedFolder, { uid: true });
    submitFaults.delete(uid);
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
      const c = client;
      client = null;
      connected = false;
      if (c !== null) {
        try {
          await withTimeout(c.logout(), 2_000);
        } catch {
          c.close();
        }
      }
      // A clean stop hands the mailbox over at once instead of after the lease runs out.
      await holder.release();
    },
    status() {
      const role = holder.holds() ? 'owner' : 'standby';
      return { connected, idleSupported, reconnects, lastError, lagSeconds, backlog, role };
    },
  };
}

/** INTERNALDATE as imapflow gives it (a Date, or a string on some servers); null when absent or unreadable. */
function arrivedAt(internalDate: Date | string | undefined): Date | null {
  if (internalDate === undefined) return null;
  const d = internalDate instanceof Date ? internalDate : new Date(internalDate);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The server refused the sign-in (a tagged NO to AUTHENTICATE), as opposed to a broken connection. */
function refusedCredentials(e: unknown): boolean {
  return (e as { authenticationFailed?: unknown } | null)?.authenticationFailed === true;
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    const response = (e as { responseText?: unknown }).responseText;
    return [e.message, typeof code === 'string' ? code : null, typeof response === 'string' ? response : null]
      .filter((s) => s !== null)
      .join(' / ');
  }
  return String(e);
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
