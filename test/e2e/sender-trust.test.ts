// Invariant (issue 38, §13.1): a sender's address proves a customer only as far as it has earned. A from-line mark matches the address, never the display name a sender chooses, on every ingress path (A2A raw and data parts, the rfc822 webhook, IMAP); and an address taught for one customer whose mail a person answered as another no longer settles alone: the next mail asks, naming both.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { sdkClient, send, type SdkClient } from '../support/sdk-client.ts';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { waitFor } from '../support/ingest.ts';
import { jsonRpc } from '../support/calls.ts';
import { mailPipelineEnv, startInProcess, type Host } from './host.ts';

const INBOUND = 'e2e-sender-trust-7c1d';
const TAUGHT = 'billing@origin.example';

let dovecot: Dovecot;
let host: Host;
let sdk: SdkClient;

beforeAll(async () => {
  dovecot = await startDovecot();
  host = await startInProcess(
    mailPipelineEnv(dovecot, { mailbox: 'trust', inboundToken: INBOUND, mailgunSigningKey: 'unused-key' }),
  );
  sdk = await sdkClient(host.url, host.token!);
  await teach('northgate', { pattern: TAUGHT, where: 'from' });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await dovecot?.dispose();
});

async function teach(entry: string, value: Record<string, string>): Promise<void> {
  const res = await fetch(`${host.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
    body: JSON.stringify({ collection: 'customers', entry, value, taughtBy: 'dana@warehouse.example' }),
  });
  expect(res.status, await res.text()).toBe(200);
}

let n = 0;
function eml(from: string, subject = 'Pre-alert'): string {
  n++;
  return [
    `From: ${from}`,
    'To: imports@warehouse.example',
    `Subject: ${subject} ${n}`,
    `Message-ID: <trust-${n}-${Date.now()}@mail.example>`,
    'Date: Mon, 17 Aug 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the shipment details attached. Regards.',
    '',
  ].join('\r\n');
}

/** The collection the task's question is about (its teach block's). */
const askedAbout = (t: Task): string | undefined =>
  (t.status?.message?.metadata as any)?.['https://rsaxb.com/a2a/learnables/v1']?.teach?.collection;
/** What the agent said in the task's status message. */
function said(t: Task): string {
  const part = t.status?.message?.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : '';
}
const state = (t: Task): string => TaskState[t.status!.state];

function rpc(method: string, params: unknown): Promise<any> {
  return jsonRpc(host.url, host.token!, method, params);
}

async function viaRaw(from: string): Promise<Task> {
  const raw = Buffer.from(eml(from)).toString('base64');
  return send(sdk.client, sdk.opts, { parts: [{ raw, mediaType: 'message/rfc822', filename: 'm.eml' }] });
}

async function viaData(from: unknown): Promise<Task> {
  n++;
  return send(sdk.client, sdk.opts, {
    parts: [{ data: { from, subject: `Pre-alert d${n}`, body: 'Please find the details attached.' } }],
  });
}

async function viaWebhook(from: string): Promise<any> {
  const res = await fetch(`${host.url}/inbound/v1/rfc822/${INBOUND}`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822' },
    body: eml(from),
  });
  expect(res.status).toBe(200);
  const { taskId } = (await res.json()) as { taskId: string };
  return (await rpc('GetTask', { id: taskId })).result;
}

const SPOOFS = [
  `"${TAUGHT}>" <attacker@evil.test>`,
  `"${TAUGHT}" <attacker@evil.test>`,
  `"<${TAUGHT}>" <attacker@evil.test>`,
  `"ops@origin.example>" <attacker@evil.test>`,
];

describe('from-line marks match the address, never the display name (issue 38)', () => {
  it('through A2A raw mail and data parts: spoofs ask, the real address still settles', async () => {
    for (const from of SPOOFS) {
      const t = await viaRaw(from);
      expect(state(t), from).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(askedAbout(t), from).toBe('customers');
    }
    for (const name of [`${TAUGHT}>`, TAUGHT, `<${TAUGHT}>`]) {
      const t = await viaData({ name, address: 'attacker@evil.test' });
      expect(state(t), name).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(askedAbout(t), name).toBe('customers');
    }
    const real = await viaRaw(`"${TAUGHT}>" <${TAUGHT}>`);
    expect(state(real)).toBe('TASK_STATE_COMPLETED');
    expect(said(real)).toContain('Reads as Northgate Motors Ltd, on billing@origin.example');
    const realData = await viaData(`Origin Billing <${TAUGHT}>`);
    expect(state(realData)).toBe('TASK_STATE_COMPLETED');
  });

  it('through the rfc822 webhook and IMAP the same way', async () => {
    for (const from of SPOOFS.slice(0, 2)) {
      const t = await viaWebhook(from);
      expect(t.status.state, from).toBe('TASK_STATE_INPUT_REQUIRED');
    }
    expect((await viaWebhook(`Origin Billing <${TAUGHT}>`)).status.state).toBe('TASK_STATE_COMPLETED');

    const before = ((await rpc('ListTasks', { pageSize: 100 })).result.tasks as any[]).map((t) => t.id);
    const c = await dovecot.client();
    await c.append('INBOX', eml(SPOOFS[0]!, 'Pre-alert imap-spoof'));
    await c.append('INBOX', eml(`Origin Billing <${TAUGHT}>`, 'Pre-alert imap-real'));
    await c.logout();
    let fresh: any[] = [];
    await waitFor('two IMAP tasks', async () => {
      const all = (await rpc('ListTasks', { pageSize: 100 })).result.tasks as any[];
      fresh = all.filter((t) => !before.includes(t.id));
      return fresh.length === 2;
    });
    // The mail a task read: its first history message's raw part.
    const mailOf = async (id: string): Promise<string> => {
      const task = (await rpc('GetTask', { id, historyLength: 10 })).result;
      const raw = task.history[0].parts.find((p: any) => typeof p.raw === 'string').raw as string;
      return Buffer.from(raw, 'base64').toString('utf8');
    };
    const states = new Map<string, string>();
    for (const t of fresh)
      states.set((await mailOf(t.id)).includes('Pre-alert imap-spoof') ? 'spoof' : 'real', t.status.state);
    expect(states.get('spoof')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(states.get('real')).toBe('TASK_STATE_COMPLETED');
  });
});

describe('an address proves a customer only while it has written for that one customer (issue 38)', () => {
  const FORWARDER = 'desk@fwd-cargo.example';

  it('asks, naming both, once mail from a taught address was answered as another customer', async () => {
    await teach('northgate', { pattern: FORWARDER, where: 'from' });
    const alone = (): Promise<Task> => viaRaw(`Forwarding Desk <${FORWARDER}>`);
    // Before: the address settles alone.
    expect(said(await alone())).toContain('Reads as Northgate Motors Ltd');

    // Its next mail names Al Hamra Trading: that objects (issue 14), and a person answers Al Hamra.
    const raw = Buffer.from(
      eml(`Forwarding Desk <${FORWARDER}>`).replace(
        'Please find',
        'For our client Al Hamra Trading, please find',
      ),
    ).toString('base64');
    const asked = await send(sdk.client, sdk.opts, {
      parts: [{ raw, mediaType: 'message/rfc822', filename: 'm.eml' }],
    });
    expect(askedAbout(asked)).toBe('customers');
    const answered = await send(sdk.client, sdk.opts, {
      taskId: asked.id,
      parts: [{ data: { entry: 'alhamra' } }],
    });
    expect(state(answered)).toBe('TASK_STATE_COMPLETED');

    // After: the address alone no longer settles; the question names both and the way back.
    const next = await alone();
    expect(state(next)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(askedAbout(next)).toBe('customers');
    const question = said(next);
    expect(question).toContain('Northgate Motors Ltd matches only on the sender');
    expect(question).toContain(
      `mail from ${FORWARDER} was already read or answered as Al Hamra Trading (1 message`,
    );
    expect(question).toMatch(/revert activation \d+/);

    // Show-back says the same of the message (recheck_message, §11): unsettled, and why.
    const shown = await send(sdk.client, sdk.opts, { parts: [{ data: { recheck: { taskId: next.id } } }] });
    const part = shown.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
    const report = part?.content?.$case === 'data' ? part.content.value.customer : undefined;
    expect(report?.settled).toBe(false);
    expect(report?.reads).toContain('Al Hamra Trading (1 message');

    // The senders view (GET /authority/v1/senders) says the same, with the lesson to take back.
    const view: any = await (
      await fetch(`${host.url}/authority/v1/senders?collection=customers`, {
        headers: { authorization: `Bearer ${host.token!}` },
      })
    ).json();
    const row = view.senders.find((x: any) => x.sender === FORWARDER);
    expect(row.readAs.map((r: any) => r.label).sort()).toEqual(['Al Hamra Trading', 'Northgate Motors Ltd']);
    expect(row.settlesAlone).toBe(false);
    expect(row.reads).toContain('it writes for more than one customer');
    expect(row.lessons).toHaveLength(1);
    expect(row.lessons[0]).toMatchObject({
      entry: 'northgate',
      taughtBy: 'dana@warehouse.example, via demo-operator',
    });
    const billing = view.senders.find((x: any) => x.sender === TAUGHT);
    expect(billing.settlesAlone).toBe(true);
  });
});
