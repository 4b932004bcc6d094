// Invariant (issue 16): past the admission bounds (messages read at once, request bytes in flight) A2A answers 503 with Retry-After and a sentence in its transport's own shape (JSON-RPC error on JSON-RPC, REST error on REST), the webhooks answer 503 with Retry-After for their providers to retry, nothing is stored for a refused call, and every admitted message still completes.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Permit } from '../../src/admission/admission.ts';
import { loadConfig } from '../../src/config/config.ts';
import { compose, type Composition } from '../../src/main.ts';
import { tempDataDir } from '../e2e/host.ts';
import { sdkClient } from '../support/sdk-client.ts';

const INBOUND = 'tok-admission-0123456789';
const running: { c: Composition; remove(): void }[] = [];
afterEach(async () => {
  while (running.length > 0) {
    const r = running.pop()!;
    await r.c.close();
    r.remove();
  }
});

async function start(env: Record<string, string>): Promise<{ c: Composition; url: string; token: string }> {
  const data = tempDataDir();
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: data.dir,
    INBOUND_WEBHOOKS: JSON.stringify([{ tenant: 'demo', tokenEnv: 'ADM_INBOUND' }]),
    ADM_INBOUND: INBOUND,
    ADMISSION_QUEUE_MS: '100',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const c = await compose(config, { announce: () => {} });
  running.push({ c, remove: data.remove });
  const { localUrl } = await c.server.listen(0, '127.0.0.1');
  return { c, url: localUrl, token: c.demoToken! };
}

let seq = 0;
function mail(): string {
  seq += 1;
  return `From: billing${seq}@origin-${seq}.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert ${seq}\r\nMessage-ID: <${randomUUID()}@origin.example>\r\n\r\nShipment details below.\r\n`;
}
const mailPart = (text: string) => ({
  raw: Buffer.from(text).toString('base64'),
  mediaType: 'message/rfc822',
  filename: 'mail.eml',
});
const sendParams = () => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [mailPart(mail())] },
});
const headers = (token: string) => ({
  'content-type': 'application/json',
  'a2a-version': '1.0',
  authorization: `Bearer ${token}`,
});

function holdAllSlots(c: Composition): Permit[] {
  const held: Permit[] = [];
  for (let i = 0; i < 64; i++) {
    const p = c.admission.tryAdmit({ bytes: 0, message: true });
    if (p === null) return held;
    held.push(p);
  }
  throw new Error('the gate admitted 64 messages at once: it does not bound them');
}

describe('admission control', () => {
  it('answers a JSON-RPC SendMessage past the message bound with 503, Retry-After and a JSON-RPC error, then completes it once a slot is free', async () => {
    const { c, url, token } = await start({
      ADMISSION_MAX_MESSAGES: '2',
      ADMISSION_RETRY_AFTER_SECONDS: '7',
    });
    const held = holdAllSlots(c);
    expect(held).toHaveLength(2);
    const res = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'SendMessage', params: sendParams() }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    const body: any = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 41, error: { code: -32053 } });
    expect(body.error.message).toContain('send the same request again in 7 s');
    expect(body.error.data[0]).toMatchObject({ reason: 'SERVER_BUSY' });
    // a call that reads no message is not held back
    const list = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'ListTasks', params: {} }),
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as any).result.tasks).toEqual([]); // nothing was stored for the refused call

    held.pop()!.release();
    const { client, opts } = await sdkClient(url, token, { protocol: 'JSONRPC' });
    const task = await client.sendMessage(SendMessageRequest.fromJSON(sendParams()), opts);
    expect('id' in task && task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    held.forEach((p) => p.release());
    expect(c.admission.load()).toMatchObject({ messages: 0, bytes: 0 });
  });

  it('answers REST message:send past the bound with 503, Retry-After and the REST error body', async () => {
    const { c, url, token } = await start({ ADMISSION_MAX_MESSAGES: '1' });
    const held = holdAllSlots(c);
    const res = await fetch(`${url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify(sendParams()),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    const body: any = await res.json();
    expect(body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(body.error.message).toContain('ADMISSION_MAX_MESSAGES');
    held.forEach((p) => p.release());
    const { client, opts } = await sdkClient(url, token, { protocol: 'HTTP+JSON' });
    const task = await client.sendMessage(SendMessageRequest.fromJSON(sendParams()), opts);
    expect('id' in task).toBe(true);
  });

  it('refuses a body past the byte budget before reading it, in the JSON-RPC shape with a null id', async () => {
    const { c, url, token } = await start({ ADMISSION_MAX_BYTES: '100000' });
    const hog = c.admission.tryAdmit({ bytes: 99_900, message: false })!;
    const res = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'SendMessage', params: sendParams() }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32053 } });
    hog.release();
  });

  it('answers a webhook past the bound with 503 and Retry-After, and triages it on the retry', async () => {
    const { c, url } = await start({ ADMISSION_MAX_MESSAGES: '1' });
    const held = holdAllSlots(c);
    const text = mail();
    const post = () =>
      fetch(`${url}/inbound/v1/rfc822/${INBOUND}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822' },
        body: text,
      });
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toMatchObject({ error: { code: 'SERVER_BUSY' } });
    held.forEach((p) => p.release());
    const accepted = await post();
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ status: 'accepted' });
  });

  it('under 8 concurrent SendMessage calls with room for 1, every call is triaged or told to retry, and the retries all complete', async () => {
    const { c, url, token } = await start({ ADMISSION_MAX_MESSAGES: '1' });
    const { client, opts } = await sdkClient(url, token, { protocol: 'JSONRPC' });
    const attempt = async (): Promise<'done' | 'retry'> => {
      const res = await fetch(`${url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendParams() }),
      });
      const body: any = await res.json();
      if (res.status === 503) {
        expect(body.error.code).toBe(-32053);
        expect(res.headers.get('retry-after')).toBe('2');
        return 'retry';
      }
      expect(res.status).toBe(200);
      expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      return 'done';
    };
    const first = await Promise.all(Array.from({ length: 8 }, attempt));
    const retries = first.filter((o) => o === 'retry').length;
    for (let i = 0; i < retries; i++) {
      const task = await client.sendMessage(SendMessageRequest.fromJSON(sendParams()), opts);
      expect('id' in task).toBe(true);
    }
    expect(c.admission.load()).toMatchObject({ messages: 0, bytes: 0, waiting: 0 });
  });

  // Issue 41: a refused large request is answered, never reset. The refusal comes once the caller
  // has sent its whole body, so no client is cut off mid-write (EPIPE) by an early answer.
  it.each([
    ['A2A JSON-RPC', '/a2a/jsonrpc', 'application/json'],
    ['a webhook', `/inbound/v1/rfc822/${INBOUND}`, 'message/rfc822'],
  ])('refuses %s past the byte budget only after its whole body is received', async (_, path, type) => {
    const { c, url, token } = await start({ ADMISSION_MAX_BYTES: '100000' });
    const hog = c.admission.tryAdmit({ bytes: 99_900, message: false })!;
    const body = Buffer.alloc(600_000, 0x20);
    let answered: IncomingMessage | null = null;
    const req = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': type,
        'content-length': String(body.length),
        'a2a-version': '1.0',
        authorization: `Bearer ${token}`,
      },
    });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req.once('response', (res) => {
        answered = res;
        resolve(res);
      });
      req.once('error', reject);
    });
    req.write(body.subarray(0, 200_000));
    await sleep(300);
    expect(answered, 'answered while the body was still being sent').toBeNull();
    req.end(body.subarray(200_000));
    const res = await response;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    const text = await new Promise<string>((resolve) => {
      let all = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (all += d));
      res.once('end', () => resolve(all));
    });
    expect(text).toMatch(/SERVER_BUSY|-32053/);
    hog.release();
    expect(c.admission.load()).toMatchObject({ messages: 0, bytes: 0 });
  });

  it('under 16 large SendMessage calls at once through the SDK client, every one is triaged or answered 503 with Retry-After, none reset', async () => {
    const { c, url, token } = await start({ ADMISSION_MAX_BYTES: String(4 * 1024 * 1024) });
    const statuses: (number | string)[] = [];
    const recording: typeof fetch = async (input, init) => {
      try {
        const res = await fetch(input, init);
        if ((input instanceof Request ? input.url : input.toString()).endsWith('/a2a/jsonrpc'))
          statuses.push(res.status === 503 && res.headers.get('retry-after') === '2' ? 503 : res.status);
        return res;
      } catch (e) {
        statuses.push(`reset: ${String((e as { cause?: { code?: string } }).cause?.code ?? e)}`);
        throw e;
      }
    };
    const { client, opts } = await sdkClient(url, token, { protocol: 'JSONRPC', fetchImpl: recording });
    const filler = 'Line of a scanned pre-alert, repeated to make the mail large.\r\n'.repeat(40_000);
    const large = () =>
      SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [mailPart(mail().replace('Shipment details below.', filler))],
        },
      });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, () => client.sendMessage(large(), opts)),
    );
    expect(statuses).toHaveLength(16);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(
      statuses.filter((s) => s === 200).length,
    );
    expect(c.admission.load()).toMatchObject({ messages: 0, bytes: 0, waiting: 0 });
  });
});
