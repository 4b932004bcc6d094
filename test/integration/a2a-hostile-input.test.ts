// Invariant (issue 16): every input gets a clear answer in its transport's own shape — a JSON-RPC error on /a2a/jsonrpc (-32700 for a body that does not parse, -32600 for one that is too large, too deep or not a request object), the SDK's REST error on /a2a/rest, the authority's shape on /authority/v1; bytes that are not a mail, and a message with two mails, are refused as such with what to do; no enum number reaches a person; the server stays up throughout.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { startInProcess, type Host } from '../e2e/host.ts';
import { sdkClient } from '../support/sdk-client.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});
async function start(env: Record<string, string> = {}): Promise<Host & { token: string }> {
  const h = await startInProcess(env);
  hosts.push(h);
  return h as Host & { token: string };
}

const MAIL =
  'From: billing@origin.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert\r\nMessage-ID: <a-1@origin.example>\r\n\r\nShipment details.\r\n';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function post(
  host: Host & { token: string },
  path: string,
  body: string,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${host.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${host.token}`,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

const rpcBody = (params: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'SendMessage', params });

async function stillServes(host: Host & { token: string }): Promise<void> {
  const { client, opts } = await sdkClient(host.url, host.token);
  const task = (await client.sendMessage(
    SendMessageRequest.fromJSON({
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ raw: b64(MAIL), mediaType: 'message/rfc822' }],
      },
    }),
    opts,
  )) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
}

describe('JSON-RPC bodies get JSON-RPC errors', () => {
  it('answers a data part nested 3,000 deep with -32600 naming MAX_JSON_DEPTH, not -32603 stack overflow', async () => {
    const host = await start();
    const deep = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
    const body = rpcBody({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ data: 'X' }] } }).replace(
      '"X"',
      deep,
    );
    const r = await post(host, '/a2a/jsonrpc', body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.body.error.message).toContain('MAX_JSON_DEPTH');
    expect(JSON.stringify(r.body)).not.toMatch(/call stack/i);
    await stillServes(host);
  });

  it('answers a truncated body with -32700 saying it may have been cut off', async () => {
    const host = await start();
    const whole = rpcBody({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ raw: b64(MAIL) }] } });
    const r = await post(host, '/a2a/jsonrpc', whole.slice(0, whole.length - 7));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(r.body.error.message).toContain('cut off');
  });

  it('answers an oversize body with -32600 naming the limit and MAX_MESSAGE_BYTES, not the authority shape', async () => {
    const host = await start({ MAX_MESSAGE_BYTES: '10000' });
    const r = await post(host, '/a2a/jsonrpc', rpcBody({ pad: 'x'.repeat(200_000) }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    expect(r.body.error.message).toMatch(/request body is [\d,]+ bytes.*MAX_MESSAGE_BYTES/);
    await stillServes(host);
  });

  it('answers a body of 42 as an invalid request, not as invalid JSON', async () => {
    const host = await start();
    const r = await post(host, '/a2a/jsonrpc', '42');
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.body.error.message).toContain('a number (42)');
    expect(r.body.error.message).not.toContain('not valid JSON');
  });
});

describe('REST and the authority keep their own shapes', () => {
  it('answers a truncated REST body with the REST error body', async () => {
    const host = await start();
    const r = await post(host, '/a2a/rest/message:send', '{"message": {"messageId": "m", "par');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(r.body.error.message).toContain('not valid JSON');
  });

  it('answers a truncated authority body in the authority shape', async () => {
    const host = await start();
    const r = await post(host, '/authority/v1/lessons', '{"collection": "cust');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'REQUEST_MALFORMED' });
  });
});

describe('not-a-mail and two mails are refused as such (SDK client)', () => {
  async function rejected(host: Host & { token: string }, parts: unknown[]): Promise<string> {
    const { client, opts } = await sdkClient(host.url, host.token);
    const task = (await client.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts } }),
      opts,
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    return task
      .status!.message!.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join(' ');
  }

  it('refuses a 0-byte file part as empty, telling the sender to attach the .eml itself', async () => {
    const host = await start();
    const why = await rejected(host, [{ raw: '', mediaType: 'message/rfc822', filename: 'mail.eml' }]);
    expect(why).toContain('"mail.eml" (message/rfc822, 0 bytes), which is empty');
  });

  it('refuses base64 of "hello world" sent as message/rfc822 as not an e-mail, instead of asking a person about it', async () => {
    const host = await start();
    const why = await rejected(host, [{ raw: b64('hello world'), mediaType: 'message/rfc822' }]);
    expect(why).toContain('is not an e-mail');
    expect(why).toContain('From:');
  });

  it('refuses a file part whose base64 is invalid, in words', async () => {
    const host = await start();
    const { client, opts } = await sdkClient(host.url, host.token);
    const outcome = await client
      .sendMessage(
        SendMessageRequest.fromJSON({
          message: {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            parts: [{ raw: b64('x'), mediaType: 'message/rfc822' }],
          },
        }),
        opts,
      )
      .then((t) => (t as Task).status?.state);
    expect(outcome).toBe(TaskState.TASK_STATE_REJECTED);
    const r = await post(
      host,
      '/a2a/jsonrpc',
      rpcBody({
        message: {
          messageId: 'm',
          role: 'ROLE_USER',
          parts: [{ raw: '%%% not base64 %%%', mediaType: 'message/rfc822' }],
        },
      }),
    );
    const answer = r.body.error?.message ?? JSON.stringify(r.body.result.task.status);
    expect(r.body.error?.code ?? -32602).not.toBe(-32603);
    expect(answer).toMatch(/base64|not an e-mail/i);
    await stillServes(host);
  });

  it('refuses a message with two mails, naming both parts, instead of reading the first', async () => {
    const host = await start();
    const why = await rejected(host, [
      { raw: b64(MAIL), mediaType: 'message/rfc822', filename: 'first.eml' },
      { raw: b64(MAIL.replace('a-1@', 'a-2@')), mediaType: 'message/rfc822', filename: 'second.eml' },
    ]);
    expect(why).toContain('2 e-mails');
    expect(why).toContain('"first.eml"');
    expect(why).toContain('"second.eml"');
    expect(why).toContain('one e-mail per task');
  });

  it('says in words that a finished task takes no more messages, with no enum number', async () => {
    const host = await start();
    const { client, opts } = await sdkClient(host.url, host.token);
    const task = (await client.sendMessage(
      SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ raw: '', mediaType: 'message/rfc822' }],
        },
      }),
      opts,
    )) as Task;
    const again = await client
      .sendMessage(
        SendMessageRequest.fromJSON({
          message: {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            taskId: task.id,
            parts: [{ text: 'hello' }],
          },
        }),
        opts,
      )
      .then(
        () => 'accepted',
        (e: unknown) => (e as Error).message,
      );
    expect(again).toContain('has already ended (rejected)');
    expect(again).toContain('without a taskId');
    expect(again).not.toMatch(/\(\d+\)/);
  });
});
