// Invariant (issue 39, §8): every question offers what would settle the next message like it, through the real server and SDK client: a kind's cue is the subject's words without the customer's name, no customer question offers a shipment's reference taken whole, and a colleague's forward is read as the message it forwards.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { sdkClient, send, type SdkClient } from '../support/sdk-client.ts';
import { startInProcess, type Host } from './host.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
let host: Host;
let sdk: SdkClient;

beforeAll(async () => {
  host = await startInProcess();
  sdk = await sdkClient(host.url, host.token!);
  await teach('customers', 'kessler', { label: 'Kessler Feinkost GmbH' });
  await teach('customers', 'kessler', { pattern: 'omar@kessler-feinkost.example', where: 'from' });
  await teach('kinds', 'proof-of-delivery', { label: 'Proof of delivery' });
}, 60_000);
afterAll(async () => {
  await host?.close();
});

async function teach(collection: string, entry: string, value: Record<string, string>): Promise<void> {
  const res = await fetch(`${host.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
    body: JSON.stringify({ collection, entry, value, taughtBy: 'dana@warehouse.example' }),
  });
  expect(res.status, await res.text()).toBe(200);
}

let n = 0;
function triage(from: string, subject: string, body: string): Promise<Task> {
  n++;
  const raw = [
    `From: ${from}`,
    'To: imports@warehouse.example',
    `Subject: ${subject}`,
    `Message-ID: <answers-${n}-${Date.now()}@mail.example>`,
    'Date: Mon, 7 Sep 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
  return send(sdk.client, sdk.opts, {
    parts: [{ raw: Buffer.from(raw).toString('base64'), mediaType: 'message/rfc822', filename: 'm.eml' }],
  });
}

const teachOf = (t: Task): any => (t.status?.message?.metadata as any)?.[EXT]?.teach;
const state = (t: Task): string => TaskState[t.status!.state];

describe('questions that teach (issue 39)', () => {
  it("offers a kind's cue without the customer's name the subject carries, once it recurs (issue 49)", async () => {
    // Two earlier ones, answered as proofs of delivery without teaching.
    for (const ref of ['4401', '4402']) {
      const earlier = await triage(
        'omar@kessler-feinkost.example',
        `Kessler Feinkost GmbH POD ${ref}`,
        'Delivered.',
      );
      expect(teachOf(earlier).collection).toBe('kinds');
      const answered = await send(sdk.client, sdk.opts, {
        taskId: earlier.id,
        parts: [{ data: { entry: 'proof-of-delivery' } }],
      });
      expect(state(answered)).toBe('TASK_STATE_COMPLETED');
    }
    const t = await triage('omar@kessler-feinkost.example', 'Kessler Feinkost GmbH POD 4410', 'Delivered.');
    expect(state(t)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(teachOf(t).collection).toBe('kinds');
    expect(teachOf(t).suggested).toEqual({ cue: 'POD', where: 'subject' });
  });

  it("offers no shipment's reference taken whole, and says why", async () => {
    const t = await triage(
      'ops@unknown-agency.example',
      'Pre-alert ZQX-2026-0412',
      'On behalf of our client, see below.',
    );
    expect(teachOf(t).collection).toBe('customers');
    expect(JSON.stringify(teachOf(t).suggested ?? {})).not.toContain('ZQX-2026-0412');
  });

  it("reads a colleague's forward as the message it forwards", async () => {
    const body = [
      'Can you file this one, please?',
      '',
      '---------- Forwarded message ---------',
      'From: Omar <omar@kessler-feinkost.example>',
      'Date: Mon, 7 Sep 2026 08:00:00 +0000',
      'Subject: Pre-alert 77',
      'To: lena@warehouse.example',
      '',
      'Hello, details for our shipment 77.',
    ].join('\r\n');
    // dana@warehouse.example taught: lena at the same domain is a colleague; an outsider is not.
    const colleague = await triage('lena@warehouse.example', 'FW: Pre-alert 77', body);
    expect(state(colleague)).toBe('TASK_STATE_COMPLETED');
    const data = colleague.artifacts[0]?.parts.find((p) => p.content?.$case === 'data')?.content;
    expect(data?.$case === 'data' ? data.value.customer.winner : null).toBe('kessler');
    const outsider = await triage('ops@other-agency.example', 'FW: Pre-alert 77', body);
    expect(teachOf(outsider)?.collection).toBe('customers');
  });
});
