// Invariant (issue 40): an A2A client that names a push URL hears, through the real server and SDK client, that its task waits for input (with its token, and the teach block only if it activated the extension, §7) and that it ended; a URL that would reach this machine or a private network is refused, in words, unless its host is allowed.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { sdkClient, type SdkClient } from '../support/sdk-client.ts';
import { startReceiver, type Received, type Receiver } from '../support/receiver.ts';
import { startInProcess, type Host } from './host.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
let host: Host;
let receiver: Receiver;
let sdk: SdkClient;
let plainSdk: SdkClient;

beforeAll(async () => {
  receiver = await startReceiver();
  host = await startInProcess({
    PUSH_NOTIFICATION_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
    DELIVERY_RETRY_BASE_MS: '50',
  });
  sdk = await sdkClient(host.url, host.token!);
  plainSdk = await sdkClient(host.url, host.token!, { activate: false });
  await teach('customers', 'kessler', { label: 'Kessler Feinkost GmbH' });
  await teach('kinds', 'pre-alert', { label: 'Pre-alert' });
  await teach('kinds', 'pre-alert', { cue: 'pre-alert', where: 'subject' });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await receiver?.close();
});

async function teach(collection: string, entry: string, value: Record<string, string>): Promise<void> {
  const res = await fetch(`${host.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
    body: JSON.stringify({ collection, entry, value, taughtBy: 'dana@warehouse.example' }),
  });
  expect(res.status, await res.text()).toBe(200);
}

function mail(from: string): string {
  return Buffer.from(
    [
      `From: ${from}`,
      'To: imports@warehouse.example',
      'Subject: Pre-alert 4410',
      `Message-ID: <push-${randomUUID()}@mail.example>`,
      'Date: Mon, 7 Sep 2026 09:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Two pallets arrive on Tuesday.',
      '',
    ].join('\r\n'),
  ).toString('base64');
}

/** SendMessage with the push config inline (`configuration.taskPushNotificationConfig`). */
async function sendWithPush(
  client: SdkClient,
  message: Record<string, unknown>,
  push?: Record<string, unknown>,
): Promise<Task> {
  const r = await client.client.sendMessage(
    SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', ...message },
      ...(push === undefined ? {} : { configuration: { taskPushNotificationConfig: push } }),
    }),
    client.opts,
  );
  if (!('id' in r)) throw new Error('expected a task');
  return r;
}

const pushedTask = (r: Received): any => JSON.parse(r.body).task;
const forTask = (id: string, state: string) => (r: Received) =>
  r.path === '/push' && pushedTask(r)?.id === id && pushedTask(r)?.status?.state === state;
const state = (t: Task): string => TaskState[t.status!.state];

describe('A2A push notifications (issue 40)', () => {
  it('tells a client that activated of the question (with its token and the teach block), then of the end', async () => {
    const token = `tok-${randomUUID()}`;
    const asked = await sendWithPush(
      sdk,
      { parts: [{ raw: mail('ops@new-forwarder.example'), mediaType: 'message/rfc822', filename: 'm.eml' }] },
      { url: `${receiver.url}/push`, token },
    );
    expect(state(asked)).toBe('TASK_STATE_INPUT_REQUIRED');
    const question = await receiver.waitFor(forTask(asked.id, 'TASK_STATE_INPUT_REQUIRED'));
    expect(question.headers['x-a2a-notification-token']).toBe(token);
    expect(question.headers['content-type']).toContain('application/a2a+json');
    const id = question.headers['x-a2a-notification-id'];
    expect(typeof id).toBe('string');
    const body = pushedTask(question);
    expect(body.status.message.metadata[EXT].teach.collection).toBe('customers');
    // The mail itself does not travel: history is left out.
    expect(body.history ?? []).toEqual([]);

    const answered = await sendWithPush(sdk, { taskId: asked.id, parts: [{ data: { entry: 'kessler' } }] });
    expect(state(answered)).toBe('TASK_STATE_COMPLETED');
    const ended = await receiver.waitFor(forTask(asked.id, 'TASK_STATE_COMPLETED'));
    expect(ended.headers['x-a2a-notification-token']).toBe(token);
    expect(ended.headers['x-a2a-notification-id']).not.toBe(id);
    expect(pushedTask(ended).artifacts.length).toBeGreaterThan(0);
  });

  it('§7: sends no teach block to a config created without the extension activated', async () => {
    const asked = await sendWithPush(
      plainSdk,
      {
        parts: [{ raw: mail('ops@other-forwarder.example'), mediaType: 'message/rfc822', filename: 'm.eml' }],
      },
      { url: `${receiver.url}/push`, token: 'plain' },
    );
    const question = await receiver.waitFor(forTask(asked.id, 'TASK_STATE_INPUT_REQUIRED'));
    expect(question.body).not.toContain('"teach"');
    expect(pushedTask(question).status.message).toBeDefined();
  });

  it('creates, reads, lists and deletes a config for an existing task, sending Authorization when given', async () => {
    const asked = await sendWithPush(sdk, {
      parts: [{ raw: mail('ops@third-forwarder.example'), mediaType: 'message/rfc822', filename: 'm.eml' }],
    });
    const created = await sdk.client.createTaskPushNotificationConfig(
      {
        tenant: '',
        id: '',
        taskId: asked.id,
        url: `${receiver.url}/push`,
        token: '',
        authentication: { scheme: 'Bearer', credentials: 'receiver-secret' },
      },
      sdk.opts,
    );
    expect(created.id).not.toBe('');
    const got = await sdk.client.getTaskPushNotificationConfig(
      { tenant: '', taskId: asked.id, id: created.id },
      sdk.opts,
    );
    expect(got.url).toBe(`${receiver.url}/push`);
    const listed = await sdk.client.listTaskPushNotificationConfig(
      { tenant: '', taskId: asked.id, pageSize: 0, pageToken: '' },
      sdk.opts,
    );
    expect(listed.configs.map((c) => c.id)).toEqual([created.id]);

    await sendWithPush(sdk, { taskId: asked.id, parts: [{ data: { entry: 'kessler' } }] });
    const ended = await receiver.waitFor(forTask(asked.id, 'TASK_STATE_COMPLETED'));
    expect(ended.headers.authorization).toBe('Bearer receiver-secret');

    await sdk.client.deleteTaskPushNotificationConfig(
      { tenant: '', taskId: asked.id, id: created.id },
      sdk.opts,
    );
    const after = await sdk.client.listTaskPushNotificationConfig(
      { tenant: '', taskId: asked.id, pageSize: 0, pageToken: '' },
      sdk.opts,
    );
    expect(after.configs).toEqual([]);
  });

  it('answers a config the task does not have as a malformed request naming it, not TASK_NOT_FOUND (issue 50)', async () => {
    const asked = await sendWithPush(sdk, {
      parts: [{ raw: mail('ops@fourth-forwarder.example'), mediaType: 'message/rfc822', filename: 'm.eml' }],
    });
    const error = await sdk.client
      .getTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'no-such-config' }, sdk.opts)
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toContain(
      `Task ${asked.id} has no push notification config with id 'no-such-config'`,
    );
    expect(error).not.toBeInstanceOf(TaskNotFoundError);
    expect(error).toBeInstanceOf(RequestMalformedError);
    // A task that does not exist is still TASK_NOT_FOUND.
    const gone = await sdk.client
      .getTaskPushNotificationConfig({ tenant: '', taskId: randomUUID(), id: 'x' }, sdk.opts)
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(gone).toBeInstanceOf(TaskNotFoundError);
  });

  it.each([
    ['http://127.0.0.1:1/hook', /must be https .*PUSH_NOTIFICATION_ALLOWED_HOSTS/],
    ['https://127.0.0.1/hook', /loopback address.*PUSH_NOTIFICATION_ALLOWED_HOSTS/],
    // A name, resolved: localhost is loopback.
    ['https://localhost/hook', /(127\.0\.0\.1|::1), a loopback address.*PUSH_NOTIFICATION_ALLOWED_HOSTS/],
    ['https://10.20.30.40/hook', /private address/],
    ['https://169.254.169.254/latest/meta-data', /linkLocal address/],
    ['https://[::1]/hook', /loopback address/],
    ['https://user:pw@example.com/hook', /carries credentials; pass them as the config's authentication/],
  ])('refuses the push URL %s, in words naming the rule', async (url, rule) => {
    const error = await sendWithPush(
      sdk,
      { parts: [{ raw: mail('ops@refused.example'), mediaType: 'message/rfc822', filename: 'm.eml' }] },
      { url, token: 't' },
    ).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(rule);
  });
});
