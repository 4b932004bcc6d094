// Invariant (issue 26, §8, §13.1, stream B): two invoices of one customer that carry numbers of a shared e-invoicing series earn no family for it, and a lesson that would claim the series for another customer is refused naming the two messages already read; the fourth invoice of the series is then not filed under the first customer. Driven through the real @a2a-js/sdk client over HTTP and the authority API.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterEach, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { startChild, startInProcess, type Host } from './host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});

function invoice(number: string, day: number): string {
  return [
    'From: E-Invoice Hub <noreply@einvoice-hub.example>',
    'To: imports@warehouse.example',
    `Subject: Invoice ${number}`,
    `Message-ID: <${number}@einvoice-hub.example>`,
    `Date: Mon, ${String(day).padStart(2, '0')} Sep 2026 09:00:00 +0000`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'A debit note was issued on the platform. Please log in to see it.',
    '',
  ].join('\r\n');
}

const raw = (text: string, name: string) => ({
  parts: [{ raw: Buffer.from(text).toString('base64'), mediaType: 'message/rfc822', filename: name }],
});

function teachOf(task: Task): Record<string, any> | undefined {
  return task.status?.message?.metadata?.[EXTENSION_URI]?.teach as Record<string, any> | undefined;
}

describe('a shared invoice series first seen twice for one customer (issue 26, stream B)', () => {
  it('offers no family, refuses the series for another customer with the two messages named, and files the fourth under nobody', async () => {
    const host = await startInProcess();
    hosts.push(host);
    await playStreamB(host.url, host.token!, host.token!);
  });

  it('does the same with the authority in another process: the agent, which holds the corpus, checks the lesson and forwards it (§12.1)', async () => {
    const authority = await startChild({ ROLE: 'authority' });
    hosts.push(authority);
    const agent = await startChild({ AUTHORITY_URL: authority.url, AUTHORITY_TOKEN: authority.token! });
    hosts.push(agent);
    await playStreamB(agent.url, agent.token!, authority.token!);
    // A token of no tenant here learns nothing of the corpus: refused by the authority first.
    const stranger = await fetch(`${agent.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token' },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'brandt',
        value: { pattern: 'INV-\\d{4}-\\d{6}' },
      }),
    });
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain('INV-2026');
  });
});

/**
 * Stream B against an agent at `agentUrl` (A2A with `agentToken`); lessons are posted to the agent's
 * /authority/v1/lessons with `lessonToken` (in the split topology the agent checks and forwards them).
 */
async function playStreamB(agentUrl: string, agentToken: string, lessonToken: string): Promise<void> {
  const lesson = async (entry: string, value: Record<string, unknown>) =>
    fetch(`${agentUrl}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${lessonToken}` },
      body: JSON.stringify({ collection: 'customers', entry, value, taughtBy: 'dana@warehouse.example' }),
    });
  // A new customer beside the demo directory's Brandt Maschinenbau GmbH.
  expect((await lesson('aljazira', { label: 'Al Jazira Trading WLL' })).status).toBe(200);

  const { client, opts } = await sdkClient(agentUrl, agentToken);
  // Two invoices of Al Jazira's, answered as Al Jazira's by the operator (no lesson).
  for (const [number, day] of [
    ['INV-2026-008920', 7],
    ['INV-2026-009164', 8],
  ] as const) {
    const t = await send(client, opts, raw(invoice(number, day), `${number}.eml`));
    expect(TaskState[t.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await send(client, opts, { taskId: t.id, parts: [{ data: { entry: 'aljazira' } }] });
    expect(TaskState[done.status!.state]).toBe('TASK_STATE_COMPLETED');
  }

  // The third is Brandt's. Two messages prove nothing about a series: no family is offered (§8).
  const third = await send(client, opts, raw(invoice('INV-2026-009301', 9), 'third.eml'));
  expect(TaskState[third.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
  const teach = teachOf(third)!;
  expect(teach.collection).toBe('customers');
  expect(String(teach.suggestionLabel ?? '')).not.toMatch(/references shaped/);

  // The operator types the series for Brandt anyway: refused, with the two messages named (§13.1, §10.1).
  const refused = await lesson('brandt', { pattern: 'INV-\\d{4}-\\d{6}', where: 'subject' });
  expect(refused.status).toBe(422);
  const body = (await refused.json()) as { error: { code: string; message: string; details: any } };
  expect(body.error.code).toBe('LESSON_REFUSED');
  expect(body.error.message).toContain('This would re-file 2 messages already read as Al Jazira Trading WLL');
  expect(body.error.message).toContain("'Invoice INV-2026-008920' on 7 Sep");
  expect(body.error.message).toContain("'Invoice INV-2026-009164' on 8 Sep");
  expect(body.error.details.alreadyRead).toMatchObject({ refiled: 2 });
  await send(client, opts, { taskId: third.id, parts: [{ data: { entry: 'brandt' } }] });

  // The fourth invoice of the series, whoever's it is, is not filed under Al Jazira.
  const fourth = await send(client, opts, raw(invoice('INV-2026-009550', 10), 'fourth.eml'));
  const report = fourth.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  const customer = report?.content?.$case === 'data' ? report.content.value.customer : undefined;
  expect(customer?.winner ?? null).not.toBe('aljazira');
  expect(TaskState[fourth.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
}
