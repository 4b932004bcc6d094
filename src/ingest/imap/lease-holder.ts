/**
 * A replica's hold on one mailbox's lease: only the holder polls the mailbox. The owner
 * renews the lease every `renewMs`; a standby tries to take it at the same pace (free, or run out: its
 * owner died). A renew refused (another replica holds it now), or one that cannot reach the database
 * until the lease has run out, loses it. Without a lease (one replica) the poller always owns its
 * mailbox.
 *
 * Owns: the lease's state, its timer and its one try in flight. Does not own: connecting or polling
 * (the poller's `gained` and `lost`).
 */
import type { TenantId } from '../../domain/tenant.ts';
import type { IngestLog, MailboxLeaseStore } from '../ports.ts';

/** The mailbox lease a poller polls under when replicas share a database. */
export interface MailboxLeasing {
  readonly store: MailboxLeaseStore;
  /** This replica's id, unique per process start. */
  readonly holder: string;
  /** How long a taken or renewed lease holds, ms (MAILBOX_LEASE_MS). */
  readonly leaseMs: number;
  /** How often the owner renews and a standby tries to take it, ms (MAILBOX_LEASE_RENEW_MS); below leaseMs. */
  readonly renewMs: number;
}

export interface LeaseHolder {
  /** May the poller fetch now: it holds the lease and it has not run out by this process's clock. */
  owns(): boolean;
  /** Whether it holds the lease, whatever the clock says (the poller's role). */
  holds(): boolean;
  /** The first try at once (the poller connects when it takes the lease), then every renewMs. */
  start(): Promise<void>;
  /** No more tries; waits for the one in flight. */
  halt(): Promise<void>;
  /** Hands the lease over at once, as a clean stop does, instead of letting it run out. */
  release(): Promise<void>;
  /** Stands by at once: the poller is told (`lost`) and fetches nothing more. */
  lose(reason: string): void;
}

export function createLeaseHolder(deps: {
  readonly lease: MailboxLeasing | undefined;
  readonly tenant: TenantId;
  readonly mailbox: string;
  /** The mailbox's log fields. */
  readonly where: Readonly<Record<string, unknown>>;
  readonly log: IngestLog;
  /** This replica took the lease: connect and poll. */
  readonly gained: () => Promise<void>;
  /** This replica lost the lease: stop polling, finish the message in hand, close. */
  readonly lost: () => void;
  /** The database did not answer a try (the poller's last error). */
  readonly failed: (error: string) => void;
  readonly describe: (e: unknown) => string;
}): LeaseHolder {
  const { lease, tenant, mailbox, where, log } = deps;
  let owner = lease === undefined;
  let heldUntilMs = Number.POSITIVE_INFINITY;
  let halted = true;
  let timer: NodeJS.Timeout | null = null;
  let tick: Promise<void> | null = null;

  const lose = (reason: string): void => {
    if (!owner) return;
    owner = false;
    heldUntilMs = Number.NEGATIVE_INFINITY;
    log.warn({ ...where, holder: lease?.holder, reason }, 'lost the mailbox lease; standing by');
    deps.lost();
  };

  /** The owner renews; a standby tries to take the lease. */
  async function tryOnce(l: MailboxLeasing): Promise<void> {
    const askedAt = Date.now();
    try {
      if (owner) {
        if (await l.store.renew(tenant, mailbox, l.holder, l.leaseMs)) heldUntilMs = askedAt + l.leaseMs;
        else lose('another replica holds the mailbox lease now');
        return;
      }
      if (!(await l.store.acquire(tenant, mailbox, l.holder, l.leaseMs))) return;
      if (halted) {
        await l.store.release(tenant, mailbox, l.holder);
        return;
      }
      owner = true;
      heldUntilMs = askedAt + l.leaseMs;
      log.info({ ...where, holder: l.holder }, 'took the mailbox lease; polling this mailbox');
      await deps.gained();
    } catch (e) {
      const error = deps.describe(e);
      deps.failed(error);
      log.warn({ ...where, error }, 'mailbox lease: the database did not answer');
      if (owner && Date.now() >= heldUntilMs) lose(`could not renew the mailbox lease: ${error}`);
    }
  }

  const run = (l: MailboxLeasing): Promise<void> => {
    tick = tryOnce(l).finally(() => {
      tick = null;
      schedule(l);
    });
    return tick;
  };
  const schedule = (l: MailboxLeasing): void => {
    if (halted || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void run(l);
    }, l.renewMs);
  };

  return {
    owns: () => owner && Date.now() < heldUntilMs,
    holds: () => owner,
    async start() {
      halted = false;
      if (lease === undefined) return deps.gained();
      return run(lease);
    },
    async halt() {
      halted = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (tick !== null) await tick.catch(() => {});
    },
    async release() {
      if (lease === undefined || !owner) return;
      owner = false;
      await lease.store.release(tenant, mailbox, lease.holder).catch((e: unknown) => {
        log.warn(
          { ...where, error: deps.describe(e) },
          'could not release the mailbox lease; it runs out by itself',
        );
      });
    },
    lose,
  };
}
