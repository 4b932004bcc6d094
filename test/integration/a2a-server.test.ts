// Invariant: the A2A server honours activation (§7) per request on every transport and every read path (a teach block reaches only a request that activated, whoever parked the task), attaches the teach block (§8) identically on every transport, pins tasks (§10.3), keeps tenants apart (§13.2) and exposes the self-owning Teach method (§12.2).
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { ListTasksRequest, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { EXTENSION_URI, TEACH_METHOD } from '../../src/domain/extension.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { DATABASE_FILE } from '../../src/main.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createSqliteTokenStore } from '../../src/store/sqlite-token-store.ts';
import { startInProcess, tempDataDir, type Host } from '../e2e/host.ts';
import { sdkClient, type SdkClient } from '../support/sdk-client.ts';

const hosts: Host[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
  while (cleanups.length > 0) cleanups.pop()!();
});

async function start(dataDir?: string): Promise<Host> {
  const h = await startInProcess({}, dataDir);
  hosts.push(h);
  return h;
}

let seq = 0;
function unknownSenderMail(): string {
  seq += 1;
  const id = `${randomUUID()}@origin.example`;
  return `From: billing${seq}@origin-${seq}.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert PA-2026-09${String(seq).padStart(2, '0')}\r\nMessage-ID: <${id}>\r\n\r\nShipment details below.\r\n`;
}

function mailPart(text: string): Record<string, unknown> {
  return { raw: Buffer.from(text).toString('base64'), mediaType: 'message/rfc822', filename: 'mail.eml' };
}

interface RpcResult {
  status: number;
  echo: string | null;
  body: any;
}

function headers(token: string, activate: boolean): Record<string, string> {
  return {
    'content-type': 'application/json',
    'a2a-version': '1.0',
    authorization: `Bearer ${token}`,
    ...(activate ? { 'a2a-extensions': EXTENSION_URI } : {}),
  };
}

async function rpc(
  host: Host,
  token: string,
  method: string,
  params: unknown,
  activate = true,
): Promise<RpcResult> {
  const res = await fetch(`${host.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: headers(token, activate),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, echo: res.headers.get('a2a-extensions'), body: await res.json() };
}

/** Streaming JSON-RPC: every SSE event's JSON-RPC result, and the response header. */
async function rpcStream(
  host: Host,
  token: string,
  params: unknown,
  activate: boolean,
): Promise<{ echo: string | null; events: any[] }> {
  const res = await fetch(`${host.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...headers(token, activate), accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params }),
  });
  const text = await res.text();
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)).result);
  return { echo: res.headers.get('a2a-extensions'), events };
}

async function rest(
  host: Host,
  token: string,
  path: string,
  body: unknown,
  activate: boolean,
): Promise<RpcResult> {
  const res = await fetch(`${host.url}/a2a/rest${path}`, {
    method: 'POST',
    headers: headers(token, activate),
    body: JSON.stringify(body),
  });
  return { status: res.status, echo: res.headers.get('a2a-extensions'), body: await res.json() };
}

async function restStream(
  host: Host,
  token: string,
  body: unknown,
  activate: boolean,
): Promise<{ echo: string | null; events: any[] }> {
  const res = await fetch(`${host.url}/a2a/rest/message:stream`, {
    method: 'POST',
    headers: { ...headers(token, activate), accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)));
  return { echo: res.headers.get('a2a-extensions'), events };
}

function userMessage(parts: unknown[], taskId?: string): Record<string, unknown> {
  return {
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts,
      ...(taskId === undefined ? {} : { taskId }),
    },
  };
}

/** The task a response carries, whatever the transport's envelope. */
function taskOf(body: any): any {
  return body?.result?.task ?? body?.task ?? body?.result ?? body;
}

function lastStatus(events: any[]): any {
  const statuses = events.map((e) => e.statusUpdate?.status ?? e.task?.status).filter(Boolean);
  return statuses[statuses.length - 1];
}

const teachSchema = (() => {
  const schema = JSON.parse(readFileSync('/work/shared/spec/extension.json', 'utf8')) as {
    $defs: Record<string, object>;
  };
  const ajv = new Ajv2020({ strict: false });
  return ajv.compile({ $ref: '#/$defs/TeachBlock', $defs: schema.$defs });
})();

describe('authentication (§13.2)', () => {
  it('serves the card without a token and refuses A2A calls without a valid one', async () => {
    const host = await start();
    expect((await fetch(`${host.url}/.well-known/agent-card.json`)).status).toBe(200);
    const none = await fetch(`${host.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(none.status).toBe(401);
    const wrong = await rpc(
      host,
      'lt_not-a-token',
      'SendMessage',
      userMessage([mailPart(unknownSenderMail())]),
    );
    expect(wrong.status).toBe(401);
    const restNone = await fetch(`${host.url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(restNone.status).toBe(401);
  });

  it("does not let another tenant see or answer a tenant's task", async () => {
    const host = await start();
    const db = await openDatabase({ file: join(host.dataDir, DATABASE_FILE) });
    const other = (
      await createSqliteTokenStore(db).create({
        tenant: tenantId('other'),
        principal: 'eve@other.example',
        kind: 'person',
        roles: ['admin'],
      })
    ).token;
    await db.destroy();
    const asked = await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]));
    const id = taskOf(asked.body).id;
    const seen = await rpc(host, other, 'GetTask', { id });
    expect(seen.body.error.code).toBe(-32001); // TaskNotFound
    const answered = await rpc(
      host,
      other,
      'SendMessage',
      userMessage([{ data: { entry: 'northgate' } }], id),
    );
    expect(answered.body.error.code).toBe(-32001);
    const mine = await rpc(host, host.token!, 'GetTask', { id });
    expect(mine.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});

describe('activation and the teach block on every transport (§7, §8)', () => {
  const transports = ['jsonrpc', 'jsonrpc-stream', 'rest', 'rest-stream'] as const;

  async function ask(
    host: Host,
    transport: (typeof transports)[number],
    activate: boolean,
    params: unknown,
  ): Promise<{ echo: string | null; status: any; task: any }> {
    switch (transport) {
      case 'jsonrpc': {
        const r = await rpc(host, host.token!, 'SendMessage', params, activate);
        const task = taskOf(r.body);
        return { echo: r.echo, status: task.status, task };
      }
      case 'rest': {
        const r = await rest(host, host.token!, '/message:send', params, activate);
        const task = taskOf(r.body);
        return { echo: r.echo, status: task.status, task };
      }
      case 'jsonrpc-stream': {
        const r = await rpcStream(host, host.token!, params, activate);
        const task = r.events.find((e) => e.task)?.task;
        return { echo: r.echo, status: lastStatus(r.events), task };
      }
      case 'rest-stream': {
        const r = await restStream(host, host.token!, params, activate);
        const task = r.events.find((e) => e.task)?.task;
        return { echo: r.echo, status: lastStatus(r.events), task };
      }
    }
  }

  for (const transport of transports) {
    it(`${transport}: teach block and echo only when activated; the task proceeds identically either way (§7, §8)`, async () => {
      const host = await start();
      const results: Record<string, unknown>[] = [];
      for (const activate of [true, false]) {
        const first = await ask(host, transport, activate, userMessage([mailPart(unknownSenderMail())]));
        expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        const meta = first.status.message.metadata?.[EXTENSION_URI];
        if (activate) {
          expect(first.echo).toBe(EXTENSION_URI);
          expect(teachSchema(meta.teach)).toBe(true);
          const names = meta.teach.lessonFields.map((f: { name: string }) => f.name);
          expect(Object.keys(meta.teach.suggested ?? {}).every((k) => names.includes(k))).toBe(true);
        } else {
          expect(first.echo).toBeNull();
          expect(meta?.teach).toBeUndefined();
          expect(JSON.stringify(first.status)).not.toContain('"teach"');
        }
        const done = await ask(
          host,
          transport,
          activate,
          userMessage([{ text: 'Northgate Motors Ltd' }], first.task.id),
        );
        expect(done.status.state).toBe('TASK_STATE_COMPLETED');
        const final = await rpc(host, host.token!, 'GetTask', { id: first.task.id });
        const report = final.body.result.artifacts[0].parts.find((p: any) => p.data).data;
        results.push({
          winner: report.customer.winner,
          decidedBy: report.customer.decidedBy,
          question: first.status.message.parts[0].text,
        });
      }
      expect(results[0]).toEqual(results[1]);
    });
  }
});

describe('activation is per request, on every read path (§7)', () => {
  const protocols = ['JSONRPC', 'HTTP+JSON'] as const;

  type Reader = SdkClient;

  /** The real SDK client over HTTP, on one transport, activating the extension or not. */
  async function reader(
    host: Host,
    protocol: (typeof protocols)[number],
    activate: boolean,
  ): Promise<Reader> {
    const r = await sdkClient(host.url, host.token!, { protocol, activate });
    expect(r.client.transport.protocolName).toBe(protocol);
    return r;
  }

  async function send(r: Reader, parts: unknown[], taskId?: string): Promise<Task> {
    const result = await r.client.sendMessage(
      SendMessageRequest.fromJSON(userMessage(parts, taskId)),
      r.opts,
    );
    if (!('id' in result)) throw new Error('expected a task');
    return result;
  }

  async function streamed(r: Reader, parts: unknown[], taskId?: string): Promise<StreamResponse[]> {
    const events: StreamResponse[] = [];
    for await (const e of r.client.sendMessageStream(
      SendMessageRequest.fromJSON(userMessage(parts, taskId)),
      r.opts,
    ))
      events.push(e);
    return events;
  }

  const wire = (v: Task | StreamResponse): string =>
    JSON.stringify('id' in v ? Task.toJSON(v) : StreamResponse.toJSON(v));

  /** What a reader that has not activated must see: no teach block anywhere, no echo. */
  function expectNoTeach(r: Reader, ...seen: (Task | StreamResponse)[]): void {
    expect(r.echoed()).toBeNull();
    for (const v of seen) expect(wire(v)).not.toContain('"teach"');
  }

  /** What an activated reader sees of a parked task: the question's teach block, and the echo. */
  function expectTeach(r: Reader, task: Task): void {
    expect(r.echoed()).toBe(EXTENSION_URI);
    expect(TaskState[task.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(teachSchema(task.status!.message!.metadata![EXTENSION_URI].teach)).toBe(true);
    expect(task.status!.message!.extensions).toContain(EXTENSION_URI);
  }

  for (const protocol of protocols) {
    it(`${protocol}: GetTask, ListTasks, SubscribeToTask and CancelTask carry a parked task's teach block only to a reader that activated, whoever parked it (§7)`, async () => {
      const host = await start();
      const on = await reader(host, protocol, true);
      const off = await reader(host, protocol, false);
      for (const parker of [on, off]) {
        const id = (await send(parker, [mailPart(unknownSenderMail())])).id;

        const got = await off.client.getTask({ id, historyLength: undefined, tenant: '' }, off.opts);
        expectNoTeach(off, got);
        expect(TaskState[got.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
        expectTeach(on, await on.client.getTask({ id, historyLength: undefined, tenant: '' }, on.opts));

        const listed = await off.client.listTasks(ListTasksRequest.fromJSON({}), off.opts);
        expect(listed.tasks.map((t) => t.id)).toContain(id);
        expectNoTeach(off, ...listed.tasks);
        const listedOn = await on.client.listTasks(ListTasksRequest.fromJSON({}), on.opts);
        expect(on.echoed()).toBe(EXTENSION_URI);
        expectTeach(
          on,
          listedOn.tasks.find((t) => t.id === id)!,
        );

        // A resubscription's first event is the stored task; the stream stays open while it is parked.
        for await (const e of off.client.resubscribeTask({ id, tenant: '' }, off.opts)) {
          expectNoTeach(off, e);
          expect(e.payload?.$case).toBe('task');
          break;
        }
        for await (const e of on.client.resubscribeTask({ id, tenant: '' }, on.opts)) {
          expect(e.payload?.$case).toBe('task');
          if (e.payload?.$case === 'task') expectTeach(on, e.payload.value);
          break;
        }
      }
      // Cancelling answers with the task, whose history still holds the question.
      const parked = await send(on, [mailPart(unknownSenderMail())]);
      const cancelled = await off.client.cancelTask(
        { id: parked.id, tenant: '', metadata: undefined },
        off.opts,
      );
      expect(TaskState[cancelled.status!.state]).toBe('TASK_STATE_CANCELED');
      expectNoTeach(off, cancelled);
      const history = await on.client.getTask(
        { id: parked.id, historyLength: undefined, tenant: '' },
        on.opts,
      );
      expect(wire(history)).toContain('"teach"');
    });

    it(`${protocol}: a resubscribed reader that has not activated sees the live re-ask without its teach block, an activated one with it (§7)`, async () => {
      const host = await start();
      const on = await reader(host, protocol, true);
      const off = await reader(host, protocol, false);
      const id = (await send(on, [mailPart(unknownSenderMail())])).id;
      const watch = async (r: Reader, subscribed: () => void): Promise<StreamResponse[]> => {
        const events: StreamResponse[] = [];
        for await (const e of r.client.resubscribeTask({ id, tenant: '' }, r.opts)) {
          events.push(e);
          if (events.length === 1) subscribed();
        }
        return events;
      };
      let ready = 0;
      let bothSubscribed!: () => void;
      const subscribed = new Promise<void>((resolve) => (bothSubscribed = resolve));
      const tick = (): void => {
        if (++ready === 2) bothSubscribed();
      };
      const offEvents = watch(off, tick);
      const onEvents = watch(on, tick);
      await subscribed;
      const again = await send(on, [{ text: 'Acme Widgets' }], id); // names no entry: asked again
      expect(TaskState[again.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
      const seenOff = await offEvents;
      const seenOn = await onEvents;
      const reAsk = (events: StreamResponse[]): StreamResponse | undefined =>
        events.findLast(
          (e) =>
            e.payload?.$case === 'statusUpdate' &&
            TaskState[e.payload.value.status!.state] === 'TASK_STATE_INPUT_REQUIRED',
        );
      expect(reAsk(seenOff)).toBeDefined();
      expectNoTeach(off, ...seenOff);
      const live = reAsk(seenOn)!;
      expect(
        live.payload?.$case === 'statusUpdate' && live.payload.value.status!.message!.metadata,
      ).toHaveProperty([EXTENSION_URI, 'teach']);
    });

    it(`${protocol}: a re-ask after an answer that named no entry carries no teach block without activation, blocking or streaming, nor does the finished task's history (§7)`, async () => {
      const host = await start();
      const on = await reader(host, protocol, true);
      const off = await reader(host, protocol, false);
      for (const parker of [on, off]) {
        const id = (await send(parker, [mailPart(unknownSenderMail())])).id;
        const again = await send(off, [{ text: 'Acme Widgets' }], id);
        expect(TaskState[again.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
        expect(again.status!.message!.parts[0]!.content).toMatchObject({
          value: expect.stringContaining('Acme'),
        });
        expectNoTeach(off, again);
        const streamedAgain = await streamed(off, [{ text: 'Nobody Ltd' }], id);
        expect(streamedAgain.length).toBeGreaterThan(0);
        expectNoTeach(off, ...streamedAgain);
        // The same re-ask, read by a reader that activated, shows its block.
        expectTeach(on, await on.client.getTask({ id, historyLength: undefined, tenant: '' }, on.opts));
        const done = await send(off, [{ data: { entry: 'northgate' } }], id);
        expect(TaskState[done.status!.state]).toBe('TASK_STATE_COMPLETED');
        expectNoTeach(
          off,
          done,
          await off.client.getTask({ id, historyLength: undefined, tenant: '' }, off.opts),
        );
        const finished = await on.client.getTask({ id, historyLength: undefined, tenant: '' }, on.opts);
        expect(on.echoed()).toBe(EXTENSION_URI);
        expect(wire(finished)).toContain('"teach"');
      }
    });
  }
});

describe('triage_inbound', () => {
  it('refuses input that is not an e-mail, naming what it accepts', async () => {
    const host = await start();
    const r = await rpc(host, host.token!, 'SendMessage', userMessage([{ text: 'hello there' }]));
    const task = taskOf(r.body);
    expect(task.status.state).toBe('TASK_STATE_REJECTED');
    expect(task.status.message.parts[0].text).toMatch(/message\/rfc822/);
    expect(task.status.message.parts[0].text).toMatch(/data part/);
  });

  it('keeps waiting, listing the valid entries, when the answer names none of them', async () => {
    const host = await start();
    const first = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const again = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([{ text: 'Acme Widgets' }], first.id))).body,
    );
    expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(again.status.message.parts[0].text).toContain('"northgate"');
    expect(again.status.message.parts[0].text).toContain('Acme Widgets');
    const done = taskOf(
      (
        await rpc(
          host,
          host.token!,
          'SendMessage',
          userMessage([{ data: { customer: 'northgate' } }], first.id),
        )
      ).body,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('cancels a task parked in input-required', async () => {
    const host = await start();
    const first = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const cancelled = await rpc(host, host.token!, 'CancelTask', { id: first.id });
    expect(cancelled.body.result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('finishes on its pinned version although a lesson activated a newer one meanwhile (§10.3)', async () => {
    const host = await start();
    const text = unknownSenderMail();
    const sender = /From: (\S+)/.exec(text)![1]!;
    const first = taskOf((await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(text)]))).body);
    const pin = first.metadata[EXTENSION_URI].pin;
    const teach = first.status.message.metadata[EXTENSION_URI].teach;
    const lesson = await rpc(host, host.token!, TEACH_METHOD, {
      collection: 'customers',
      entry: 'gulftrade',
      value: teach.suggested,
      taughtBy: 'dana@warehouse.example',
      reason: 'race test',
    });
    expect(lesson.body.result.learned).toBe(true);
    expect(lesson.body.result.definitionVersion).toBeGreaterThan(pin.definitionVersion);
    // A new task for the same sender reads it under the new version, without asking.
    const second = taskOf(
      (
        await rpc(
          host,
          host.token!,
          'SendMessage',
          userMessage([mailPart(text.replace(/Message-ID: <[^>]+>/, `Message-ID: <${randomUUID()}@x>`))]),
        )
      ).body,
    );
    expect(second.status.state).toBe('TASK_STATE_COMPLETED');
    expect(second.metadata[EXTENSION_URI].pin.versionId).toBe(lesson.body.result.versionId);
    // The first task, answered with a different customer, still completes on its pin, as a person decided.
    const done = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([{ data: { entry: 'northgate' } }], first.id)))
        .body,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const report = done.artifacts[0].parts.find((p: any) => p.data).data;
    expect(report.pin).toEqual(pin);
    expect(report.versionId).toBe(pin.versionId);
    expect(report.customer.winner).toBe('northgate');
    expect(report.customer.decidedBy).toBe('person');
    expect(sender).toContain('@');
  });

  it('survives a restart: a parked task resumes on its pinned version in a new server on the same file', async () => {
    const data = tempDataDir();
    cleanups.push(data.remove);
    const a = await startInProcess({}, data.dir);
    const first = taskOf(
      (await rpc(a, a.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const token = a.token!;
    await a.close();
    const b = await start(data.dir);
    expect(b.token).toBeNull(); // not a first start any more
    const done = taskOf(
      (await rpc(b, token, 'SendMessage', userMessage([{ data: { entry: 'alhamra' } }], first.id))).body,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const report = done.artifacts[0].parts.find((p: any) => p.data).data;
    expect(report.pin).toEqual(first.metadata[EXTENSION_URI].pin);
    expect(report.customer.winner).toBe('alhamra');
  });
});

describe('recheck_message (§11)', () => {
  it('needs activation (§7)', async () => {
    const host = await start();
    const first = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const r = await rpc(
      host,
      host.token!,
      'SendMessage',
      userMessage([{ data: { recheck: { taskId: first.id } } }]),
      false,
    );
    const task = taskOf(r.body);
    expect(task.status.state).toBe('TASK_STATE_REJECTED');
    expect(task.status.message.parts[0].text).toContain('A2A-Extensions');
  });

  it('reports unsettled with what it saw, as a new task, never asking', async () => {
    const host = await start();
    const first = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const r = await rpc(
      host,
      host.token!,
      'SendMessage',
      userMessage([{ data: { recheck: { taskId: first.id } } }]),
    );
    const task = taskOf(r.body);
    expect(r.echo).toBe(EXTENSION_URI);
    expect(task.id).not.toBe(first.id);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const report = task.artifacts[0].parts.find((p: any) => p.data).data;
    expect(report.customer.settled).toBe(false);
    expect(typeof report.customer.reads).toBe('string');
    expect(JSON.stringify(task)).not.toContain('"teach"');
  });

  it('streams a task that ends in its first turn as one whole terminal Task, stored as GetTask then reads it (issue 29: one save)', async () => {
    const host = await start();
    const first = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    const recheck = userMessage([{ data: { recheck: { taskId: first.id } } }]);
    const streams = [
      (await rpcStream(host, host.token!, recheck, true)).events,
      (await restStream(host, host.token!, userMessage([{ data: { recheck: { taskId: first.id } } }]), true))
        .events,
    ];
    for (const events of streams) {
      expect(events).toHaveLength(1);
      const task = events[0].task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts.find((p: any) => p.data).data.customer.settled).toBe(false);
      const stored = taskOf((await rpc(host, host.token!, 'GetTask', { id: task.id })).body);
      expect(stored.status).toEqual(task.status);
      expect(stored.artifacts).toEqual(task.artifacts);
      // The status message is the last of the history, as a status update would have put it.
      expect(stored.history.map((m: any) => m.messageId)).toEqual([
        task.history[0].messageId,
        task.status.message.messageId,
      ]);
    }
  });
});

describe('the Teach method (§12.2)', () => {
  it('is refused without activation, needs the teach role, and absorbs through the authority (§10.2)', async () => {
    const host = await start();
    const lesson = {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'ops@teach-test\\.example', where: 'from' },
      taughtBy: 'dana@warehouse.example',
    };
    const inactive = await rpc(host, host.token!, TEACH_METHOD, lesson, false);
    expect(inactive.body.error.code).toBe(-32008);
    const db = await openDatabase({ file: join(host.dataDir, DATABASE_FILE) });
    const reader = (
      await createSqliteTokenStore(db).create({
        tenant: tenantId('demo'),
        principal: 'app:reader',
        kind: 'application',
        roles: ['read'],
      })
    ).token;
    await db.destroy();
    const forbidden = await rpc(host, reader, TEACH_METHOD, lesson);
    expect(forbidden.body.error.data[0].reason).toBe('FORBIDDEN');
    const learned = await rpc(host, host.token!, TEACH_METHOD, lesson);
    expect(learned.echo).toBe(EXTENSION_URI);
    expect(learned.body.result.learned).toBe(true);
    const again = await rpc(host, host.token!, TEACH_METHOD, lesson);
    expect(again.body.result.learned).toBe(false);
    expect(again.body.result.definitionVersion).toBe(learned.body.result.definitionVersion);
    const refused = await rpc(host, host.token!, TEACH_METHOD, {
      ...lesson,
      value: { pattern: 'billing@origin\\.example(', where: 'from' },
    });
    expect(refused.body.error.data[0].reason).toBe('LESSON_REFUSED');
    expect(refused.body.error.message).toMatch(/missing \)/);
  });

  it('refuses a lesson that would re-file mail already read, in the learnable’s words, as every other path does (§13.1, issue 26)', async () => {
    const host = await start();
    // Read as Al Hamra Trading by the demo directory's domain mark.
    const mail = `From: ops@alhamra-trading.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert AHT/2026/0001\r\nMessage-ID: <${randomUUID()}@alhamra-trading.example>\r\n\r\nShipment details below.\r\n`;
    const read = taskOf((await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(mail)]))).body);
    expect(read.status.state).toBe('TASK_STATE_COMPLETED');
    const lesson = {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'ops@alhamra-trading\\.example', where: 'from' },
      taughtBy: 'dana@warehouse.example',
    };
    const refused = await rpc(host, host.token!, TEACH_METHOD, lesson);
    expect(refused.body.error.data[0].reason).toBe('LESSON_REFUSED');
    expect(refused.body.error.message).toMatch(
      /^This would leave undecided 1 message already read as Al Hamra Trading: 'Pre-alert AHT\/2026\/0001'/,
    );
    const meant = await rpc(host, host.token!, TEACH_METHOD, {
      ...lesson,
      value: { ...lesson.value, alreadyRead: 're-file' },
    });
    expect(meant.body.result).toMatchObject({ learned: true, alreadyRead: { matches: 1, refiled: 1 } });
  });
});

describe('A2A v0.3 clients (the SDK compatibility layer)', () => {
  /** The SDK's v0.3 JSON-RPC and REST transports, with the token and X-A2A-Extensions or not. */
  async function legacyTransports(host: Host, activate: boolean) {
    const { LegacyJsonRpcTransport, LegacyRestTransport } = await import('@a2a-js/sdk/compat/v0_3/client');
    let echo: string | null = null;
    const fetchImpl: typeof fetch = async (u, init) => {
      const h = new Headers(init?.headers);
      h.set('Authorization', `Bearer ${host.token!}`);
      if (activate) h.set('X-A2A-Extensions', EXTENSION_URI);
      const r = await fetch(u, { ...init, headers: h });
      echo = r.headers.get('X-A2A-Extensions');
      return r;
    };
    return {
      transports: [
        new LegacyJsonRpcTransport({ endpoint: `${host.url}/a2a/jsonrpc`, fetchImpl }),
        new LegacyRestTransport({ endpoint: `${host.url}/a2a/rest`, fetchImpl }),
      ],
      echoed: () => echo,
    };
  }

  it('serves a v0.3 card and the whole question-and-answer turn to the SDK v0.3 transports', async () => {
    const { SendMessageRequest, TaskState } = await import('@a2a-js/sdk');
    const host = await start();
    const card03 = (await (
      await fetch(`${host.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '0.3' } })
    ).json()) as any;
    expect(card03.protocolVersion).toBe('0.3');
    expect(card03.capabilities.extensions[0].uri).toBe(EXTENSION_URI);
    const legacy = await legacyTransports(host, true);
    for (const transport of legacy.transports) {
      const asked = await transport.sendMessage(
        SendMessageRequest.fromJSON({
          message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: unknownSenderMail() }] },
        }),
      );
      if (!('id' in asked)) throw new Error('expected a task');
      expect(TaskState[asked.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(legacy.echoed()).toBe(EXTENSION_URI);
      expect(asked.status!.message!.metadata![EXTENSION_URI].teach.collection).toBe('customers');
      const done = await transport.sendMessage(
        SendMessageRequest.fromJSON({
          message: {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            taskId: asked.id,
            parts: [{ text: 'northgate' }],
          },
        }),
      );
      expect('id' in done && TaskState[done.status!.state]).toBe('TASK_STATE_COMPLETED');
    }
  });

  it('v0.3 GetTask without X-A2A-Extensions carries no teach block of a task parked with it, and no echo (§7)', async () => {
    const host = await start();
    const parked = taskOf(
      (await rpc(host, host.token!, 'SendMessage', userMessage([mailPart(unknownSenderMail())]))).body,
    );
    expect(parked.status.message.metadata[EXTENSION_URI].teach.collection).toBe('customers');
    for (const activate of [false, true]) {
      const legacy = await legacyTransports(host, activate);
      for (const transport of legacy.transports) {
        const read = await transport.getTask({ id: parked.id, historyLength: undefined, tenant: '' });
        const wire = JSON.stringify(Task.toJSON(read));
        if (activate) {
          expect(legacy.echoed()).toBe(EXTENSION_URI);
          expect(wire).toContain('"teach"');
        } else {
          expect(legacy.echoed()).toBeNull();
          expect(wire).not.toContain('"teach"');
        }
      }
    }
  });
});
