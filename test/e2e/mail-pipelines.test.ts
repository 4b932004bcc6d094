// Invariant: configured only through the environment (MAILBOXES, INBOUND_WEBHOOKS), the real server triages mail from a real Dovecot mailbox and from inbound webhooks into ordinary A2A tasks, once per message however many paths or retries bring it.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { waitFor } from '../support/ingest.ts';
import { mailPipelineEnv, startInProcess, type Host } from './host.ts';

const TOKEN = 'e2e-inbound-token-5f0c1d2e';
const MG = JSON.parse(
  readFileSync(new URL('../../fixtures/webhooks/mailgun-route.json', import.meta.url), 'utf8'),
) as {
  _signingKey: string;
  fields: Record<string, string>;
};
const POSTMARK = readFileSync(
  new URL('../../fixtures/webhooks/postmark-inbound.json', import.meta.url),
  'utf8',
);
const EML = readFileSync(new URL('../../fixtures/webhooks/prealert.eml', import.meta.url), 'utf8');

let dovecot: Dovecot;
let host: Host;

beforeAll(async () => {
  dovecot = await startDovecot();
  host = await startInProcess(
    mailPipelineEnv(dovecot, { mailbox: 'e2e', inboundToken: TOKEN, mailgunSigningKey: MG._signingKey }),
  );
});
afterAll(async () => {
  await host?.close();
  await dovecot?.dispose();
});

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(`${host.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${host.token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

function messagesIn(status: false | { messages?: number }): number | undefined {
  return status === false ? undefined : status.messages;
}

async function tasks(): Promise<any[]> {
  const listed = await rpc('ListTasks', { pageSize: 100 });
  return listed.result?.tasks ?? [];
}

describe('mail pipelines on the real server', () => {
  it('triages a Postmark post once, answers its retry with the same task, and refuses a forged Mailgun post with 406', async () => {
    const post = (): Promise<Response> =>
      fetch(`${host.url}/inbound/v1/postmark/${TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: POSTMARK,
      });
    const first = await post();
    expect(first.status).toBe(200);
    const a = (await first.json()) as { status: string; taskId: string };
    expect(a.status).toBe('accepted');
    const retry = (await (await post()).json()) as { status: string; taskId: string };
    expect(retry).toMatchObject({ status: 'duplicate', taskId: a.taskId });
    const task = await rpc('GetTask', { id: a.taskId });
    expect(task.result.id).toBe(a.taskId);

    const forged = await fetch(`${host.url}/inbound/v1/mailgun/${TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...MG.fields, signature: '0'.repeat(64) }).toString(),
    });
    expect(forged.status).toBe(406);
  });

  it('does not triage again the same mail delivered to the mailbox after a webhook brought it', async () => {
    const before = (await tasks()).length;
    const c = await dovecot.client();
    await c.append('INBOX', EML); // the pre-alert the Postmark post already carried
    await c.append('INBOX', EML.replace('prealert-0001', 'prealert-0002'));
    await c.logout();
    await waitFor('one new task', async () => (await tasks()).length === before + 1);
    const m = await dovecot.client();
    await waitFor(
      'the inbox to empty',
      async () => messagesIn(await m.status('INBOX', { messages: true })) === 0,
    );
    expect(messagesIn(await m.status('Processed', { messages: true }))).toBe(2);
    await m.logout();
    expect((await tasks()).length).toBe(before + 1);
  });
});
