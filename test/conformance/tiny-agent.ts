/**
 * A second Learnables agent, in another domain, for the kit's own tests (issue 30): it files an
 * expense line under a cost centre by its vendor, and is taught vendors. It shares nothing with
 * this server but the SDK: JSON-RPC only, no streaming, no authority API (it owns its definitions
 * and takes lessons by the Teach method, §12.2), a tenant per token with tasks of its own, versions
 * kept in memory. Small, but it keeps the MUSTs the kit checks, so the kit's verdict on it is its
 * verdict on the kit.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { AgentCard, Artifact, Message, Task, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  UnauthenticatedUser,
  type A2ARequestHandler,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import type { Wire } from '../support/calls.ts';

export const TINY_EXTENSION = 'https://rsaxb.com/a2a/learnables/v1';
const TEACH_METHOD = 'rsaxb.learnables.Teach';
const COLLECTION = 'cost-centres';

/** One immutable version of a tenant's cost centres: each with the vendors it is taught. */
interface Version {
  readonly definitionVersion: number;
  readonly versionId: string;
  readonly centres: ReadonlyMap<string, readonly string[]>;
}

function version(definitionVersion: number, centres: ReadonlyMap<string, readonly string[]>): Version {
  const canonical = JSON.stringify([...centres].sort(([a], [b]) => a.localeCompare(b)));
  return {
    definitionVersion,
    versionId: `sha256:${createHash('sha256').update(canonical).digest('hex')}`,
    centres,
  };
}

/** A tenant: its versions (the last is active) and its own task store, behind its own JSON-RPC handler. */
interface Tenant {
  readonly versions: Version[];
  readonly rpc: ReturnType<typeof jsonRpcHandler>;
}

const key = (vendor: string): string => vendor.trim().toLowerCase();

/** What the active (or pinned) version makes of a vendor: the cost centre, or null. */
function read(v: Version, vendor: string): string | null {
  for (const [centre, vendors] of v.centres) if (vendors.some((x) => key(x) === key(vendor))) return centre;
  return null;
}

function card(url: string): AgentCard {
  return AgentCard.fromJSON({
    name: 'Expense filer',
    description:
      'Files an expense line under a cost centre by its vendor; asks when it does not know the vendor.',
    version: '0.0.1',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: TINY_EXTENSION,
          description: 'Which cost centre an expense belongs to, taught by vendor.',
          required: false,
          params: {
            teachMethod: TEACH_METHOD,
            learnables: [
              {
                collection: COLLECTION,
                entry: 'cost centre',
                skills: ['file_expense', 'show_back'],
                teaches: 'which cost centre an expense belongs to',
                how: 'Each cost centre lists vendors; an expense whose vendor one of them lists is filed there, else I ask.',
                decidedBy: 'rules',
                lessonFields: [
                  { name: 'vendor', label: 'Vendor, as it appears on the receipt', kind: 'text' },
                ],
              },
            ],
          },
        },
      ],
    },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'file_expense',
        name: 'File an expense',
        description: 'Send {"expense": {"vendor", "amount"}}.',
        tags: [],
      },
      { id: 'show_back', name: 'Show back', description: 'Send {"showBack": {"taskId"}}.', tags: [] },
    ],
  });
}

/** The executor of one tenant: file, ask, answer on the pin (§10.3), show back on the active version (§11). */
function executor(tenant: () => Tenant, store: InMemoryTaskStore): AgentExecutor {
  const publishWhole = (
    bus: ExecutionEventBus,
    rc: RequestContext,
    state: string,
    data: Wire,
    text: string,
  ): void => {
    bus.publish(
      AgentEvent.task(
        Task.fromJSON({
          id: rc.taskId,
          contextId: rc.contextId,
          status: { state, message: agentText(rc, text) },
          artifacts: [{ artifactId: randomUUID(), parts: [{ data }] }],
          history: [Message.toJSON(rc.userMessage)],
        }),
      ),
    );
  };
  return {
    async execute(rc, bus) {
      if (rc.context.requestedExtensions?.includes(TINY_EXTENSION) === true)
        rc.context.addActivatedExtension(TINY_EXTENSION);
      const data: Wire = rc.userMessage.parts.find((p) => p.content?.$case === 'data')?.content?.value ?? {};
      const t = tenant();
      const active = t.versions.at(-1)!;
      if (rc.task !== undefined) {
        // An answer, on the version the task was pinned to (§10.3).
        const pin: Wire = rc.task.metadata?.[TINY_EXTENSION];
        const pinned = t.versions.find((v) => v.versionId === pin?.versionId)!;
        const centre = typeof data.entry === 'string' && pinned.centres.has(data.entry) ? data.entry : null;
        bus.publish(AgentEvent.task(rc.task));
        if (centre === null) {
          bus.publish(
            status(
              rc,
              'TASK_STATE_INPUT_REQUIRED',
              `No cost centre "${String(data.entry)}": answer one of ${[...pinned.centres.keys()].join(', ')}.`,
            ),
          );
        } else {
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId: rc.taskId,
              contextId: rc.contextId,
              artifact: Artifact.fromJSON({
                artifactId: randomUUID(),
                parts: [
                  {
                    data: {
                      centre: { settled: true, winner: centre, decidedBy: 'person' },
                      versionId: pinned.versionId,
                    },
                  },
                ],
              }),
              append: false,
              lastChunk: true,
              metadata: undefined,
            }),
          );
          bus.publish(status(rc, 'TASK_STATE_COMPLETED', `Filed under ${centre}.`));
        }
        bus.finished();
        return;
      }
      if (data.showBack !== undefined) {
        const seen = await store.load(String(data.showBack.taskId), rc.context);
        const first: Wire = seen?.history.find((m) => m.role === rc.userMessage.role)?.parts[0]?.content
          ?.value;
        const vendor = typeof first?.expense?.vendor === 'string' ? (first.expense.vendor as string) : null;
        const winner = vendor === null ? null : read(active, vendor);
        const report =
          winner === null
            ? {
                settled: false,
                reads:
                  vendor === null
                    ? 'I have not seen that expense.'
                    : `Still cannot tell where ${vendor} goes.`,
              }
            : { settled: true, winner, reads: `Files under ${winner}, on the vendor ${vendor}` };
        publishWhole(
          bus,
          rc,
          'TASK_STATE_COMPLETED',
          { centre: report, versionId: active.versionId },
          report.reads,
        );
        bus.finished();
        return;
      }
      const vendor = String(data.expense?.vendor ?? '');
      const centre = read(active, vendor);
      if (centre !== null) {
        publishWhole(
          bus,
          rc,
          'TASK_STATE_COMPLETED',
          { centre: { settled: true, winner: centre }, versionId: active.versionId },
          `Filed under ${centre}.`,
        );
        bus.finished();
        return;
      }
      // The question is stored without a teach block; sendMessage adds one for an activated caller (§7).
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: rc.taskId,
            contextId: rc.contextId,
            status: { state: 'TASK_STATE_SUBMITTED' },
            history: [Message.toJSON(rc.userMessage)],
            metadata: { [TINY_EXTENSION]: { versionId: active.versionId, vendor } },
          }),
        ),
      );
      bus.publish(status(rc, 'TASK_STATE_INPUT_REQUIRED', `Which cost centre is ${vendor} for?`));
      bus.finished();
    },
    cancelTask: (_taskId, bus) => {
      bus.finished();
      return Promise.resolve();
    },
  };
}

function agentText(rc: RequestContext, text: string): Wire {
  return {
    messageId: randomUUID(),
    role: 'ROLE_AGENT',
    taskId: rc.taskId,
    contextId: rc.contextId,
    parts: [{ text }],
  };
}

function status(rc: RequestContext, state: string, text: string): ReturnType<typeof AgentEvent.statusUpdate> {
  return AgentEvent.statusUpdate(
    TaskStatusUpdateEvent.fromJSON({
      taskId: rc.taskId,
      contextId: rc.contextId,
      status: { state, message: agentText(rc, text) },
    }),
  );
}

/** §7, §8: the teach block only on the reply to an activated send; stored tasks never carry one. */
function withTeachBlock(inner: A2ARequestHandler, tenant: () => Tenant): A2ARequestHandler {
  async function sendMessage(
    ...[p, c]: Parameters<A2ARequestHandler['sendMessage']>
  ): ReturnType<A2ARequestHandler['sendMessage']> {
    const r = await inner.sendMessage(p, c);
    if (
      !('id' in r) ||
      r.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED ||
      c.activatedExtensions?.includes(TINY_EXTENSION) !== true
    )
      return r;
    const asked: Wire = r.metadata?.[TINY_EXTENSION];
    const teach = {
      collection: COLLECTION,
      entries: [...tenant().versions.at(-1)!.centres.keys()],
      suggested: { vendor: asked?.vendor },
      suggestionLabel: 'the vendor on this expense',
    };
    const message = r.status.message!;
    return {
      ...r,
      status: {
        ...r.status,
        message: { ...message, metadata: { ...message.metadata, [TINY_EXTENSION]: { teach } } },
      },
    };
  }
  // Every other method is the SDK handler's own, bound to it.
  return new Proxy(inner, {
    get: (target, name) =>
      name === 'sendMessage'
        ? sendMessage
        : (Reflect.get(target, name, target) as (...a: unknown[]) => unknown).bind(target),
  });
}

/** The Teach method (§12.2): activation required, the token's tenant, refusals in words (§10.1), idempotent (§10.2). */
function teach(t: Tenant, lesson: Wire): { result: Wire } | { error: string } {
  const active = t.versions.at(-1)!;
  if (lesson?.collection !== COLLECTION)
    return { error: `I only learn "${COLLECTION}", not ${JSON.stringify(lesson?.collection)}.` };
  const vendors = active.centres.get(String(lesson.entry));
  if (vendors === undefined)
    return {
      error: `There is no cost centre "${String(lesson.entry)}": teach one of ${[...active.centres.keys()].join(', ')}.`,
    };
  const vendor: unknown = lesson.value?.vendor;
  if (typeof vendor !== 'string' || vendor.trim().length < 2)
    return {
      error: `"${String(vendor)}" is not a vendor: write the vendor's name as the receipt shows it, two letters at least.`,
    };
  const describes = `files expenses from ${vendor.trim()} under ${String(lesson.entry)}`;
  if (vendors.some((v) => key(v) === key(vendor)))
    return {
      result: {
        learned: false,
        describes,
        definitionVersion: active.definitionVersion,
        versionId: active.versionId,
      },
    };
  const centres = new Map(active.centres);
  centres.set(String(lesson.entry), [...vendors, vendor.trim()]);
  const next = version(active.definitionVersion + 1, centres);
  t.versions.push(next);
  return {
    result: {
      learned: true,
      describes,
      definitionVersion: next.definitionVersion,
      versionId: next.versionId,
      previousVersionId: active.versionId,
    },
  };
}

export interface TinyAgent {
  readonly url: string;
  readonly tokens: readonly [string, string];
  close(): Promise<void>;
}

/** The agent on 127.0.0.1:0 with two tenants, a token each. */
export async function startTinyAgent(): Promise<TinyAgent> {
  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agentCard = card(url);
  const tenants = new Map<string, Tenant>();
  const tokens: [string, string] = [randomUUID(), randomUUID()];
  for (const token of tokens) {
    const store = new InMemoryTaskStore();
    const versions = [
      version(
        1,
        new Map([
          ['travel', ['Skyline Taxis']],
          ['office', ['Paper & Co']],
        ]),
      ),
    ];
    const self: { tenant?: Tenant } = {};
    const get = (): Tenant => self.tenant!;
    const handler = withTeachBlock(new DefaultRequestHandler(agentCard, store, executor(get, store)), get);
    const userBuilder = (): Promise<UnauthenticatedUser> => Promise.resolve(new UnauthenticatedUser());
    self.tenant = { versions, rpc: jsonRpcHandler({ requestHandler: handler, userBuilder }) };
    tenants.set(token, self.tenant);
  }
  const tenantOf = (req: Request): Tenant | undefined =>
    tenants.get((req.header('authorization') ?? '').replace(/^Bearer /, ''));
  const card$ = agentCardHandler({ agentCardProvider: () => Promise.resolve(agentCard) });
  app.use('/.well-known/agent-card.json', card$);
  app.use('/rpc', express.json(), (req: Request, res: Response, next) => {
    const t = tenantOf(req);
    if (t === undefined) {
      res.status(401).json({
        jsonrpc: '2.0',
        id: req.body?.id ?? null,
        error: { code: -32001, message: 'A bearer token of this agent is required.' },
      });
      return;
    }
    if (req.body?.method !== TEACH_METHOD) {
      void t.rpc(req, res, next);
      return;
    }
    if (!(req.header('a2a-extensions') ?? '').includes(TINY_EXTENSION)) {
      res.json({
        jsonrpc: '2.0',
        id: req.body.id,
        error: {
          code: -32008,
          message: `${TEACH_METHOD} needs the header A2A-Extensions: ${TINY_EXTENSION}`,
        },
      });
      return;
    }
    res.setHeader('A2A-Extensions', TINY_EXTENSION);
    const outcome = teach(t, req.body.params);
    res.json(
      'result' in outcome
        ? { jsonrpc: '2.0', id: req.body.id, result: outcome.result }
        : { jsonrpc: '2.0', id: req.body.id, error: { code: -32602, message: outcome.error } },
    );
  });
  return {
    url,
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
