// Invariant (issue 40): against a real Dovecot, a mailbox with `fileBy` files each triaged message in a folder named by the label of what it was read as (created when missing), a message that asks waits in the questions folder, and it moves to its folder once its question is answered over A2A.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImapFlow } from 'imapflow';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { waitFor } from '../support/ingest.ts';
import { mailPipelineEnv, startInProcess, type Host } from './host.ts';

let dovecot: Dovecot;
let host: Host;

beforeAll(async () => {
  dovecot = await startDovecot();
  const env = mailPipelineEnv(dovecot, {
    mailbox: 'filing',
    inboundToken: 'e2e-inbound-token-filing-0001',
    mailgunSigningKey: 'key-filing',
  });
  const [mailbox] = JSON.parse(env.MAILBOXES!) as Record<string, unknown>[];
  const setup = await dovecot.client();
  await setup.mailboxCreate('Marked');
  await setup.logout();
  env.MAILBOXES = JSON.stringify([
    { ...mailbox, fileBy: 'Customers/{customer}', pollIntervalMs: 1000 },
    // Issue 50: the same filing as IMAP keywords, the message left where it came.
    {
      ...mailbox,
      name: 'marking',
      folder: 'Marked',
      fileBy: 'Customers/{customer}',
      fileAs: 'keywords',
      pollIntervalMs: 1000,
    },
  ]);
  host = await startInProcess(env);
  for (const [collection, entry, value] of [
    ['customers', 'kessler', { label: 'Kessler Feinkost GmbH' }],
    ['customers', 'kessler', { pattern: 'omar@kessler-feinkost.example', where: 'from' }],
    ['customers', 'northgate', { label: 'Northgate Motors Ltd' }],
    ['customers', 'northgate', { pattern: 'billing@northgate.example', where: 'from' }],
    ['kinds', 'pre-alert', { label: 'Pre-alert' }],
    ['kinds', 'pre-alert', { cue: 'pre-alert', where: 'subject' }],
  ] as const) {
    const res = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
      body: JSON.stringify({ collection, entry, value, taughtBy: 'dana@warehouse.example' }),
    });
    expect(res.status, await res.text()).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await host?.close();
  await dovecot?.dispose();
});

function eml(from: string): string {
  return [
    `From: ${from}`,
    'To: imports@warehouse.example',
    'Subject: Pre-alert 5521',
    `Message-ID: <filing-${randomUUID()}@mail.example>`,
    'Date: Mon, 7 Sep 2026 09:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Two pallets on Tuesday.',
    '',
  ].join('\r\n');
}

/** Messages per folder, by the folder's path written with "/" whatever the server's separator. */
async function folders(c: ImapFlow): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const box of await c.list({ statusQuery: { messages: true } }))
    out.set(box.path.split(box.delimiter).join('/'), box.status?.messages ?? 0);
  return out;
}

/** The keywords of each message in a folder, by sender address. */
async function keywords(c: ImapFlow, path: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const lock = await c.getMailboxLock(path);
  try {
    if (c.mailbox !== false && c.mailbox.exists > 0)
      for await (const m of c.fetch('1:*', { envelope: true, flags: true }))
        out.set(
          m.envelope?.from?.[0]?.address ?? '',
          [...(m.flags ?? [])].filter((f) => f.startsWith('$')).sort(),
        );
  } finally {
    lock.release();
  }
  return out;
}

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(`${host.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${host.token!}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

/** Answers the one question waiting (over A2A) with `entry`; the task completes. */
async function answerTheOneQuestion(entry: string): Promise<void> {
  const waiting = (await rpc('ListTasks', { pageSize: 100, status: 'TASK_STATE_INPUT_REQUIRED' })).result
    .tasks;
  expect(waiting).toHaveLength(1);
  const answered = await rpc('SendMessage', {
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      taskId: waiting[0].id,
      parts: [{ data: { entry } }],
    },
  });
  expect(answered.result.task.status.state).toBe('TASK_STATE_COMPLETED');
}

describe('mail filed where it came from (issue 40)', () => {
  it('files by customer, parks the question, and moves it once answered', async () => {
    const c = await dovecot.client();
    await c.append('INBOX', eml('Omar <omar@kessler-feinkost.example>'));
    await c.append('INBOX', eml('Billing <billing@northgate.example>'));
    await c.append('INBOX', eml('Ops <ops@unseen-forwarder.example>'));
    await waitFor('three messages filed', async () => {
      const f = await folders(c);
      return (
        f.get('INBOX') === 0 &&
        f.get('Customers/Kessler Feinkost GmbH') === 1 &&
        f.get('Customers/Northgate Motors Ltd') === 1 &&
        f.get('Questions') === 1
      );
    });

    await answerTheOneQuestion('kessler');
    await waitFor('the answered message to move', async () => {
      const f = await folders(c);
      return f.get('Questions') === 0 && f.get('Customers/Kessler Feinkost GmbH') === 2;
    });
    await c.logout();
  }, 60_000);

  it('marks with IMAP keywords instead, leaves each message where it came, and re-marks the answered one (issue 50)', async () => {
    const c = await dovecot.client();
    await c.append('Marked', eml('Omar <omar@kessler-feinkost.example>'));
    await c.append('Marked', eml('Ops <ops@another-forwarder.example>'));
    await waitFor('two messages marked', async () => {
      const k = await keywords(c, 'Marked');
      return (
        k.get('omar@kessler-feinkost.example')?.join() === '$Customers/Kessler_Feinkost_GmbH' &&
        k.get('ops@another-forwarder.example')?.join() === '$Questions'
      );
    });
    const f = await folders(c);
    expect(f.get('Marked')).toBe(2);
    expect(f.get('Questions')).toBe(0); // the question of the first test went; nothing of this mailbox moved

    await answerTheOneQuestion('northgate');
    await waitFor('the answered message re-marked', async () => {
      const k = await keywords(c, 'Marked');
      return k.get('ops@another-forwarder.example')?.join() === '$Customers/Northgate_Motors_Ltd';
    });
    expect((await folders(c)).get('Marked')).toBe(2);
    await c.logout();
  }, 60_000);
});
