/**
 * What the benchmarks drive the server through: its public interfaces only. A host is the real
 * composition (src/main.ts's compose) listening on 127.0.0.1:0 in this process, or
 * `node --import tsx src/main.ts` as a child process; the agent is reached with the real
 * @a2a-js/sdk client (JSON-RPC, the extension activated through the A2A-Extensions header) and the
 * authority over its HTTP API (/authority/v1). Nothing here calls the domain in-process.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from '@a2a-js/sdk/client';
import { loadConfig } from '../../src/config/config.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { compose, DEMO_TOKEN_FILE } from '../../src/main.ts';
import { spawnListening } from '../../test/support/listening-child.ts';

export { EXTENSION_URI };

/** The repository root (where `src/main.ts` lives). */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface Host {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** The first-start admin token of the tenant this host serves. */
  readonly token: string;
  readonly dataDir: string;
  /** The child's pid when the host is another process. */
  readonly pid?: number;
  close(): Promise<void>;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'learnables-bench-'));
}

/** main.ts's composition in this process, on a fresh data directory. */
export async function startInProcess(env: Record<string, string> = {}): Promise<Host> {
  const dir = tempDir();
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'error', ...env });
  const composition = await compose(config, { announce: () => {} });
  const { localUrl } = await composition.server.listen(0, '127.0.0.1');
  if (composition.demoToken === null) throw new Error('compose created no first-start token');
  return {
    url: localUrl,
    token: composition.demoToken,
    dataDir: dir,
    async close() {
      await composition.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `node --import tsx src/main.ts` with `env`, once it prints "listening on <url>". `dataDir`: a
 * prepared data directory to use (removed on close like a fresh one).
 */
export async function startChild(env: Record<string, string>, dataDir?: string): Promise<Host> {
  const dir = dataDir ?? tempDir();
  const child = await spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    LOG_LEVEL: 'error',
    ...env,
  });
  const token = readFileSync(join(dir, DEMO_TOKEN_FILE), 'utf8').trim();
  return {
    url: child.url,
    token,
    dataDir: dir,
    pid: child.pid,
    async close() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The real SDK client with the extension activated (§7) and the bearer token (§13.2). */
export class AgentClient {
  private constructor(
    private readonly client: Client,
    private readonly opts: object,
  ) {}

  static async connect(url: string, token: string): Promise<AgentClient> {
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({})],
      }),
    ).createFromUrl(url);
    const opts = {
      serviceParameters: ServiceParameters.create(withA2AExtensions(EXTENSION_URI), (p) => {
        p['Authorization'] = `Bearer ${token}`;
      }),
    };
    return new AgentClient(client, opts);
  }

  /** triage_inbound: one raw RFC 822 message, a new task. */
  triage(raw: string, filename = 'message.eml'): Promise<Task> {
    return this.send({
      parts: [{ raw: Buffer.from(raw, 'utf8').toString('base64'), mediaType: 'message/rfc822', filename }],
    });
  }

  /** The answer to the question a task is waiting on, on the same task (§8). */
  answer(taskId: string, entry: string): Promise<Task> {
    return this.send({ taskId, parts: [{ data: { entry } }] });
  }

  /** recheck_message (§11): show-back of a task's message under the version active now, a new task. */
  recheck(taskId: string): Promise<Task> {
    return this.send({ parts: [{ data: { recheck: { taskId } } }] });
  }

  private async send(message: Record<string, unknown>): Promise<Task> {
    const r = await this.client.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', ...message } }),
      this.opts,
    );
    if (!('id' in r) || !('status' in r)) throw new Error('the agent answered with a message, not a task');
    return r;
  }
}

export function stateOf(task: Task): string {
  return TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];
}

/** The §8 teach block of a task waiting in input-required, or null. */
export interface TeachBlockWire {
  readonly collection: string;
  readonly entries: readonly string[];
  readonly suggested?: Record<string, unknown>;
  readonly suggestionLabel?: string;
  readonly lessonFields: readonly {
    name: string;
    label: string;
    kind: string;
    choices?: string[];
    default?: string;
  }[];
}

export function teachBlockOf(task: Task): TeachBlockWire | null {
  const block = task.status?.message?.metadata?.[EXTENSION_URI] as { teach?: TeachBlockWire } | undefined;
  return block?.teach ?? null;
}

/** The text of a task's status message (the question in words). */
export function statusText(task: Task): string {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : '';
}

/** The data part of a task's first artifact (the reading, or the show-back report). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON, read loosely
export function reportOf(task: Task): Record<string, any> | null {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') return null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON, read loosely
  const value: Record<string, any> = part.content.value as Record<string, any>;
  return value;
}

/** The authority API (/authority/v1) with one bearer token. */
export class AuthorityClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.url}/authority/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  }

  async get(path: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${this.url}/authority/v1${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  }

  /** POST /lessons: learned (or already known), or refused with the learnable's reason. */
  async teach(lesson: {
    collection: string;
    entry: string;
    value: Record<string, unknown>;
    taughtBy: string;
    reason?: string;
  }): Promise<
    | { ok: true; learned: boolean; definitionVersion: number }
    | { ok: false; status: number; code: string; reason: string }
  > {
    const r = await this.post('/lessons', lesson);
    if (r.status === 200) {
      return {
        ok: true,
        learned: r.body.learned === true,
        definitionVersion: Number(r.body.definitionVersion),
      };
    }
    const error = (r.body.error ?? {}) as { code?: string; message?: string };
    return { ok: false, status: r.status, code: error.code ?? String(r.status), reason: error.message ?? '' };
  }

  /** Start from nothing learned (the demo directory a first start imports is rolled back). */
  async rollbackToNothing(): Promise<void> {
    const r = await this.post('/rollback', {
      to: 0,
      taughtBy: 'bench@forwarder.example',
      reason: 'benchmark starts empty',
    });
    if (r.status !== 200) throw new Error(`rollback to 0: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
