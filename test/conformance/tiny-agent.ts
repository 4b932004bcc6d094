/**
 * A second Learnables agent, in another domain, for the kit's own tests (issue 30): it files an
 * expense line under a cost centre by its vendor, and is taught vendors. It shares nothing with
 * this server but the SDK: JSON-RPC only, no streaming, no authority API (it owns its definitions
 * and takes lessons by the Teach method, §12.2; its history and rollback are two JSON-RPC methods
 * of its own), a tenant per token with tasks of its own, versions kept in memory and known by
 * definitionVersion alone (tiny-definitions.ts). Small, but it keeps the MUSTs the kit checks, so
 * the kit's verdict on it is its verdict on the kit.
 */
import { randomUUID } from 'node:crypto';
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
import { COLLECTION, Definitions } from './tiny-definitions.ts';

export const TINY_EXTENSION = 'https://rsaxb.com/a2a/learnables/v1';
const TEACH_METHOD = 'rsaxb.learnables.Teach';
const HISTORY_METHOD = 'expenses.History';
const ROLLBACK_METHOD = 'expenses.Rollback';

/** A tenant: its definitions and its own task store, behind its own JSON-RPC handler. */
interface Tenant {
  readonly definitions: Definitions;
  readonly rpc: ReturnType<typeof jsonRpcHandler>;
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
      const active = t.definitions.active;
      if (rc.task !== undefined) {
        // An answer, on the version the task was pinned to (§10.3).
        const pin: Wire = rc.task.metadata?.[TINY_EXTENSION];
        const pinned = t.definitions.at(Number(pin?.definitionVersion))!;
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
                      definitionVersion: pinned.definitionVersion,
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
        const winner = vendor === null ? null : Definitions.read(active, vendor);
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
          { centre: report, definitionVersion: active.definitionVersion },
          report.reads,
        );
        bus.finished();
        return;
      }
      const vendor = String(data.expense?.vendor ?? '');
      const centre = Definitions.read(active, vendor);
      if (centre !== null) {
        publishWhole(
          bus,
          rc,
          'TASK_STATE_COMPLETED',
          { centre: { settled: true, winner: centre }, definitionVersion: active.definitionVersion },
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
            metadata: { [TINY_EXTENSION]: { definitionVersion: active.definitionVersion, vendor } },
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
      entries: [...tenant().definitions.active.centres.keys()],
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

/** The methods that are not A2A's: Teach (§12.2, activation required), the history and the rollback. */
function ownMethod(t: Tenant, method: string, params: Wire): ReturnType<Definitions['teach']> {
  if (method === TEACH_METHOD) return t.definitions.teach(params);
  if (method === HISTORY_METHOD) return { result: { history: t.definitions.history() } };
  return t.definitions.rollback(params);
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
    const definitions = new Definitions(
      new Map([
        ['travel', ['Skyline Taxis']],
        ['office', ['Paper & Co']],
      ]),
    );
    const self: { tenant?: Tenant } = {};
    const get = (): Tenant => self.tenant!;
    const handler = withTeachBlock(new DefaultRequestHandler(agentCard, store, executor(get, store)), get);
    const userBuilder = (): Promise<UnauthenticatedUser> => Promise.resolve(new UnauthenticatedUser());
    self.tenant = { definitions, rpc: jsonRpcHandler({ requestHandler: handler, userBuilder }) };
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
    const method = String(req.body?.method);
    if (![TEACH_METHOD, HISTORY_METHOD, ROLLBACK_METHOD].includes(method)) {
      void t.rpc(req, res, next);
      return;
    }
    if (method === TEACH_METHOD && !(req.header('a2a-extensions') ?? '').includes(TINY_EXTENSION)) {
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
    const outcome = ownMethod(t, method, req.body.params);
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
