// Invariant: two server processes on one PostgreSQL are one agent: a task started on one is read and answered on the other and finishes on its pinned version (§10.3); lessons posted to both at once serialize, one version and one `learned: false` (§10.2); a lesson taught on one reaches the other's next task; a token revoked in the shared database is refused by both on their next request (§13.2); a lesson still reaches the other replica's next task after the replicas' LISTEN connections were ended (issue 15).
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import pg from 'pg';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { authorityCall, cliRun, jsonRpc } from '../support/calls.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { reportOf, rfc822Message } from '../support/task-mail.ts';
import { startChild, type ChildHost } from './host.ts';

let database: TestDatabase;
let a: ChildHost;
let b: ChildHost;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // A first: it migrates the empty database, loads the demo tenant and makes the first-start token;
  // B then starts on what A made, as a replica added behind the load balancer does.
  a = await startChild({ DATABASE_URL: database.url });
  b = await startChild({ DATABASE_URL: database.url });
  token = a.token!;
  expect(b.token).toBeNull(); // one first start for the shared database, not one per replica
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
});

function lesson(from: string, reason: string): Record<string, unknown> {
  return {
    collection: 'customers',
    entry: 'northgate',
    value: { pattern: from.replace(/\./g, '\\.'), where: 'from' },
    taughtBy: 'dana@warehouse.example',
    reason,
  };
}

describe('two replicas on one PostgreSQL', () => {
  it('starts a task on A, reads it and teaches on B, answers on A on its pin, rechecks on B (§10.3)', async () => {
    const sender = 'billing@origin.example';
    const onA = await sdkClient(a.url, token);
    const onB = await sdkClient(b.url, token);
    const first = await send(
      onA.client,
      onA.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-0901', 'pa-1@origin.example'),
    );
    expect(TaskState[first.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
    const pin = first.metadata?.[EXTENSION_URI]?.pin as { definitionVersion: number; versionId: string };
    expect(pin.versionId).toMatch(/^sha256:/);

    // B reads the task A parked, teach block included (§7: B's request activated the extension).
    const read = await jsonRpc(b.url, token, 'GetTask', { id: first.id });
    expect(read.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(read.result.status.message.metadata[EXTENSION_URI].teach.collection).toBe('customers');

    const taught = await authorityCall(b.url, token, 'POST', '/lessons', lesson(sender, 'taught on B'));
    expect(taught.status).toBe(200);
    expect(taught.body.learned).toBe(true);
    expect(taught.body.definitionVersion).toBe(pin.definitionVersion + 1);

    // A's next task already reads under B's lesson (a new activation reaches every replica).
    const next = await send(
      onA.client,
      onA.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-0902', 'pa-2@origin.example'),
    );
    expect(TaskState[next.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(next).customer.winner).toBe('northgate');
    expect(reportOf(next).pin.versionId).toBe(taught.body.versionId);

    // The parked task, answered on A, finishes on the version it was pinned to, not B's new one.
    const answered = await send(onA.client, onA.opts, {
      taskId: first.id,
      parts: [{ data: { entry: 'northgate' } }],
    });
    expect(TaskState[answered.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(answered).pin).toEqual(pin);
    expect(reportOf(answered).versionId).toBe(pin.versionId);
    expect(reportOf(answered).customer.decidedBy).toBe('person');

    // Recheck on B: a new task, under the version active now.
    const recheck = await send(onB.client, onB.opts, {
      parts: [{ data: { recheck: { taskId: first.id } } }],
    });
    expect(recheck.id).not.toBe(first.id);
    expect(TaskState[recheck.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(recheck).customer.winner).toBe('northgate');
    expect(reportOf(recheck).versionId).toBe(taught.body.versionId);
    // B answers which rules were in force for A's task, from the shared pins (§13.4).
    const inForce = await authorityCall(b.url, token, 'GET', `/rules-in-force?taskId=${first.id}`);
    expect(inForce.status).toBe(200);
    expect(inForce.body.versionId).toBe(pin.versionId);
  });

  it('serializes identical lessons racing on A and B: one version, one learned: false (§10.2)', async () => {
    for (let round = 0; round < 5; round++) {
      const before = await authorityCall(a.url, token, 'GET', '/definition');
      const body = lesson(`desk${round}@race.example`, `race ${round}`);
      const [onA, onB] = await Promise.all([
        authorityCall(a.url, token, 'POST', '/lessons', body),
        authorityCall(b.url, token, 'POST', '/lessons', body),
      ]);
      expect([onA.status, onB.status]).toEqual([200, 200]);
      expect([onA.body.learned, onB.body.learned].sort()).toEqual([false, true]);
      const after = await authorityCall(b.url, token, 'GET', '/definition');
      expect(after.body.definitionVersion).toBe(before.body.definitionVersion + 1);
      const history = await authorityCall(a.url, token, 'GET', '/history');
      expect(history.body.history.filter((x: any) => x.reason === `race ${round}`)).toHaveLength(1);
    }
  });

  it('refuses a token revoked in the shared database on both replicas at their next request (§13.2)', async () => {
    const cli = async (argv: string[]): Promise<string> => {
      const r = await cliRun(argv, { DATABASE_URL: database.url });
      if (r.code !== 0) throw new Error(`learnables-triage ${argv.join(' ')} exited ${r.code}: ${r.err}`);
      return r.out;
    };
    const made = JSON.parse(
      await cli([
        'tokens',
        'create',
        '--tenant',
        'demo',
        '--principal',
        'sam@warehouse.example',
        '--kind',
        'person',
        '--roles',
        'read',
        '--json',
      ]),
    ) as { token: string; id: string };
    // Both replicas verify (and remember) it ...
    for (const host of [a, b, a, b]) {
      expect((await authorityCall(host.url, made.token, 'GET', '/definition')).status).toBe(200);
    }
    await cli(['tokens', 'revoke', made.id, '--tenant', 'demo']);
    // ... and both refuse it on the very next request.
    expect((await authorityCall(b.url, made.token, 'GET', '/definition')).status).toBe(401);
    expect((await authorityCall(a.url, made.token, 'GET', '/definition')).status).toBe(401);
  });
  it('erases an identifier through B from the shared rows A serves, and tells every replica (§14)', async () => {
    const sender = 'erase-me@gone.example';
    const onA = await sdkClient(a.url, token);
    const parked = await send(
      onA.client,
      onA.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-0990', 'pa-990@gone.example'),
    );
    expect(JSON.stringify(parked)).toContain('erase-me@gone');
    const erased = await authorityCall(b.url, token, 'POST', '/erase', {
      identifier: sender,
      taughtBy: 'dana@warehouse.example',
      reason: 'a request to be forgotten',
    });
    expect(erased.status).toBe(200);
    const changed = new Map(
      (erased.body.stores as { store: string; changed: number }[]).map((x) => [x.store, x.changed]),
    );
    expect(changed.get('tasks (history, status messages, artifacts)')).toBeGreaterThanOrEqual(1);
    expect(changed.get('replicas told to drop their reading caches')).toBe(1);
    expect(changed.get('tables rewritten without their old row versions')).toBeGreaterThan(0);
    // At once on A, which saved the task a moment ago (no recent copy of a shared row is served).
    const read = await jsonRpc(a.url, token, 'GetTask', { id: parked.id });
    expect(read.result.id).toBe(parked.id);
    expect(JSON.stringify(read).toLowerCase()).not.toContain('erase-me@gone');
  });

  it('brings a lesson taught on B to A’s next task after their listening connections were ended (pg_terminate_backend, issue 15)', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const listeners = async (): Promise<number[]> =>
        (
          await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity where datname = current_database() and query like 'listen %'`,
          )
        ).rows.map((r) => r.pid);
      const before = await listeners();
      expect(before).toHaveLength(2); // one LISTEN connection per replica
      await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);
      // Both replicas reconnect by themselves (new backends), and the push carries on.
      await expect
        .poll(async () => (await listeners()).filter((p) => !before.includes(p)).length, { timeout: 30_000 })
        .toBe(2);
    } finally {
      await admin.end();
    }
    const sender = 'desk@after-drop.example';
    const taught = await authorityCall(b.url, token, 'POST', '/lessons', lesson(sender, 'after the drop'));
    expect(taught.body.learned).toBe(true);
    const onA = await sdkClient(a.url, token);
    const next = await send(
      onA.client,
      onA.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-0950', 'pa-950@after-drop.example'),
    );
    expect(TaskState[next.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(next).pin.versionId).toBe(taught.body.versionId);
  });
});
