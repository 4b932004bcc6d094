/**
 * The ingest store port: where each IMAP poller has got to, and the dedupe ledger that makes a message
 * arriving by two paths (mailbox and webhook, a retried webhook) triaged once. Owned by the domain so
 * src/store implements it and src/ingest uses it without either importing the other.
 */
import type { TenantId } from '../tenant.ts';

/** Where a message came from; `name` is the configured mailbox or the webhook provider. */
export interface MailSourceRef {
  readonly kind: 'imap' | 'webhook';
  readonly name: string;
}

export type SubmittedState = 'completed' | 'input-required' | 'failed' | 'duplicate';

export interface SubmitResult {
  readonly taskId: string;
  readonly state: SubmittedState;
}

/** Where a triaged message's task stands now, and what it was decided as (for filing it). */
export interface TaskFiling {
  readonly state: 'completed' | 'input-required' | 'failed' | 'working';
  /** Each reading's decided entry by its label, under the reader's `shownAs` (`customer`, `kind`). */
  readonly filedAs: ReadonlyMap<string, string>;
}

/** Where an IMAP poller has got to in one folder. `uidValidity` is a decimal string (IMAP's is a 32-bit value). */
export interface MailboxState {
  readonly uidValidity: string;
  readonly lastUid: number;
}

/**
 * The outcome of claiming a dedupe key.
 * - `claimed`: this caller must submit the message, then `complete` (or `release` on a fault); when
 *   `retaken`, first ask `earlierTask` whether the previous holder already did.
 * - `done`: the message was already triaged (by any path); `taskId`/`state` are the first outcome.
 * - `busy`: another caller holds a live claim (e.g. the same mail arriving by mailbox and webhook at once);
 *   try again later.
 */
export type ClaimResult =
  | {
      readonly kind: 'claimed';
      readonly claimId: string;
      /**
       * True when this claim took over one whose lease ran out: its holder may have died after the
       * task was created and before `complete` recorded it (see `earlierTask`).
       */
      readonly retaken: boolean;
    }
  | { readonly kind: 'done'; readonly taskId: string; readonly state: SubmittedState }
  | { readonly kind: 'busy' };

export interface ClaimRequest {
  readonly source: MailSourceRef;
  /** How long the claim holds before another caller may take it over (a crashed submitter), ms. */
  readonly leaseMs: number;
}

/**
 * Ingest bookkeeping: mailbox positions and the dedupe ledger. Every call takes the tenant.
 * A dedupe key is `mid:<Message-ID>` or, for a message without one, `sha256:<content hash>`.
 */
export interface IngestStore {
  getMailboxState(tenant: TenantId, mailbox: string): Promise<MailboxState | null>;
  setMailboxState(tenant: TenantId, mailbox: string, state: MailboxState): Promise<void>;
  claim(tenant: TenantId, dedupeKey: string, request: ClaimRequest): Promise<ClaimResult>;
  /** Records the task a claimed message became; later claims of the key answer `done`. */
  complete(tenant: TenantId, dedupeKey: string, claimId: string, result: SubmitResult): Promise<void>;
  /** Gives a claim back after a fault, so the next attempt (a retried webhook, the next poll) may submit. */
  release(tenant: TenantId, dedupeKey: string, claimId: string): Promise<void>;
  /**
   * The tenant's task in A2A context `contextId` that reached an outcome (completed, input-required,
   * failed or rejected), or null: what a submitter that died before `complete` left behind.
   */
  earlierTask(tenant: TenantId, contextId: string): Promise<SubmitResult | null>;
}

/** What spending a token in the store found. */
export type TokenSpend =
  { readonly kind: 'spent' } | { readonly kind: 'replayed'; readonly firstSeenMs: number };

/** Where spent tokens outlive the process (tenant-scoped, §13.2); the ingest store implements it. */
export interface SpentTokenStore {
  /** Spend `token` for `tenant` until `expiresAtMs`; 'replayed' if it is spent and unexpired. */
  spendToken(tenant: TenantId, token: string, expiresAtMs: number, nowMs: number): Promise<TokenSpend>;
  /** Give a spent token back (its post was answered "retry"). */
  unspendToken(tenant: TenantId, token: string): Promise<void>;
}
