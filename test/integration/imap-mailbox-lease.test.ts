// Invariant (issue 15): with a mailbox lease, of two pollers watching one real Dovecot mailbox only the holder connects and triages; a holder whose renew finds the lease taken stops polling and closes its connection before its next fetch; a standby takes a released or run-out lease and triages what is waiting, and is ready meanwhile; a clean stop releases the lease.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteIngestStore } from '../../src/store/sqlite-ingest-store.ts';
import { KyselyMailboxLeaseStore } from '../../src/store/mailbox-lease-store.ts';
import { createIntake } from '../../src/ingest/intake.ts';
import { createImapPoller, type ImapPoller } from '../../src/ingest/imap/poller.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { mailboxCheck } from '../../src/observability/readiness.ts';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { mail, recordingLog, recordingSubmitter, waitFor } from '../support/ingest.ts';

const TENANT = tenantId('acme');
const LEASE_MS = 2_000;
const RENEW_MS = 200;

let dovecot: Dovecot;
let db: Kysely<unknown>;
let folderSeq = 0;
let folder = '';
const pollers: ImapPoller[] = [];

beforeAll(async () => {
  dovecot = await startDovecot();
});
afterAll(async () => {
  await dovecot?.dispose();
});
beforeEach(async () => {
  db = await openDatabase({ file: ':memory:' });
  folder = `L${++folderSeq}`;
  const c = await dovecot.client();
  await c.mailboxCreate(folder);
  await c.logout();
});
afterEach(async () => {
  for (const p of pollers.splice(0)) await p.stop();
  await db.destroy();
});

/** A poller of the shared mailbox as replica `holder`, on the shared ledger and lease table. */
function replica(holder: string) {
  const submitter = recordingSubmitter();
  const log = recordingLog();
  const store = new SqliteIngestStore(db);
  const poller = createImapPoller(
    {
      name: `box-${folder}`,
      tenant: TENANT,
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      startTls: false,
      user: dovecot.user,
      password: dovecot.password,
      folder,
      processedFolder: `${folder}-done`,
      failedFolder: `${folder}-bad`,
      pollIntervalMs: 500,
      idleDelayMs: 50,
      reconnect: { initialMs: 100, maxMs: 1_000 },
    },
    {
      intake: createIntake({ submitter, store, log }),
      store,
      log,
      maxMessageBytes: 25 * 1024 * 1024,
      lease: { store: new KyselyMailboxLeaseStore(db), holder, leaseMs: LEASE_MS, renewMs: RENEW_MS },
    },
  );
  pollers.push(poller);
  return { poller, submitter, log };
}

const ids = (s: ReturnType<typeof recordingSubmitter>): (string | null)[] =>
  s.submissions.map((x) => x.messageId);

describe('IMAP poller under a mailbox lease', () => {
  it('polls only on the holder; a holder taken over stops before its next fetch; a standby takes over', async () => {
    const a = replica('replica-a');
    await a.poller.start();
    const b = replica('replica-b');
    await b.poller.start();
    expect(a.poller.status()).toMatchObject({ role: 'owner', connected: true });
    expect(b.poller.status()).toMatchObject({ role: 'standby', connected: false });
    // A standby is ready (/readyz): waiting for the lease is its job, not a fault.
    expect(await mailboxCheck('box', () => b.poller.status()).check()).toBeNull();

    dovecot.deliver(mail('m1'), folder);
    await waitFor('A to triage m1', () => a.submitter.submissions.length === 1);
    expect(ids(a.submitter)).toEqual(['m1@shipper.example']);

    // Another replica takes the lease over (A stalled past it, say): A learns it on its next renew.
    await sql`update mailbox_leases set holder = 'intruder', lease_until_ms = ${Date.now() + 60_000}`.execute(
      db,
    );
    await waitFor('A to stand by', () => a.poller.status().role === 'standby');
    await waitFor('A to close its connection', () => !a.poller.status().connected);
    expect(a.log.entries.some((e) => e.message.startsWith('lost the mailbox lease'))).toBe(true);

    // Nobody of ours holds it: mail waits. When the intruder gives it up, a standby takes it and triages.
    dovecot.deliver(mail('m2'), folder);
    await sql`delete from mailbox_leases`.execute(db);
    await waitFor(
      'a standby to triage m2',
      () => a.submitter.submissions.length + b.submitter.submissions.length === 2,
    );
    const owner = a.poller.status().role === 'owner' ? a : b;
    expect(owner.poller.status()).toMatchObject({ role: 'owner' });
    expect([...ids(a.submitter), ...ids(b.submitter)].sort()).toEqual([
      'm1@shipper.example',
      'm2@shipper.example',
    ]);

    // A clean stop releases the lease: the other takes it at its next try, not after the lease runs out.
    const other = owner === a ? b : a;
    await owner.poller.stop();
    await waitFor('the other to own the mailbox', () => other.poller.status().role === 'owner');
    dovecot.deliver(mail('m3'), folder);
    await waitFor('the other to triage m3', () => ids(other.submitter).includes('m3@shipper.example'));
    expect([...ids(a.submitter), ...ids(b.submitter)]).toHaveLength(3);
  });
});
