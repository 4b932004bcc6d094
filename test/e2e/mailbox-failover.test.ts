// Invariant (issue 15): two server processes on one PostgreSQL watching one real Dovecot mailbox have one IMAP owner at a time (the mailbox lease); when the owner is killed with SIGKILL in the middle of a poll, the other takes the mailbox over within the lease, and every delivered message is triaged exactly once: one task with an outcome per Message-ID, none lost, each in the processed folder once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImapFlow } from 'imapflow';
import { ingestContextId } from '../../src/ingest/intake.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { mail, waitFor } from '../support/ingest.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { mailPipelineEnv, startChild, type ChildHost } from './host.ts';

const MAILBOX = 'failover';
const MESSAGES = 40;
/** Short leases so the test waits seconds, not the production defaults' tens of seconds. */
const LEASE_MS = 3_000;
const RENEW_MS = 1_000;
const CLAIM_LEASE_MS = 3_000;
const METRICS_TOKEN = 'e2e-failover-metrics-token-7d6e';

let dovecot: Dovecot;
let database: TestDatabase;
let db: pg.Client;
const hosts: ChildHost[] = [];

beforeAll(async () => {
  dovecot = await startDovecot();
  database = await createTestDatabase();
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
}, 60_000);

afterAll(async () => {
  for (const h of hosts) await h.close();
  await db?.end();
  await database?.drop();
  await dovecot?.dispose();
});

function replicaEnv(): Record<string, string> {
  const env = mailPipelineEnv(dovecot, {
    mailbox: MAILBOX,
    inboundToken: 'e2e-failover-token-0a1b2c3d',
    mailgunSigningKey: 'e2e-failover-mailgun-key',
  });
  // A sweep every second as well as IDLE: the survivor picks up what is waiting as soon as it owns the mailbox.
  const [box] = JSON.parse(env.MAILBOXES!) as Record<string, unknown>[];
  return {
    ...env,
    MAILBOXES: JSON.stringify([{ ...box, pollIntervalMs: 1_000 }]),
    DATABASE_URL: database.url,
    MAILBOX_LEASE_MS: String(LEASE_MS),
    MAILBOX_LEASE_RENEW_MS: String(RENEW_MS),
    INGEST_CLAIM_LEASE_MS: String(CLAIM_LEASE_MS),
    LOG_LEVEL: 'warn',
    METRICS_TOKEN: METRICS_TOKEN,
  };
}

/** The replica's `imap_connected` gauge for the mailbox: 1 while it has the folder open. */
async function imapConnected(host: ChildHost): Promise<number> {
  const res = await fetch(`${host.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const m = new RegExp(`^imap_connected\\{mailbox="${MAILBOX}"\\} (\\d+)`, 'm').exec(text);
  if (m === null) throw new Error(`no imap_connected gauge for ${MAILBOX} in:\n${text.slice(0, 2000)}`);
  return Number(m[1]);
}

/** The process holding the mailbox lease now (holder ids are host/pid/random), or null. */
async function leaseHolderPid(): Promise<number | null> {
  const { rows } = await db.query<{ holder: string; lease_until_ms: string }>(
    'select holder, lease_until_ms from mailbox_leases where tenant = $1 and mailbox = $2',
    ['demo', MAILBOX],
  );
  const row = rows[0];
  if (row === undefined || Number(row.lease_until_ms) <= Date.now()) return null;
  return Number(row.holder.split('/')[1]);
}

/** Tasks of the demo tenant per A2A context, by state. */
async function tasksByContext(): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ context_id: string; status_state: string }>(
    `select context_id, status_state from tasks where owner = 'demo/*'`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.context_id, [...(out.get(r.context_id) ?? []), r.status_state]);
  return out;
}

async function messageIdsIn(c: ImapFlow, path: string): Promise<string[]> {
  const lock = await c.getMailboxLock(path);
  try {
    const out: string[] = [];
    if (c.mailbox !== false && c.mailbox.exists > 0) {
      for await (const m of c.fetch('1:*', { envelope: true })) out.push(m.envelope?.messageId ?? '');
    }
    return out;
  } finally {
    lock.release();
  }
}

const OUTCOMES = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_INPUT_REQUIRED']);

describe('one IMAP owner per mailbox across replicas', () => {
  it('hands the mailbox to the standby when its owner is killed mid-poll, triaging every message once', async () => {
    hosts.push(await startChild(replicaEnv()), await startChild(replicaEnv()));
    const [first, second] = hosts as [ChildHost, ChildHost];
    const ownerPid = await waitFor('a replica to take the mailbox lease', leaseHolderPid, 60_000);
    expect([first.pid, second.pid]).toContain(ownerPid);
    const owner = ownerPid === first.pid ? first : second;
    const standby = owner === first ? second : first;
    // Exactly one owner while both live: the lease stays with it across renewals, and only it has
    // the mailbox open; the standby holds no IMAP connection.
    await waitFor('the owner to open the mailbox', async () => (await imapConnected(owner)) === 1, 60_000);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, RENEW_MS));
      expect(await leaseHolderPid()).toBe(owner.pid);
      expect(await imapConnected(standby)).toBe(0);
    }

    const ids = Array.from({ length: MESSAGES }, (_, i) => `failover-${i}-${Date.now()}`);
    const contexts = new Map(
      ids.map((id) => [ingestContextId(tenantId('demo'), `mid:${id}@shipper.example`), id]),
    );
    const triaged = async (): Promise<number> =>
      [...(await tasksByContext()).entries()].filter(
        ([c, s]) => contexts.has(c) && s.some((x) => OUTCOMES.has(x)),
      ).length;

    // Deliver in a stream and kill the owner while it is working through them: some triaged, more waiting.
    let delivered = 0;
    for (; delivered < MESSAGES / 2; delivered++) dovecot.deliver(mail(ids[delivered]!));
    await waitFor('the owner to have triaged a few messages', async () => (await triaged()) >= 3, 60_000);
    const before = await triaged();
    await owner.crash();
    const killedAt = Date.now();
    expect(before).toBeLessThan(MESSAGES);
    for (; delivered < MESSAGES; delivered++) dovecot.deliver(mail(ids[delivered]!));

    await waitFor(
      'the standby to take the mailbox over',
      async () => (await leaseHolderPid()) === standby.pid,
      60_000,
    );
    const takeoverMs = Date.now() - killedAt;
    await waitFor('every message to be triaged', async () => (await triaged()) === MESSAGES, 120_000);
    expect(await imapConnected(standby)).toBe(1);

    const c = await dovecot.client();
    try {
      await waitFor(
        'the inbox to be empty',
        async () => (await messageIdsIn(c, 'INBOX')).length === 0,
        60_000,
      );
      const processed = await messageIdsIn(c, 'Processed');
      const counts = new Map<string, number>();
      for (const m of processed) counts.set(m, (counts.get(m) ?? 0) + 1);
      for (const id of ids) expect(counts.get(`<${id}@shipper.example>`), id).toBe(1);
      expect(await messageIdsIn(c, 'Unreadable')).toEqual([]);
    } finally {
      await c.logout();
    }
    // Exactly once: one task with an outcome per Message-ID; a task the killed owner left mid-triage
    // (still submitted/working) read nothing, and its message was triaged once by the survivor.
    const byContext = await tasksByContext();
    let interrupted = 0;
    for (const [context, id] of contexts) {
      const states = byContext.get(context) ?? [];
      expect(
        states.filter((s) => OUTCOMES.has(s)),
        id,
      ).toHaveLength(1);
      interrupted += states.filter((s) => !OUTCOMES.has(s)).length;
    }
    const { rows } = await db.query<{ status: string; n: string }>(
      `select status, count(*) as n from ingest_claims where tenant = 'demo' group by status`,
    );
    expect(rows).toEqual([{ status: 'done', n: String(MESSAGES) }]);
    console.info(
      `mailbox failover: ${before}/${MESSAGES} triaged by the owner before SIGKILL; standby owned the mailbox ` +
        `${takeoverMs} ms after the kill (lease ${LEASE_MS} ms, renew ${RENEW_MS} ms); ${interrupted} task(s) left mid-triage`,
    );
  }, 300_000);
});
