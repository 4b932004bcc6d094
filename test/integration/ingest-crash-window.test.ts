// Invariant: a message is triaged once even when the process that triaged it died before recording
// the task: whoever takes the expired claim over finds that task in the message's own A2A context and
// records it (ingest/intake.ts). Real composition, real A2A task store and ledger on one SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailboxPrincipal } from '../../src/compose-mail.ts';
import { loadConfig } from '../../src/config/config.ts';
import { DEMO_TENANT } from '../../src/domain/tenant.ts';
import { createIntake, ingestContextId } from '../../src/ingest/intake.ts';
import type { IngestStore, MailSourceRef, MailSubmitter, SubmitResult } from '../../src/ingest/ports.ts';
import { compose, DATABASE_FILE, type Composition } from '../../src/main.ts';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteIngestStore } from '../../src/store/sqlite-ingest-store.ts';
import { mail, recordingLog } from '../support/ingest.ts';

const source: MailSourceRef = { kind: 'webhook', name: 'postmark' };
const LEASE_MS = 60_000;

describe('the ingest crash window', () => {
  let dir: string;
  let composition: Composition;
  let db: Kysely<unknown>;
  let now: number;
  let submitted: SubmitResult[];
  let submitter: MailSubmitter;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lt-crash-window-'));
    composition = await compose(
      loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'error' }),
      { announce: () => {} },
    );
    db = await openDatabase({ file: join(dir, DATABASE_FILE) });
    now = Date.parse('2026-12-01T09:00:00Z');
    submitted = [];
    // The server's own in-process triage_inbound, as compose-mail.ts wires it.
    submitter = {
      async submit(tenant, raw, from, contextId) {
        const r = await composition.server.a2a!.submitMail(
          mailboxPrincipal(tenant, from),
          raw,
          from,
          contextId,
        );
        submitted.push(r);
        return r;
      },
    };
  });
  afterEach(async () => {
    await db.destroy();
    await composition.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const store = (): SqliteIngestStore => new SqliteIngestStore(db, { nowMs: () => now });
  /** The ledger, but the process "dies" when it would record the task. */
  const dyingAtComplete = (): IngestStore => {
    const s = store();
    return {
      getMailboxState: (t, m) => s.getMailboxState(t, m),
      setMailboxState: (t, m, st) => s.setMailboxState(t, m, st),
      claim: (t, k, r) => s.claim(t, k, r),
      complete: () => Promise.reject(new Error('process killed')),
      release: (t, k, c) => s.release(t, k, c),
      earlierTask: (t, c) => s.earlierTask(t, c),
    };
  };
  const intake = (s: IngestStore) =>
    createIntake({ submitter, store: s, log: recordingLog(), leaseMs: LEASE_MS });

  it('records the task a dead process left, instead of triaging the message again', async () => {
    const raw = mail('crash-window-1', { subject: 'Pre-alert NGM-PO-12345' });
    await expect(intake(dyingAtComplete()).accept(DEMO_TENANT, raw, source)).rejects.toThrow(
      'process killed',
    );
    expect(submitted).toHaveLength(1);
    const [first] = submitted;

    // While the dead process's lease holds, nobody else may take the message.
    expect((await intake(store()).accept(DEMO_TENANT, raw, source)).kind).toBe('busy');
    now += LEASE_MS + 1;
    const again = await intake(store()).accept(DEMO_TENANT, raw, source);
    expect(again).toMatchObject({ kind: 'duplicate', taskId: first!.taskId, state: first!.state });
    expect(submitted).toHaveLength(1);
    // And the ledger now answers with that task.
    expect(await intake(store()).accept(DEMO_TENANT, raw, source)).toMatchObject({
      kind: 'duplicate',
      taskId: first!.taskId,
    });
    expect(submitted).toHaveLength(1);
  });

  it('triages the message when the dead process never created its task', async () => {
    const raw = mail('crash-window-2', { subject: 'Pre-alert NGM-PO-12346' });
    // A claim taken, then nothing: the process died before it submitted.
    const dedupeKey = 'mid:crash-window-2@shipper.example';
    const claim = await store().claim(DEMO_TENANT, dedupeKey, { source, leaseMs: LEASE_MS });
    expect(claim.kind).toBe('claimed');
    now += LEASE_MS + 1;
    const r = await intake(store()).accept(DEMO_TENANT, raw, source);
    expect(r.kind).toBe('submitted');
    expect(submitted).toHaveLength(1);
  });

  it("creates each ingested task in its message's own context, so only that message's task is found", async () => {
    const a = mail('crash-window-3', { subject: 'Pre-alert NGM-PO-12347' });
    const b = mail('crash-window-4', { subject: 'Pre-alert NGM-PO-12348' });
    await intake(store()).accept(DEMO_TENANT, a, source);
    await intake(store()).accept(DEMO_TENANT, b, source);
    const s = store();
    expect(
      await s.earlierTask(DEMO_TENANT, ingestContextId(DEMO_TENANT, 'mid:crash-window-3@shipper.example')),
    ).toEqual(submitted[0]);
    expect(
      await s.earlierTask(DEMO_TENANT, ingestContextId(DEMO_TENANT, 'mid:crash-window-4@shipper.example')),
    ).toEqual(submitted[1]);
    expect(
      await s.earlierTask(DEMO_TENANT, ingestContextId(DEMO_TENANT, 'mid:never-seen@shipper.example')),
    ).toBeNull();
  });
});
