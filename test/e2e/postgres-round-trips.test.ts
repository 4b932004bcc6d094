// Invariant (issue 51, item 4): a settled triage on PostgreSQL makes only the round trips it needs,
// each named here: the SDK's read-back of the task it has just saved is served from the call that
// saved it, not the database, and the message's kept row and its sender's record are one read. Every statement the server's pool sends during one settled triage is
// recorded (the driver's query, as postgres-database.ts counts them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { rfc822Message } from '../support/task-mail.ts';
import { startInProcess, type Host } from './host.ts';

let database: TestDatabase;
let host: Host;
const sent: string[] = [];
let recording = false;
const query = pg.Client.prototype.query;

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver's overloads, passed through
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    if (recording)
      sent.push(String(typeof args[0] === 'string' ? args[0] : args[0]?.text).replace(/\s+/g, ' '));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  };
  database = await createTestDatabase();
  host = await startInProcess({ DATABASE_URL: database.url });
}, 60_000);
afterAll(async () => {
  pg.Client.prototype.query = query;
  await host?.close();
  await database?.drop();
});

describe('round trips of a settled triage on PostgreSQL (issue 51)', () => {
  it('reads back the task it saved without asking the database, and the kept row with the record in one read', async () => {
    const lesson = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'billing@origin\\.example', where: 'from' },
        taughtBy: 'dana@warehouse.example',
      }),
    });
    expect(lesson.status).toBe(200);
    const c = await sdkClient(host.url, host.token!);
    // Warm: the first triage compiles and reads the version; the second is the one counted.
    await send(
      c.client,
      c.opts,
      rfc822Message('billing@origin.example', 'Pre-alert PA-1', 'rt-1@origin.example'),
    );
    recording = true;
    const task = await send(
      c.client,
      c.opts,
      rfc822Message('billing@origin.example', 'Pre-alert PA-2', 'rt-2@origin.example'),
    );
    recording = false;
    expect(task.status?.state).toBeDefined();
    expect(sent.filter((s) => /^select .* from "tasks"/i.test(s))).toEqual([]);
    expect(sent.filter((s) => /^insert into "tasks"/i.test(s))).toHaveLength(1);
    // The kept row and the sender's record are one read.
    expect(sent.filter((s) => /sender_records/.test(s) && !/corpus_messages/.test(s))).toEqual([]);
    // Today: the change counter, the kept row with the record, the corpus write, the delivery check
    // and the task row. Issue 51 asks for 4 (next: the delivery check folded into the task's write).
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(5);
  }, 60_000);
});
