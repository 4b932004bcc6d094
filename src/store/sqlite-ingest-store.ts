/**
 * IngestStore over Kysely (SQLite via better-sqlite3; the SQL is plain enough for PostgreSQL too).
 * A claim inserts a pending row, or takes over a pending row whose lease has run out (a crashed
 * submitter: `retaken`, and `earlierTask` reads the SDK's tasks table for what it left); a live pending
 * row answers `busy` and a done row answers `done`.
 * A §14 erase (`erase`) renames the claims whose key or source names the identifier.
 * It also keeps the Mailgun tokens verified posts spent (`spendToken`, issue 12.5), as sha256
 * digests, until their signature leaves the replay window, so a replay after a restart is refused.
 * Deliberately not here: parsing, deciding what a dedupe key is (the ingest layer does that).
 */
import { createHash, randomUUID } from 'node:crypto';
import { erasedKey, scrubText, textMentions } from '../domain/definitions/index.ts';
import type { Kysely } from 'kysely';
import type {
  ClaimRequest,
  ClaimResult,
  IngestStore,
  MailboxState,
  SpentTokenStore,
  TokenSpend,
  SubmitResult,
  SubmittedState,
} from '../domain/mail/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { tenantsTask } from './sqlite-task-pins.ts';
import type { SettledState } from '../domain/task-states.ts';

interface IngestTables {
  ingest_mailboxes: {
    tenant: string;
    mailbox: string;
    uid_validity: string;
    last_uid: number;
    updated_at: string;
  };
  ingest_claims: {
    tenant: string;
    dedupe_key: string;
    status: 'pending' | 'done';
    claim_id: string;
    lease_until_ms: number;
    source_kind: string;
    source_name: string;
    task_id: string | null;
    task_state: string | null;
    claimed_at: string;
    completed_at: string | null;
  };
  webhook_tokens: {
    tenant: string;
    token_hash: string;
    expires_at_ms: number;
    first_seen_ms: number;
  };
}

/** The columns of the SDK's tasks table that `earlierTask` reads. */
interface TaskTables {
  tasks: { tenant: string; owner: string; id: string; context_id: string; status_state: string | null };
}

/** Task states that are an outcome, as the submitter reports them (every settled state, task-states.ts). */
const OUTCOMES: ReadonlyMap<string, SubmittedState> = new Map(
  Object.entries({
    TASK_STATE_COMPLETED: 'completed',
    TASK_STATE_INPUT_REQUIRED: 'input-required',
    TASK_STATE_FAILED: 'failed',
    TASK_STATE_REJECTED: 'failed',
    TASK_STATE_CANCELED: 'failed',
  } satisfies Record<SettledState, SubmittedState>),
);

export interface SqliteIngestStoreOptions {
  /** Milliseconds since the epoch; tests fix it to expire leases. Default Date.now. */
  readonly nowMs?: () => number;
}

export class SqliteIngestStore implements IngestStore, SpentTokenStore {
  readonly #db: Kysely<IngestTables>;
  readonly #tasks: Kysely<TaskTables>;
  readonly #nowMs: () => number;

  constructor(db: Kysely<unknown>, options: SqliteIngestStoreOptions = {}) {
    this.#db = db as Kysely<IngestTables>;
    this.#tasks = db as Kysely<TaskTables>;
    this.#nowMs = options.nowMs ?? Date.now;
  }

  async getMailboxState(tenant: TenantId, mailbox: string): Promise<MailboxState | null> {
    const row = await this.#db
      .selectFrom('ingest_mailboxes')
      .select(['uid_validity', 'last_uid'])
      .where('tenant', '=', tenant)
      .where('mailbox', '=', mailbox)
      .executeTakeFirst();
    return row === undefined ? null : { uidValidity: row.uid_validity, lastUid: Number(row.last_uid) };
  }

  async setMailboxState(tenant: TenantId, mailbox: string, state: MailboxState): Promise<void> {
    const updatedAt = new Date(this.#nowMs()).toISOString();
    await this.#db
      .insertInto('ingest_mailboxes')
      .values({
        tenant,
        mailbox,
        uid_validity: state.uidValidity,
        last_uid: state.lastUid,
        updated_at: updatedAt,
      })
      .onConflict((oc) =>
        oc.columns(['tenant', 'mailbox']).doUpdateSet({
          uid_validity: state.uidValidity,
          last_uid: state.lastUid,
          updated_at: updatedAt,
        }),
      )
      .execute();
  }

  async claim(tenant: TenantId, dedupeKey: string, request: ClaimRequest): Promise<ClaimResult> {
    const now = this.#nowMs();
    const claimId = randomUUID();
    const claimedAt = new Date(now).toISOString();
    const hold = {
      claim_id: claimId,
      lease_until_ms: now + request.leaseMs,
      source_kind: request.source.kind,
      source_name: request.source.name,
      claimed_at: claimedAt,
    };
    // A new key: one insert. Each statement is atomic, so of two callers at once one wins either step.
    const inserted = await this.#db
      .insertInto('ingest_claims')
      .values({
        tenant,
        dedupe_key: dedupeKey,
        status: 'pending',
        ...hold,
        task_id: null,
        task_state: null,
        completed_at: null,
      })
      .onConflict((oc) => oc.columns(['tenant', 'dedupe_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0)
      return { kind: 'claimed', claimId, retaken: false };
    // A pending claim whose lease ran out: its holder stopped (see IngestStore.earlierTask).
    const retaken = await this.#db
      .updateTable('ingest_claims')
      .set(hold)
      .where('tenant', '=', tenant)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'pending')
      .where('lease_until_ms', '<=', now)
      .executeTakeFirst();
    if (Number(retaken.numUpdatedRows) > 0) return { kind: 'claimed', claimId, retaken: true };

    const row = await this.#db
      .selectFrom('ingest_claims')
      .select(['status', 'task_id', 'task_state'])
      .where('tenant', '=', tenant)
      .where('dedupe_key', '=', dedupeKey)
      .executeTakeFirst();
    if (row?.status === 'done' && row.task_id !== null && row.task_state !== null) {
      return { kind: 'done', taskId: row.task_id, state: row.task_state as SubmittedState };
    }
    return { kind: 'busy' };
  }

  async earlierTask(tenant: TenantId, contextId: string): Promise<SubmitResult | null> {
    // The SDK's tasks table (migration 003), the tenant's rows only. Read only after a lease ran out.
    const rows = await this.#tasks
      .selectFrom('tasks')
      .select(['id', 'status_state'])
      .where('context_id', '=', contextId)
      .where((eb) => tenantsTask(eb, tenant))
      .execute();
    for (const r of rows) {
      const state = OUTCOMES.get(r.status_state ?? '');
      if (state !== undefined) return { taskId: r.id, state };
    }
    return null;
  }

  async complete(tenant: TenantId, dedupeKey: string, claimId: string, result: SubmitResult): Promise<void> {
    await this.#db
      .updateTable('ingest_claims')
      .set({
        status: 'done',
        task_id: result.taskId,
        task_state: result.state,
        completed_at: new Date(this.#nowMs()).toISOString(),
      })
      .where('tenant', '=', tenant)
      .where('dedupe_key', '=', dedupeKey)
      .where('claim_id', '=', claimId)
      .execute();
  }

  /**
   * §14: a claim whose dedupe key (a Message-ID) or source names `identifier` keeps its place
   * under the key's sha256 instead, and its source with "[erased]"; returns how many changed.
   * The same message arriving again after the erase is then triaged again.
   */
  async erase(tenant: TenantId, identifier: string): Promise<number> {
    const rows = await this.#db
      .selectFrom('ingest_claims')
      .select(['dedupe_key', 'source_name'])
      .where('tenant', '=', tenant)
      .execute();
    let n = 0;
    for (const row of rows) {
      if (!textMentions(row.dedupe_key, identifier) && !textMentions(row.source_name, identifier)) continue;
      await this.#db
        .updateTable('ingest_claims')
        .set({
          dedupe_key: textMentions(row.dedupe_key, identifier) ? erasedKey(row.dedupe_key) : row.dedupe_key,
          source_name: scrubText(row.source_name, identifier),
        })
        .where('tenant', '=', tenant)
        .where('dedupe_key', '=', row.dedupe_key)
        .execute();
      n++;
    }
    return n;
  }

  async release(tenant: TenantId, dedupeKey: string, claimId: string): Promise<void> {
    await this.#db
      .deleteFrom('ingest_claims')
      .where('tenant', '=', tenant)
      .where('dedupe_key', '=', dedupeKey)
      .where('claim_id', '=', claimId)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Spends a Mailgun token for `tenant` until `expiresAtMs`, in one transaction with the pruning
   * of the tenant's expired ones: 'replayed' (and when it was first seen) if it is already spent
   * and unexpired. Only the token's sha256 is kept.
   */
  async spendToken(tenant: TenantId, token: string, expiresAtMs: number, nowMs: number): Promise<TokenSpend> {
    const tokenHash = tokenDigest(token);
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('webhook_tokens')
        .where('tenant', '=', tenant)
        .where('expires_at_ms', '<=', nowMs)
        .execute();
      const inserted = await trx
        .insertInto('webhook_tokens')
        .values({ tenant, token_hash: tokenHash, expires_at_ms: expiresAtMs, first_seen_ms: nowMs })
        .onConflict((oc) => oc.columns(['tenant', 'token_hash']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'spent' } as const;
      const row = await trx
        .selectFrom('webhook_tokens')
        .select('first_seen_ms')
        .where('tenant', '=', tenant)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirstOrThrow();
      return { kind: 'replayed', firstSeenMs: Number(row.first_seen_ms) } as const;
    });
  }

  /** Gives a spent token back (its post was answered "retry", so Mailgun's retry must be read). */
  async unspendToken(tenant: TenantId, token: string): Promise<void> {
    await this.#db
      .deleteFrom('webhook_tokens')
      .where('tenant', '=', tenant)
      .where('token_hash', '=', tokenDigest(token))
      .execute();
  }
}

const tokenDigest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
