/**
 * The agent under test, as the kit reaches it: its card (raw wire JSON, fetched without a token and
 * without activation, §7), and the real @a2a-js/sdk client once per transport the card lists, with
 * and without the extension activated. Every answer is turned back into wire JSON, and the
 * A2A-Extensions header of each response is kept, since the SDK's Client API does not expose it.
 */
import { randomUUID } from 'node:crypto';
import {
  AgentCard,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  Message,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport, LegacyRestTransport } from '@a2a-js/sdk/compat/v0_3/client';
import type { AdapterContext, HttpAnswer, MessageDraft, Wire } from './adapter.ts';

export const EXTENSION_URI = 'https://rsaxb.com/a2a/learnables/v1';
export const CARD_PATH = '/.well-known/agent-card.json';
/** The bindings and protocol versions the SDK's clients speak; a card may list others, which the kit reports as skipped. */
export const SPOKEN_BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;
export const SPOKEN_VERSIONS = ['1.0', '0.3'] as const;
/** How long a stream is read before the kit stops waiting for more events. */
const STREAM_WAIT_MS = 10_000;

export interface Credentials {
  readonly token: string;
  /** Another tenant's token, for §13.2's isolation checks; null when not given. */
  readonly secondToken: string | null;
}

/** One interface of the card, with the SDK client built for it, activated or not. */
export interface Channel {
  /** How checks name it: the binding, with `@0.3` for an A2A 0.3 interface. */
  readonly name: string;
  readonly binding: string;
  readonly protocolVersion: string;
  readonly url: string;
  /** Whether the protocol has ListTasks (A2A 0.3 has none). */
  readonly lists: boolean;
  send(message: MessageDraft, options?: CallOptions): Promise<Reply<Wire>>;
  stream(message: MessageDraft, options?: CallOptions): Promise<Reply<Wire[]>>;
  get(taskId: string, options?: CallOptions): Promise<Reply<Wire>>;
  list(options?: CallOptions): Promise<Reply<Wire[]>>;
  resubscribe(taskId: string, options?: CallOptions): Promise<Reply<Wire[]>>;
}

export interface CallOptions {
  readonly activate?: boolean;
  /** Which token to send: the kit's (default), the second tenant's, or none at all. */
  readonly as?: 'first' | 'second' | 'none';
}

/** What a call answered, and the A2A-Extensions header its response carried (null when none). */
export interface Reply<T> {
  readonly value: T;
  readonly echoed: string | null;
}

export interface Agent {
  readonly baseUrl: string;
  readonly card: Wire;
  readonly channels: readonly Channel[];
  /** Interfaces of the card the kit cannot speak (another binding or protocol version), in words. */
  readonly unspoken: readonly string[];
  /** Whether the card declares streaming (§7's stream and resubscribe reads). */
  readonly streaming: boolean;
  /** Whether a second tenant's token was given (§13.2). */
  readonly secondTenant: boolean;
  readonly context: AdapterContext;
}

/** The card's URL: the one given when it names a JSON file, else the well-known path under it (A2A §5). */
export function cardUrl(given: string): URL {
  const url = new URL(given);
  return url.pathname.endsWith('.json') ? url : new URL(CARD_PATH, url);
}

/** The agent card, fetched with no token and no activation (§7: the declaration is data-only). */
export async function fetchCard(given: string): Promise<Wire> {
  const url = cardUrl(given);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url.href} answered ${res.status}: is ${given} an A2A agent?`);
  try {
    return await res.json();
  } catch {
    throw new Error(
      `GET ${url.href} answered ${res.headers.get('content-type') ?? 'something'} that is not JSON`,
    );
  }
}

export async function connect(
  baseUrl: string,
  card: Wire,
  credentials: Credentials,
  taughtBy: string,
): Promise<Agent> {
  const interfaces: Wire[] = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const channels: Channel[] = [];
  const unspoken: string[] = [];
  for (const i of interfaces) {
    const version = String(i.protocolVersion ?? '1.0');
    const spoken =
      (SPOKEN_BINDINGS as readonly string[]).includes(i.protocolBinding) &&
      (SPOKEN_VERSIONS as readonly string[]).includes(version);
    if (!spoken) {
      unspoken.push(`${i.protocolBinding} ${version} at ${i.url}`);
      continue;
    }
    if (channels.some((c) => c.binding === i.protocolBinding && c.protocolVersion === version)) continue;
    channels.push(await channelFor(card, i.protocolBinding, version, i.url, credentials));
  }
  // A2A 1.0 first: the checks past activation run on the first channel.
  channels.sort((a, b) => Number(b.protocolVersion === '1.0') - Number(a.protocolVersion === '1.0'));
  return {
    baseUrl,
    card,
    channels,
    unspoken,
    streaming: card?.capabilities?.streaming === true,
    secondTenant: credentials.secondToken !== null,
    context: adapterContext(baseUrl, card, credentials.token, taughtBy),
  };
}

function adapterContext(baseUrl: string, card: Wire, token: string, taughtBy: string): AdapterContext {
  return {
    baseUrl,
    card,
    taughtBy,
    // No token given: the kit's; `null`: none at all (§13.2's checks).
    call: (method, url, body, options = {}) =>
      httpCall(method, url, body, {
        token: options.token === undefined ? token : options.token,
        activate: options.activate === true,
      }),
  };
}

/** An HTTP call with a JSON body, as the adapter context makes it. */
async function httpCall(
  method: string,
  url: string,
  body: unknown,
  options: { readonly token?: string | null; readonly activate?: boolean },
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'a2a-version': '1.0' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.activate === true) headers['a2a-extensions'] = EXTENSION_URI;
  const res = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Wire = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text is the body
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * A channel over one interface: A2A 1.0 through the SDK's client (credentials and activation as
 * service parameters), A2A 0.3 through the SDK's legacy transports (the same, as headers: 0.3
 * spells activation X-A2A-Extensions). Calls are one at a time, so each sets the headers it needs.
 */
async function channelFor(
  card: Wire,
  binding: string,
  protocolVersion: string,
  url: string,
  credentials: Credentials,
): Promise<Channel> {
  const legacy = protocolVersion === '0.3';
  let echoed: string | null = null;
  let current: CallOptions = {};
  const tokenOf = (o: CallOptions): string | null =>
    o.as === 'none' ? null : o.as === 'second' ? credentials.secondToken : credentials.token;
  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (legacy) {
      const token = tokenOf(current);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      if (current.activate === true) headers.set('X-A2A-Extensions', EXTENSION_URI);
    }
    const res = await fetch(input, { ...init, headers });
    echoed = res.headers.get('A2A-Extensions') ?? (legacy ? res.headers.get('X-A2A-Extensions') : null);
    return res;
  };
  const client: Pick<
    Client,
    'sendMessage' | 'sendMessageStream' | 'getTask' | 'listTasks' | 'resubscribeTask'
  > = !legacy
    ? await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
          preferredTransports: [binding],
        }),
      ).createFromAgentCard(AgentCard.fromJSON(card))
    : binding === 'JSONRPC'
      ? new LegacyJsonRpcTransport({ endpoint: url, fetchImpl })
      : new LegacyRestTransport({ endpoint: url, fetchImpl });
  const opts = (o: CallOptions = {}): object => {
    current = o;
    if (legacy) return {};
    const token = tokenOf(o);
    const auth = (p: Record<string, string>): void => {
      if (token) p['Authorization'] = `Bearer ${token}`;
    };
    return {
      serviceParameters:
        o.activate === true
          ? ServiceParameters.create(withA2AExtensions(EXTENSION_URI), auth)
          : ServiceParameters.create(auth),
    };
  };
  const reply = async <T>(call: () => Promise<T>): Promise<Reply<T>> => {
    echoed = null;
    const value = await call();
    return { value, echoed };
  };
  const request = (m: MessageDraft): SendMessageRequest =>
    SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', ...m } });
  return {
    name: legacy ? `${binding}@0.3` : binding,
    binding,
    protocolVersion,
    url,
    lists: !legacy,
    send: (m, o) =>
      reply(async () => {
        const r = await client.sendMessage(request(m), opts(o));
        return 'id' in r ? Task.toJSON(r) : { message: Message.toJSON(r) };
      }),
    stream: (m, o) => reply(() => drain(client.sendMessageStream(request(m), opts(o)))),
    get: (id, o) =>
      reply(async () => Task.toJSON(await client.getTask(GetTaskRequest.fromJSON({ id }), opts(o)))),
    list: (o) =>
      reply(async () => {
        const r = ListTasksResponse.toJSON(
          await client.listTasks(ListTasksRequest.fromJSON({}), opts(o)),
        ) as Wire;
        return Array.isArray(r.tasks) ? r.tasks : [];
      }),
    resubscribe: (id, o) =>
      reply(() =>
        drain(client.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id }), opts(o)), { first: true }),
      ),
  };
}

/**
 * The events of a stream as wire JSON, until it ends, a task reaches a final or input-required
 * state, or STREAM_WAIT_MS pass. With `first`, the first event is enough (a resubscription to a
 * parked task stays open until the task moves).
 */
async function drain(
  stream: AsyncGenerator<StreamResponse>,
  options: { first?: boolean } = {},
): Promise<Wire[]> {
  const events: Wire[] = [];
  const deadline = Date.now() + STREAM_WAIT_MS;
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      const next = await Promise.race([
        iterator.next(),
        new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), left))),
      ]);
      clearTimeout(timer);
      if (next === 'timeout' || next.done === true) break;
      const event = StreamResponse.toJSON(next.value) as Wire;
      events.push(event);
      if (options.first === true || settles(event)) break;
    }
  } finally {
    void iterator.return?.(undefined);
  }
  return events;
}

const RESTING = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** The task state a stream event carries, if any. */
function eventState(event: Wire): string | undefined {
  return event?.statusUpdate?.status?.state ?? event?.task?.status?.state;
}

function settles(event: Wire): boolean {
  return event?.message !== undefined || RESTING.has(eventState(event) ?? '');
}

/** The state a task, or the last event of a stream, left it in. */
export function stateOf(value: Wire): string | undefined {
  if (Array.isArray(value)) {
    return value.map(eventState).findLast((s) => s !== undefined);
  }
  return value?.status?.state;
}

/** The task id a reply names (a task, or the first event of a stream that carries one). */
export function taskIdOf(value: Wire): string | undefined {
  if (Array.isArray(value)) {
    for (const e of value) {
      const id = e?.task?.id ?? e?.statusUpdate?.taskId;
      if (typeof id === 'string') return id;
    }
    return undefined;
  }
  return typeof value?.id === 'string' ? value.id : undefined;
}

/** The extension's entry in the card's `capabilities.extensions` (§6.1), unjudged; undefined when there is none. */
export function declarationOf(card: Wire): Wire {
  const extensions: unknown = card?.capabilities?.extensions;
  return Array.isArray(extensions) ? extensions.find((e: Wire) => e?.uri === EXTENSION_URI) : undefined;
}

/** Whether the extension's URI is among the echoed A2A-Extensions values (§7). */
export function echoes(header: string | null): boolean {
  return header !== null && header.split(',').some((v) => v.trim() === EXTENSION_URI);
}

/** Every teach block anywhere in a value (metadata keyed by the extension's URI, §8), with where it was. */
export function teachBlocks(value: unknown, path = '$'): { path: string; block: Wire }[] {
  if (value === null || typeof value !== 'object') return [];
  const found: { path: string; block: Wire }[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const here = `${path}.${key}`;
    if (key === EXTENSION_URI && inner !== null && typeof inner === 'object' && 'teach' in inner) {
      found.push({ path: here, block: inner.teach });
    }
    found.push(...teachBlocks(inner, here));
  }
  return found;
}
