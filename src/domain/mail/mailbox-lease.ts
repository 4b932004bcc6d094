/**
 * The mailbox lease port: one IMAP owner per mailbox at a time among the replicas sharing
 * a database. A replica that holds the lease polls the mailbox; the others wait on standby and try
 * to take it when it runs out (its owner died or lost the database). Owned by the domain so
 * src/store implements it and src/ingest uses it without either importing the other.
 *
 * Deliberately not here: the timing (how long a lease holds, how often it is renewed: the poller's
 * settings) and any guarantee about a message in flight across a handover, which the per-message
 * claims of the ingest ledger (ingest-store.ts) give.
 */
import type { TenantId } from '../tenant.ts';

/** Who holds a mailbox's lease and until when (ms since the epoch). */
export interface MailboxLease {
  readonly holder: string;
  readonly leaseUntilMs: number;
}

/**
 * A lease per (tenant, mailbox name). `holder` is the replica's id (unique per process start).
 * Every call is one atomic statement, so two replicas racing for a free lease never both win.
 */
export interface MailboxLeaseStore {
  /**
   * Takes the lease for `leaseMs` if it is free, expired or already `holder`'s; true when `holder`
   * holds it afterwards.
   */
  acquire(tenant: TenantId, mailbox: string, holder: string, leaseMs: number): Promise<boolean>;
  /**
   * Extends the lease by `leaseMs` from now, only while `holder` still holds it (nobody took it over):
   * false means it was lost and the holder must stop polling before its next fetch.
   */
  renew(tenant: TenantId, mailbox: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease up (a clean stop) so a standby takes over at once; does nothing for a non-holder. */
  release(tenant: TenantId, mailbox: string, holder: string): Promise<void>;
  /** The lease as stored (possibly expired), or null when nobody ever took it or it was released. */
  current(tenant: TenantId, mailbox: string): Promise<MailboxLease | null>;
}
