// Invariant (issue 50, item 6): on PostgreSQL a delivery owed by another process's commit wakes this
// replica's dispatcher by notice (migration 016), not on its next poll: the poll is set beyond the
// test's patience (DELIVERY_POLL_MS), so only the notice can deliver it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { waitFor } from '../support/ingest.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { freePort, startReceiver, type Receiver } from '../support/receiver.ts';
import { startInProcess, type Host } from './host.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
let database: TestDatabase;
let receiver: Receiver;
let host: Host;

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  receiver = await startReceiver(port);
  host = await startInProcess({
    DATABASE_URL: database.url,
    PUSH_NOTIFICATION_ALLOWED_HOSTS: `127.0.0.1:${port}`,
    DELIVERY_POLL_MS: '600000',
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await receiver?.close();
  await database?.drop();
});

describe('a delivery another replica owes (PostgreSQL)', () => {
  it('is sent at once by this replica, woken by the notice of the commit', async () => {
    const res = await fetch(`${host.url}/authority/v1/deliveries`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${host.token!}`,
        'A2A-Extensions': EXT,
      },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['input-required'] }),
    });
    const endpoint = (await res.json()) as { id: string };
    expect(res.status).toBe(201);
    // Let the start-up round pass: from here on only a kick or the (10-minute) poll reads the outbox.
    await new Promise((r) => setTimeout(r, 500));

    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query(
        `insert into delivery_outbox (id, tenant, target_kind, target_id, task_id, event, body, state, attempts, due_ms, created_at)
         values ($1, 'demo', 'webhook', $2, 'task-elsewhere', 'input-required', $3, 'pending', 0, $4, $5)`,
        [
          'owed-elsewhere-1',
          endpoint.id,
          JSON.stringify({ type: 'task.input-required', data: { task: { id: 'task-elsewhere' } } }),
          Date.now(),
          new Date().toISOString(),
        ],
      );
    } finally {
      await other.end();
    }
    const got = await waitFor(
      'the delivery owed elsewhere',
      () => receiver.received.find((r) => r.path === '/hook' && r.body.includes('task-elsewhere')),
      20_000,
    );
    expect(JSON.parse(got.body).data.task.id).toBe('task-elsewhere');
  }, 60_000);
});
