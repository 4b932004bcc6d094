// Invariant: WORKERS=2 (issue 15, src/cluster.ts) is one agent on one port and one data directory
// served by two processes: both answer (each response names its worker); a lesson posted through one
// is used by the next task the other reads (each worker's own SQLite connection sees the other's
// write, §10.3: a new activation is the next task's version); a worker killed outright is started
// again by the primary, and the agent keeps answering.
import { request, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { send } from '../support/sdk-client.ts';
import { reportOf, rfc822Message } from '../support/task-mail.ts';
import { startChild, type ChildHost } from './host.ts';

let host: ChildHost;
let token: string;

beforeAll(async () => {
  host = await startChild({ WORKERS: '2', LOG_LEVEL: 'warn' });
  token = host.token!;
}, 240_000);

afterAll(() => host?.close());

/**
 * A fetch over one kept-alive connection: node:cluster hands each new connection to the next
 * worker, and every request on this one reaches that same worker. Records the worker of the last
 * response.
 */
function stickyFetch(): { fetch: typeof fetch; worker(): { id: string; pid: number } | null; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let last: { id: string; pid: number } | null = null;
  const impl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : undefined;
    return await new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        { method: init?.method ?? 'GET', headers: Object.fromEntries(headers), agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            last = { id: String(res.headers['x-worker-id']), pid: Number(res.headers['x-worker-pid']) };
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: out }));
          });
        },
      );
      req.on('error', reject);
      // A connection handed to a worker just killed is never answered: give up on it, as a client would.
      req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
      req.end(body);
    });
  };
  return { fetch: impl, worker: () => last, close: () => agent.destroy() };
}

/** One sticky connection per worker: new connections until two different workers answered. */
async function oneConnectionPerWorker(): Promise<ReturnType<typeof stickyFetch>[]> {
  const byPid = new Map<number, ReturnType<typeof stickyFetch>>();
  for (let i = 0; i < 20 && byPid.size < 2; i++) {
    const f = stickyFetch();
    const res = await f.fetch(`${host.url}/readyz`);
    expect(res.status).toBe(200);
    const pid = f.worker()!.pid;
    if (byPid.has(pid)) f.close();
    else byPid.set(pid, f);
  }
  return [...byPid.values()];
}

async function clientOver(f: ReturnType<typeof stickyFetch>) {
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: f.fetch })],
    }),
  ).createFromUrl(host.url);
  const opts = {
    serviceParameters: ServiceParameters.create(withA2AExtensions(EXTENSION_URI), (p) => {
      p['Authorization'] = `Bearer ${token}`;
    }),
  };
  return { client, opts };
}

describe('WORKERS=2 on one data directory', () => {
  let a: ReturnType<typeof stickyFetch>;
  let b: ReturnType<typeof stickyFetch>;

  it('serves from two processes on one port, each response naming its worker', async () => {
    const workers = await oneConnectionPerWorker();
    expect(workers).toHaveLength(2);
    [a, b] = workers as [ReturnType<typeof stickyFetch>, ReturnType<typeof stickyFetch>];
    expect(new Set([a.worker()!.id, b.worker()!.id])).toEqual(new Set(['1', '2']));
  }, 60_000);

  it("uses a lesson posted through one worker in the other's next task (§10.3)", async () => {
    const sender = 'ops@harbour-new.example';
    const onB = await clientOver(b);
    const before = await send(
      onB.client,
      onB.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-1001', 'w-1@harbour-new.example'),
    );
    expect(TaskState[before.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
    const bPid = b.worker()!.pid;

    const taught = await a.fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: sender.replace(/[.-]/g, (c) => `\\${c}`), where: 'from' },
        taughtBy: 'dana@warehouse.example',
        reason: 'taught through worker A',
      }),
    });
    expect(taught.status).toBe(200);
    const lesson = (await taught.json()) as { learned: boolean; versionId: string };
    expect(lesson.learned).toBe(true);
    expect(a.worker()!.pid).not.toBe(bPid);

    const after = await send(
      onB.client,
      onB.opts,
      rfc822Message(sender, 'Pre-alert PA-2026-1002', 'w-2@harbour-new.example'),
    );
    expect(b.worker()!.pid).toBe(bPid); // the same worker that read the sender as unknown
    expect(TaskState[after.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(after).customer.winner).toBe('northgate');
    expect(reportOf(after).pin.versionId).toBe(lesson.versionId);
  }, 120_000);

  it('starts a worker killed outright again, and keeps answering', async () => {
    const killed = b.worker()!.pid;
    const survivor = a.worker()!.pid;
    a.close();
    b.close();
    process.kill(killed, 'SIGKILL');
    const seen = new Set<number>();
    for (let i = 0; i < 200 && ![...seen].some((p) => p !== killed && p !== survivor); i++) {
      const f = stickyFetch();
      try {
        const res = await f.fetch(`${host.url}/readyz`);
        if (res.status === 200) seen.add(f.worker()!.pid);
      } catch {
        // the connection went to the killed worker before the primary knew: a new one goes elsewhere
      } finally {
        f.close();
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const restarted = [...seen].filter((p) => p !== killed && p !== survivor);
    expect(restarted).toHaveLength(1);
    expect(seen.has(killed)).toBe(false);
  }, 240_000);
});
