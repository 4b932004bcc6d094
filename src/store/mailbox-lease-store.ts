/**
 * MailboxLeaseStore over Kysely, the same statements on SQLite and PostgreSQL: one IMAP
 * owner per mailbox among the replicas sharing the database. `acquire` is one conditional upsert
 * (insert, or take over the row only if its lease ran out or is the caller's own), `renew` one
 * conditional update (only while the caller still holds it), so each is atomic on both engines and
 * two replicas racing never both win.
 *
 * Times are the replicas' own clocks (ms since the epoch): replicas must keep them in step (NTP)
 * to well under the lease duration. Deliberately not here: when to renew or what to do on a loss
 * (src/ingest/imap/poller.ts).
 */
import type { Kysely } from 'kysely';
import type { MailboxLease, MailboxLeaseStore } from '../domain/mail/index.ts';
import type { TenantId } from '../domain/tenant.ts';

interface LeaseTables {
  mailbox_leases: {
    tenant: string;
    mailbox: string;
    holder: string;
    lease_until_ms: number | string; // pg returns bigint as a string
    acquired_at: string;
  };
}

export interface KyselyMailboxLeaseStoreOptions {
  /** Milliseconds since the epoch; tests move it to expire leases. Default Date.now. */
  readonly nowMs?: () => number;
}

export class KyselyMailboxLeaseStore implements MailboxLeaseStore {
  readonly #db: Kysely<LeaseTables>;
  readonly #nowMs: () => number;

  constructor(db: Kysely<unknown>, options: KyselyMailboxLeaseStoreOptions = {}) {
    this.#db = db as Kysely<LeaseTables>;
    this.#nowMs = options.nowMs ?? Date.now;
  }

  async acquire(tenant: TenantId, mailbox: string, holder: string, leaseMs: number): Promise<boolean> {
    const now = this.#nowMs();
    const until = now + leaseMs;
    const acquiredAt = new Date(now).toISOString();
    const r = await this.#db
      .insertInto('mailbox_leases')
      .values({ tenant, mailbox, holder, lease_until_ms: until, acquired_at: acquiredAt })
      .onConflict((oc) =>
        oc
          .columns(['tenant', 'mailbox'])
          .doUpdateSet({ holder, lease_until_ms: until, acquired_at: acquiredAt })
          // Take it only when free (run out) or already ours; the table is named: PostgreSQL calls
          // a bare column in DO UPDATE … WHERE ambiguous with `excluded`.
          .where((eb) =>
            eb.or([eb('mailbox_leases.lease_until_ms', '<=', now), eb('mailbox_leases.holder', '=', holder)]),
          ),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async renew(tenant: TenantId, mailbox: string, holder: string, leaseMs: number): Promise<boolean> {
    const r = await this.#db
      .updateTable('mailbox_leases')
      .set({ lease_until_ms: this.#nowMs() + leaseMs })
      .where('tenant', '=', tenant)
      .where('mailbox', '=', mailbox)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async release(tenant: TenantId, mailbox: string, holder: string): Promise<void> {
    await this.#db
      .deleteFrom('mailbox_leases')
      .where('tenant', '=', tenant)
      .where('mailbox', '=', mailbox)
      .where('holder', '=', holder)
      .execute();
  }

  async current(tenant: TenantId, mailbox: string): Promise<MailboxLease | null> {
    const row = await this.#db
      .selectFrom('mailbox_leases')
      .select(['holder', 'lease_until_ms'])
      .where('tenant', '=', tenant)
      .where('mailbox', '=', mailbox)
      .executeTakeFirst();
    return row === undefined ? null : { holder: row.holder, leaseUntilMs: Number(row.lease_until_ms) };
  }
}
