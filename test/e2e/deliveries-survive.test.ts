// Invariant (issue 40): what a task owes is written with its state and survives the receiver being down and the server being SIGKILLed: after a restart every push notification and signed delivery webhook arrives, at least once, each with an id that stays the same across retries; a tenant's delivery webhook verifies with the standardwebhooks library.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import { waitFor } from '../support/ingest.ts';
import { sdkClient } from '../support/sdk-client.ts';
import { freePort, startReceiver, type Received, type Receiver } from '../support/receiver.ts';
import { startChild, type ChildHost } from './host.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
const hosts: ChildHost[] = [];
let receiver: Receiver | null = null;
afterAll(async () => {
  for (const h of hosts.reverse()) await h.close().catch(() => {});
  await receiver?.close();
});

async function api(
  host: ChildHost,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${host.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

function mail(): string {
  return Buffer.from(
    [
      'From: ops@unseen-forwarder.example',
      'To: imports@warehouse.example',
      'Subject: Pre-alert 8812',
      `Message-ID: <survive-${randomUUID()}@mail.example>`,
      'Date: Mon, 7 Sep 2026 09:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Three pallets on Thursday.',
      '',
    ].join('\r\n'),
  ).toString('base64');
}

async function send(
  host: ChildHost,
  message: Record<string, unknown>,
  push?: Record<string, unknown>,
): Promise<Task> {
  const sdk = await sdkClient(host.url, host.token!);
  const r = await sdk.client.sendMessage(
    SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', ...message },
      ...(push === undefined ? {} : { configuration: { taskPushNotificationConfig: push } }),
    }),
    sdk.opts,
  );
  if (!('id' in r)) throw new Error('expected a task');
  return r;
}

const isPush = (taskId: string, state: string) => (r: Received) =>
  r.path === '/push' &&
  JSON.parse(r.body).task?.id === taskId &&
  JSON.parse(r.body).task?.status?.state === state;
const isHook = (taskId: string, type: string) => (r: Received) =>
  r.path === '/hook' && JSON.parse(r.body).type === type && JSON.parse(r.body).data?.task?.id === taskId;

describe('deliveries survive a dead receiver and a SIGKILL (issue 40)', () => {
  it('sends every push notification and signed webhook after a restart, with ids', async () => {
    const port = await freePort();
    receiver = await startReceiver(port, false); // down
    const env = {
      PUSH_NOTIFICATION_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      DELIVERY_RETRY_BASE_MS: '100',
      LOG_LEVEL: 'silent',
    };
    const first = await startChild(env);
    hosts.push(first);
    for (const [collection, entry, value] of [
      ['customers', 'kessler', { label: 'Kessler Feinkost GmbH' }],
      ['kinds', 'pre-alert', { label: 'Pre-alert' }],
      ['kinds', 'pre-alert', { cue: 'pre-alert', where: 'subject' }],
    ] as const) {
      const r = await api(first, 'POST', '/authority/v1/lessons', {
        collection,
        entry,
        value,
        taughtBy: 'dana@warehouse.example',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const endpoint = await api(
      first,
      'POST',
      '/authority/v1/deliveries',
      { url: `${receiver.url}/hook`, events: ['input-required', 'decided'] },
      { 'A2A-Extensions': EXT },
    );
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    expect(endpoint.body.teachBlocks).toBe(true);

    const asked = await send(
      first,
      { parts: [{ raw: mail(), mediaType: 'message/rfc822', filename: 'm.eml' }] },
      {
        url: `${receiver.url}/push`,
        token: 'survivor',
      },
    );
    // Both deliveries have been tried and failed (the receiver is down): the console's numbers say so.
    await waitFor(
      'a failed try of each delivery',
      async () => {
        const list = (await api(first, 'GET', '/authority/v1/deliveries')).body;
        return (
          list.endpoints[0]?.pending === 1 &&
          list.endpoints[0]?.lastError !== null &&
          list.push.lastError !== null
        );
      },
      20_000,
    );
    await first.crash();

    await receiver.listen();
    const second = await startChild({ ...env, DATA_DIR: first.dataDir });
    hosts.push(second);
    const push = await receiver.waitFor(isPush(asked.id, 'TASK_STATE_INPUT_REQUIRED'));
    expect(push.headers['x-a2a-notification-token']).toBe('survivor');
    expect(push.headers['x-a2a-notification-id']).toBeTruthy();
    const hook = await receiver.waitFor(isHook(asked.id, 'task.input_required'));
    // Standard Webhooks: the receiver's own library verifies it; a changed byte does not.
    const verified = new Webhook(endpoint.body.secret).verify(
      hook.body,
      hook.headers as Record<string, string>,
    ) as any;
    expect(verified.data.task.status.message.metadata[EXT].teach.collection).toBe('customers');
    expect(() =>
      new Webhook(endpoint.body.secret).verify(
        hook.body.replace('customers', 'kustomers'),
        hook.headers as Record<string, string>,
      ),
    ).toThrow();

    // The answer, to the restarted server: the end is delivered too.
    await send(second, { taskId: asked.id, parts: [{ data: { entry: 'kessler' } }] });
    const ended = await receiver.waitFor(isPush(asked.id, 'TASK_STATE_COMPLETED'));
    const decided = await receiver.waitFor(isHook(asked.id, 'task.decided'));
    new Webhook(endpoint.body.secret).verify(decided.body, decided.headers as Record<string, string>);
    const ids = new Set(
      [push, hook, ended, decided].map((r) => r.headers['x-a2a-notification-id'] ?? r.headers['webhook-id']),
    );
    expect(ids.size).toBe(4);
    await waitFor(
      'every delivery counted delivered',
      async () => {
        const list = (await api(second, 'GET', '/authority/v1/deliveries')).body;
        return list.endpoints[0]?.delivered === 2 && list.push.delivered === 2 && list.push.pending === 0;
      },
      20_000,
    );
  }, 90_000);
});
