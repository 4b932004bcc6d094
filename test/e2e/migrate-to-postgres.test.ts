// Invariant: an embedded SQLite data directory moved into PostgreSQL with `migrate-to-postgres` serves the same history, versionIds, tokens and tasks: a task parked before the move is answered after it on its pinned version (§10.3); a second move into the now non-empty database is refused and writes nothing.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { authorityCall, cliRun, jsonRpc } from '../support/calls.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { reportOf, rfc822Message } from '../support/task-mail.ts';
import { startInProcess, tempDataDir } from './host.ts';

let database: TestDatabase;
const sqliteDir = tempDataDir();

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  sqliteDir.remove();
});

describe('migrate-to-postgres', () => {
  it('moves a data directory into PostgreSQL with its history, versionIds, tokens and tasks', async () => {
    // 1. A server on SQLite: a parked question, a lesson, a task settled by it.
    const before = await startInProcess({}, sqliteDir.dir);
    const token = before.token!;
    let parked: Task;
    let history: any;
    let definition: any;
    let settledId: string;
    try {
      const { client, opts } = await sdkClient(before.url, token);
      parked = await send(
        client,
        opts,
        rfc822Message('desk@moved.example', 'Pre-alert PA-1', 'pa-1@moved.example'),
      );
      expect(TaskState[parked.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
      const taught = await authorityCall(before.url, token, 'POST', '/lessons', {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'desk@moved\\.example', where: 'from' },
        taughtBy: 'dana@warehouse.example',
        reason: 'before the move',
      });
      expect(taught.body.learned).toBe(true);
      const settled = await send(
        client,
        opts,
        rfc822Message('desk@moved.example', 'Pre-alert PA-2', 'pa-2@moved.example'),
      );
      expect(TaskState[settled.status!.state]).toBe('TASK_STATE_COMPLETED');
      settledId = settled.id;
      history = (await authorityCall(before.url, token, 'GET', '/history')).body;
      definition = (await authorityCall(before.url, token, 'GET', '/definition')).body;
    } finally {
      await before.close();
    }

    // 2. The move.
    const moved = await cliRun([
      'migrate-to-postgres',
      '--data-dir',
      sqliteDir.dir,
      '--to',
      database.url,
      '--json',
    ]);
    expect(moved.err).toBe('');
    expect(moved.code).toBe(0);
    const counts = JSON.parse(moved.out) as Record<string, number>;
    expect(counts.activations).toBe(history.history.length);
    expect(counts.tasks).toBeGreaterThanOrEqual(2);
    expect(counts.tokens).toBe(1);

    // 3. A server on PostgreSQL (a fresh, empty data directory): the same token works, and reads the same.
    const after = await startInProcess({ DATABASE_URL: database.url });
    try {
      expect(after.token).toBeNull(); // no first start: the tenant and its token came along
      expect((await authorityCall(after.url, token, 'GET', '/history')).body).toEqual(history);
      expect((await authorityCall(after.url, token, 'GET', '/definition')).body).toEqual(definition);
      const read = await jsonRpc(after.url, token, 'GetTask', { id: settledId });
      expect(read.result.status.state).toBe('TASK_STATE_COMPLETED');
      const inForce = await authorityCall(after.url, token, 'GET', `/rules-in-force?taskId=${settledId}`);
      expect(inForce.body.versionId).toBe(definition.versionId);

      // The question parked before the move is answered after it, on the version it was pinned to.
      const { client, opts } = await sdkClient(after.url, token);
      const answered = await send(client, opts, {
        taskId: parked.id,
        parts: [{ data: { entry: 'northgate' } }],
      });
      expect(TaskState[answered.status!.state]).toBe('TASK_STATE_COMPLETED');
      expect(reportOf(answered).pin).toEqual(parked.metadata?.[EXTENSION_URI]?.pin);
      // New rows number on from the copied ones (the corpus' own sequence was moved past them).
      const next = await send(
        client,
        opts,
        rfc822Message('desk@moved.example', 'Pre-alert PA-3', 'pa-3@moved.example'),
      );
      expect(TaskState[next.status!.state]).toBe('TASK_STATE_COMPLETED');
      const dry = await authorityCall(after.url, token, 'POST', '/lessons:dry-run', {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'desk@moved\\.example', where: 'from' },
        taughtBy: 'dana@warehouse.example',
      });
      expect(dry.status).toBe(200);
      expect(dry.body.total).toBe(3); // the two moved messages and the new one, each kept once
    } finally {
      await after.close();
    }

    // 4. Moving again into the database that now holds data is refused, naming what it holds.
    const again = await cliRun(['migrate-to-postgres', '--data-dir', sqliteDir.dir, '--to', database.url]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already holds data \(\d+ row\(s\) in "\w+"\); migrate into an empty database/);
  });

  it('says what to give when there is no target or no data directory', async () => {
    const noTarget = await cliRun(['migrate-to-postgres', '--data-dir', sqliteDir.dir]);
    expect(noTarget.code).toBe(2);
    expect(noTarget.err).toContain('--to postgres://');
    const noDir = await cliRun([
      'migrate-to-postgres',
      '--data-dir',
      '/nonexistent-lt',
      '--to',
      database.url,
    ]);
    expect(noDir.code).toBe(2);
    expect(noDir.err).toContain('there is no learnables-triage.sqlite in /nonexistent-lt');
  });
});
