// Invariant (§14, issue 50): an erase while a receiver is down leaves nothing that names the identifier to be delivered once it comes up: no push notification and no delivery webhook carries a non-ASCII name in any case, and a push config whose token names it is gone, while what does not name it is still delivered.
import { randomUUID } from 'node:crypto';
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import { waitFor } from '../support/ingest.ts';
import { sdkClient } from '../support/sdk-client.ts';
import { freePort, startReceiver, type Receiver } from '../support/receiver.ts';
import { startInProcess, type Host } from './host.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
const NAME = 'Sabine Müller-Özkan';
let host: Host | null = null;
let receiver: Receiver | null = null;
afterAll(async () => {
  await host?.close();
  await receiver?.close();
});

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${host!.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host!.token!}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

function mail(from: string, signature: string): string {
  return Buffer.from(
    [
      `From: ${from}`,
      'To: imports@warehouse.example',
      'Subject: Shipment 4410',
      `Message-ID: <owed-${randomUUID()}@mail.example>`,
      'Date: Mon, 7 Sep 2026 09:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Two pallets arrive on Tuesday.',
      '',
      signature,
      '',
    ].join('\r\n'),
  ).toString('base64');
}

async function send(from: string, signature: string, token: string): Promise<Task> {
  const sdk = await sdkClient(host!.url, host!.token!);
  const r = await sdk.client.sendMessage(
    SendMessageRequest.fromJSON({
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ raw: mail(from, signature), mediaType: 'message/rfc822', filename: 'm.eml' }],
      },
      configuration: { taskPushNotificationConfig: { url: `${receiver!.url}/push`, token } },
    }),
    sdk.opts,
  );
  if (!('id' in r)) throw new Error('expected a task');
  return r;
}

describe('§14: an erase reaches the notifications still owed (issue 50)', () => {
  it('delivers nothing naming an erased non-ASCII name once the receiver comes up', async () => {
    const port = await freePort();
    receiver = await startReceiver(port, false); // down
    host = await startInProcess({
      PUSH_NOTIFICATION_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      DELIVERY_RETRY_BASE_MS: '100',
    });
    for (const [collection, entry, value] of [
      ['customers', 'oezkan', { pattern: NAME, where: 'body', label: 'Özkan Spedition' }],
      ['kinds', 'pre-alert', { label: 'Pre-alert' }],
      ['kinds', 'pre-alert', { cue: 'shipment', where: 'subject' }],
    ] as const) {
      const taught = await api('POST', '/authority/v1/lessons', {
        collection,
        entry,
        value,
        taughtBy: 'dana@warehouse.example',
      });
      expect(taught.status, JSON.stringify(taught.body)).toBe(200);
    }
    const hook = await api(
      'POST',
      '/authority/v1/deliveries',
      { url: `${receiver.url}/hook`, events: ['input-required', 'decided'] },
      { 'A2A-Extensions': EXT },
    );
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);

    // Signed in capitals: SQLite's lower() folds ASCII only, which is how this escaped before.
    const signed = await send('ops@oezkan-spedition.example', NAME.toUpperCase(), 'plain-token');
    // A config whose token names her, on a mail that does not.
    const tokened = await send('ops@elsewhere.example', 'Regards, Tom', `for ${NAME}`);
    await waitFor(
      'a failed try of each delivery',
      async () => {
        const list = (await api('GET', '/authority/v1/deliveries')).body as any;
        return (
          list.endpoints[0]?.lastError !== null && list.push.lastError !== null && list.push.pending >= 2
        );
      },
      20_000,
    );

    const erased = await api('POST', '/authority/v1/erase', {
      identifier: NAME,
      taughtBy: 'dana@warehouse.example',
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    const changed = new Map(
      (erased.body!.stores as { store: string; changed: number }[]).map((s) => [s.store, s.changed]),
    );
    expect(changed.get('deliveries owed (push notifications, delivery webhooks)')).toBeGreaterThanOrEqual(2);
    expect(changed.get('push configs and delivery webhooks naming it')).toBe(1);

    await receiver.listen();
    // What does not name her still arrives: the webhook of the second mail.
    await receiver.waitFor((r) => r.path === '/hook' && r.body.includes(tokened.id));
    await waitFor(
      'nothing left pending',
      async () => {
        const list = (await api('GET', '/authority/v1/deliveries')).body as any;
        return list.endpoints[0]?.pending === 0 && list.push.pending === 0;
      },
      20_000,
    );
    // Everything owed for her task named her: none of it arrives.
    expect(receiver.received.filter((r) => r.body.includes(signed.id))).toEqual([]);
    const folded = NAME.toLowerCase();
    for (const r of receiver.received) {
      expect(r.body.toLowerCase()).not.toContain(folded);
      expect(String(r.headers['x-a2a-notification-token'] ?? '').toLowerCase()).not.toContain(folded);
    }
  }, 90_000);
});
