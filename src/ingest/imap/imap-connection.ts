/**
 * The poller's one connection to its mailbox (poller.ts): connect and sign in (a password, or an
 * OAuth2 access token by SASL XOAUTH2 or OAUTHBEARER), open the folders, reconnect with capped,
 * jittered backoff whenever the connection closes, and with OAuth2 sign in again before the token
 * runs out.
 *
 * A token the server refuses (AUTHENTICATIONFAILED) is replaced by a fresh one once, at once; any
 * other failure (the token endpoint refused too) waits for the reconnect backoff, so a refusing
 * endpoint is asked at most once per backoff step.
 *
 * Owns: the client, its timers and its status. Does not own: when to read the folder (the
 * poller's `ready` and `exists`) or whether this replica may connect (the lease).
 */
import { ImapFlow } from 'imapflow';
import type { IngestLog } from '../ports.ts';
import { renewAt, TokenRefused, type AccessTokens } from './access-tokens.ts';
import { backoffDelayMs, type BackoffOptions } from './backoff.ts';
import { ensureFolder } from './filer.ts';

/** The server a mailbox is on and how to sign in to it (part of poller.ts `ImapServerConfig`). */
export interface ImapServerConfig {
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
  /** Inactivity before IDLE starts (imapflow autoIdleDelay), ms. Default 200. */
  readonly idleDelayMs?: number;
}

export interface ImapConnectionDeps {
  readonly config: ImapServerConfig;
  readonly folder: string;
  readonly folders: readonly string[];
  readonly reconnect: BackoffOptions;
  readonly tls?: Record<string, unknown> | undefined;
  readonly log: IngestLog;
  readonly where: Record<string, unknown>;
  /** Not stopped. */
  readonly running: () => boolean;
  /** This replica may fetch now (lease-holder.ts `owns`). */
  readonly owns: () => boolean;
  /** This replica holds the lease, whatever the clock says: a lost connection is retried. */
  readonly holds: () => boolean;
  /** The folder is open: read it. */
  readonly ready: () => void;
  /** The server announced new mail (IDLE). */
  readonly exists: () => void;
  /** The message in hand, finished before a session is replaced. */
  readonly inHand: () => Promise<void> | null;
}

export interface ImapConnection {
  connect(fresh?: boolean): Promise<void>;
  /** The open client, or null. */
  client(): ImapFlow | null;
  /** Lets go of the client without reconnecting: logged out after `after`, or closed. */
  drop(after?: Promise<unknown>): Promise<void>;
  /** Records a failure for the status. */
  failed(error: string): void;
  clearTimers(): void;
  status(): {
    connected: boolean;
    idleSupported: boolean | null;
    reconnects: number;
    lastError: string | null;
  };
}

type Credentials = { user: string; pass: string } | { user: string; accessToken: string };

export function createImapConnection(deps: ImapConnectionDeps): ImapConnection {
  const { config, log, where } = deps;
  let client: ImapFlow | null = null;
  let connected = false;
  let idleSupported: boolean | null = null;
  let reconnects = 0;
  let attempt = 0;
  let lastError: string | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  /** With OAuth2: signs in again before the token runs out. */
  let renewTimer: NodeJS.Timeout | null = null;

  const may = (): boolean => deps.running() && deps.owns();

  function clearTimers(): void {
    for (const t of [reconnectTimer, renewTimer]) if (t !== null) clearTimeout(t);
    reconnectTimer = renewTimer = null;
  }

  function scheduleReconnect(): void {
    if (!deps.running() || !deps.holds() || reconnectTimer !== null) return;
    const delay = backoffDelayMs(attempt++, deps.reconnect);
    log.warn({ ...where, delayMs: delay, lastError }, 'IMAP connection lost; reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void connect();
    }, delay);
  }

  async function connect(fresh = false): Promise<void> {
    if (!may()) return;
    for (let retried = false; ; retried = true) {
      let c: ImapFlow | null = null;
      try {
        const auth = await signIn(config, fresh || retried);
        if (!may()) return;
        c = newClient(auth.credentials);
        await open(c);
        if (auth.token !== null) scheduleRenewal(auth.token.expiresAt);
        return;
      } catch (e) {
        lastError = describeImapError(e);
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

  function newClient(auth: Credentials): ImapFlow {
    const c = new ImapFlow(imapOptions(config, auth, deps.tls));
    client = c;
    c.on('error', (e: unknown) => {
      lastError = describeImapError(e);
      log.warn({ ...where, error: lastError }, 'IMAP connection error');
    });
    c.on('close', () => {
      if (client !== c) return;
      connected = false;
      client = null;
      if (deps.running()) {
        reconnects++;
        scheduleReconnect();
      }
    });
    c.on('exists', () => deps.exists());
    return c;
  }

  async function open(c: ImapFlow): Promise<void> {
    await c.connect();
    for (const f of deps.folders) await ensureFolder(c, f);
    await c.mailboxOpen(deps.folder);
    idleSupported = c.capabilities.has('IDLE');
    connected = true;
    attempt = 0;
    lastError = null;
    log.info({ ...where, idle: idleSupported }, 'IMAP mailbox open');
    deps.ready();
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
    if (!may()) return;
    await deps.inHand()?.catch(() => {});
    void drop();
    log.info(where, 'signing in again with a fresh access token before this one runs out');
    await connect(true);
  }

  async function drop(after: Promise<unknown> = Promise.resolve()): Promise<void> {
    const c = client;
    client = null;
    connected = false;
    if (c === null) return;
    await after.catch(() => {});
    await withTimeout(c.logout(), 2_000).catch(() => c.close());
  }

  return {
    connect,
    client: () => client,
    drop,
    failed: (error) => {
      lastError = error;
    },
    clearTimers,
    status: () => ({ connected, idleSupported, reconnects, lastError }),
  };
}

async function signIn(
  config: ImapServerConfig,
  fresh: boolean,
): Promise<{ credentials: Credentials; token: { expiresAt: number } | null }> {
  if (config.accessTokens === undefined)
    return { credentials: { user: config.user, pass: config.password ?? '' }, token: null };
  const token = await config.accessTokens.get(fresh);
  return { credentials: { user: config.user, accessToken: token.token }, token };
}

function imapOptions(
  config: ImapServerConfig,
  auth: Credentials,
  tls: Record<string, unknown> | undefined,
): ConstructorParameters<typeof ImapFlow>[0] {
  return {
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
    ...(tls === undefined ? {} : { tls }),
  };
}

/** The server refused the sign-in (a tagged NO to AUTHENTICATE), as opposed to a broken connection. */
function refusedCredentials(e: unknown): boolean {
  return (e as { authenticationFailed?: unknown } | null)?.authenticationFailed === true;
}

/** An IMAP or sign-in failure in one line: the message, its code and the server's response text. */
export function describeImapError(e: unknown): string {
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
