// Invariant (issue 16, §13.2): wrong tokens are throttled per source — after AUTH_FAILURE_BURST failures a source is answered 429 with Retry-After without its token being checked, and regains tries over time — while valid callers from other sources are served as before and another source's first wrong token is still a plain 401.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely */
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { createAuthThrottle } from '../../src/admission/auth-throttle.ts';
import { startInProcess, type Host } from '../e2e/host.ts';
import { sdkClient } from '../support/sdk-client.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});

/** A JSON-RPC ListTasks from a chosen loopback source address (the whole of 127/8 is loopback). */
function callFrom(
  url: string,
  localAddress: string,
  token: string,
): Promise<{ status: number; retryAfter: string | undefined; body: any }> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        localAddress,
        method: 'POST',
        path: '/a2a/jsonrpc',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          authorization: `Bearer ${token}`,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: JSON.parse(text),
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('auth throttle', () => {
  it('answers a source 429 after its burst of wrong tokens, even with a valid token, while other sources are served', async () => {
    const host = await startInProcess({ AUTH_FAILURE_BURST: '5', AUTH_FAILURES_PER_MINUTE: '6' });
    hosts.push(host);
    const valid = host.token!;
    for (let i = 0; i < 5; i++)
      expect((await callFrom(host.url, '127.0.0.2', `lt_wrong_${i}`)).status).toBe(401);
    const throttled = await callFrom(host.url, '127.0.0.2', 'lt_wrong_again');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(throttled.body.error.code).toBe('AUTH_THROTTLED');
    expect(throttled.body.error.message).toMatch(/retry after \d+ s/);
    // not even a valid token is checked from there: guessing gets no answer
    expect((await callFrom(host.url, '127.0.0.2', valid)).status).toBe(429);

    // another source: a valid caller (the real SDK client) and a first wrong token, as before
    const { client, opts } = await sdkClient(host.url, valid);
    const task = (await client.sendMessage(
      SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ text: 'From: a@origin.example\r\nSubject: Pre-alert\r\n\r\nBody' }],
        },
      }),
      opts,
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect((await callFrom(host.url, '127.0.0.3', valid)).status).toBe(200);
    expect((await callFrom(host.url, '127.0.0.3', 'lt_wrong')).status).toBe(401);
  });

  it('gives a throttled source its tries back at the configured rate', () => {
    const t = createAuthThrottle({ burst: 3, perMinute: 60 });
    for (let i = 0; i < 3; i++) t.failed('10.0.0.9', 1_000);
    expect(t.retryAfterSeconds('10.0.0.9', 1_000)).toBe(1);
    expect(t.retryAfterSeconds('10.0.0.8', 1_000)).toBe(0);
    expect(t.retryAfterSeconds('10.0.0.9', 2_000)).toBe(0);
  });

  it('remembers a bounded number of sources', () => {
    const t = createAuthThrottle({ burst: 1, perMinute: 1, maxSources: 2 });
    t.failed('a', 0);
    t.failed('b', 0);
    t.failed('c', 0);
    expect(t.retryAfterSeconds('a', 0)).toBe(0); // forgotten
    expect(t.retryAfterSeconds('c', 0)).toBeGreaterThan(0);
  });
});
