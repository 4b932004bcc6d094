/**
 * Wires the SDK for this agent: the request handler over the durable task store, the executor, the
 * card, and the express routers for JSON-RPC (with the Teach method in front), HTTP+JSON (REST) and
 * the well-known card, with the v0.3 compatibility layer.
 *
 * Owns reading the request body (json-body.ts: bounded, with the admission gate in front, refusals
 * in each transport's shape) and the SDK workarounds: the A2A-Extensions echo on JSON-RPC streaming (activation in the
 * context builder, SDK issue #710), tenant scoping through the owner resolver. Does not own
 * authentication: the caller mounts its bearer check in front and hands over `principalOf`.
 */
import express, { type Request, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { type AgentCard, SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  ServerCallContext,
  type A2ARequestHandler,
  STATE_HEADERS_KEY,
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContextBuilder,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, type UserBuilder } from '@a2a-js/sdk/server/express';
import { legacyAgentCardRouter } from '@a2a-js/sdk/compat/v0_3/server/express';
import type { Admission } from '../admission/admission.ts';
import type { Principal } from '../domain/authority/index.ts';
import { EXTENSION_URI, namesLearnables } from '../domain/extension.ts';
import type { LearnableDescriptor } from '../domain/learnables/index.ts';
import type { SubmitResult, TaskFiling } from '../domain/mail/index.ts';
import { agentCardJson, buildAgentCard, type AgentCardInput } from './agent-card.ts';
import { finishedWith, TriageExecutor } from './executor.ts';
import { ENDED } from './turn.ts';
import type { LessonSink, MailReader, TriagePort } from './ports.ts';
import { boundedJsonBody } from './json-body.ts';
import { recentTaskStore } from './recent-task-store.ts';
import { gateTeachBlocks } from './teach-block-gate.ts';
import { teachMethodRouter } from './teach-method.ts';
import { wordedErrors } from './worded-errors.ts';
import { PrincipalUser, tenantOwnerResolver } from './user.ts';

export interface A2AAppDeps {
  /** Base URL for the card's interfaces (read per request: known only once the server listens). */
  readonly baseUrl: () => string;
  readonly descriptors: readonly LearnableDescriptor[];
  readonly triage: TriagePort;
  readonly mail: MailReader;
  /** The SDK's task store; DatabaseTaskStore on the server's SQLite file in production. */
  readonly taskStore: (ownerResolver: typeof tenantOwnerResolver) => TaskStore;
  /** The embedded authority when this agent owns its definitions (§12.2); null with a remote one. */
  readonly lessons: LessonSink | null;
  /** The principal the bearer check in front of these routes authenticated. */
  readonly principalOf: (req: Request) => Principal;
  readonly legacyCompat?: boolean;
  /** Largest request body read, bytes (server.ts: a2aBodyLimit of MAX_MESSAGE_BYTES). */
  readonly bodyLimitBytes: number;
  /** Deepest JSON nesting read (MAX_JSON_DEPTH). Default 64. */
  readonly maxJsonDepth?: number;
  /** The process's admission gate, shared with the mail pipelines; none: only the body limit bounds. */
  readonly admission?: Admission;
  readonly log?: (message: string, cause: unknown) => void;
  /**
   * Other processes write the same task rows (replicas on one PostgreSQL): no copy of a recently
   * saved task is served, since another replica may have written the row since. Default false.
   */
  readonly sharedTasks?: boolean;
  /**
   * The durable push-notification configs (store/push-config-store.ts). With it the card
   * says `pushNotifications: true`; what a task owes is sent from the outbox its task store writes
   * (store/delivering-task-store.ts), never by the SDK's fire-and-forget sender. None: off.
   */
  readonly pushNotifications?: PushNotificationStore;
}

/** The SDK's sender is not used: the outbox, written with the task's state, sends. */
const OUTBOX_SENDS: PushNotificationSender = { send: () => Promise.resolve() };

export interface A2AApp {
  /** The card for the SDK's request handler (version checks). */
  readonly card: AgentCard;
  /** The card as served now, as wire JSON. */
  cardJson(): Record<string, unknown>;
  /** The SDK's request handler behind the §7 teach-block gate (teach-block-gate.ts). */
  readonly requestHandler: A2ARequestHandler;
  /** GET /.well-known/agent-card.json (public). */
  readonly cardRouter: Router;
  /** POST /a2a/jsonrpc: the bounded body, the Teach method, then the SDK's JSON-RPC handler. */
  readonly jsonRpcRouters: readonly Router[];
  /** /a2a/rest: the bounded body, then the SDK's REST handler. */
  readonly restRouter: Router;
  /** In-process triage_inbound for the mail pipelines (the same path as an A2A call). */
  submitMail(
    principal: Principal,
    raw: Buffer,
    source: { kind: string; name: string },
    /** The A2A context the task is created in (the intake's, one per message: ingest/intake.ts). */
    contextId?: string,
  ): Promise<SubmitResult>;
  /** The task's state now and what it was decided as (a mailbox files the mail by it). */
  taskFiling(principal: Principal, taskId: string): Promise<TaskFiling | null>;
  /** §14: forgets the copies of tasks saved in the last moment (an erase rewrote their rows). */
  forgetRecentTasks(): void;
}

/**
 * §7: activation decided before dispatch, so every transport echoes A2A-Extensions, including
 * JSON-RPC streaming, whose header the SDK writes before the executor runs (#710).
 */
const contextBuilder: ServerCallContextBuilder = ({
  extensions,
  user,
  headers,
  requestedVersion,
  tenant,
}) => {
  const context = new ServerCallContext({
    requestedExtensions: extensions,
    user,
    requestedVersion,
    tenant,
    state: new Map([[STATE_HEADERS_KEY, headers]]),
  });
  if (namesLearnables(extensions)) context.addActivatedExtension(EXTENSION_URI);
  return context;
};

export function createA2AApp(deps: A2AAppDeps): A2AApp {
  const log = deps.log ?? ((m: string, c: unknown) => console.error(m, c));
  const legacyCompat = deps.legacyCompat ?? true;
  const cardInput = (): AgentCardInput => ({
    baseUrl: deps.baseUrl(),
    descriptors: deps.descriptors,
    selfOwning: deps.lessons !== null,
    legacyCompat,
    pushNotifications: deps.pushNotifications !== undefined,
  });
  const card = buildAgentCard(cardInput());
  const cardJson = (): Record<string, unknown> => agentCardJson(cardInput());
  // Write-through: every save is durable as before; the SDK's re-reads of a task it has just saved
  // are answered from memory instead of the database.
  const taskStore = recentTaskStore(deps.taskStore(tenantOwnerResolver), {
    ownerResolver: tenantOwnerResolver,
    // Shared rows: no saved copy is served (every read of a saved task goes to the database).
    shared: deps.sharedTasks === true,
  });
  const executor = new TriageExecutor({
    triage: deps.triage,
    mail: deps.mail,
    descriptors: () => deps.descriptors,
    taskStore,
    newTask: (taskId, context) => taskStore.expectNew(taskId, context),
    log,
  });
  // §7: every route the transports serve goes through the gate, so a teach block reaches only a
  // request that activated the extension, whoever parked the task and however it is read.
  // No enum number reaches a person ("terminal state (3)"): worded-errors.ts.
  const requestHandler = gateTeachBlocks(
    wordedErrors(
      new DefaultRequestHandler(
        card,
        taskStore,
        executor,
        new DefaultExecutionEventBusManager(tenantOwnerResolver),
        deps.pushNotifications,
        deps.pushNotifications === undefined ? undefined : OUTBOX_SENDS,
      ),
    ),
  );
  const body = (transport: 'jsonrpc' | 'rest') =>
    boundedJsonBody({
      transport,
      limitBytes: deps.bodyLimitBytes,
      maxDepth: deps.maxJsonDepth ?? 64,
      ...(deps.admission === undefined ? {} : { admission: deps.admission }),
    });
  const userBuilder: UserBuilder = (req) => Promise.resolve(new PrincipalUser(deps.principalOf(req)));

  // The v1.0 card is served as written (AgentCard.toJSON would drop `required: false`, which §6.1
  // requires on the wire); v0.3 clients get the SDK's translation of the same card.
  const cardRouter = express.Router();
  if (legacyCompat) {
    cardRouter.use(
      legacyAgentCardRouter({
        agentCardProvider: () => Promise.resolve(buildAgentCard(cardInput())),
        cache: { maxAge: 60 },
      }),
    );
  }
  cardRouter.use(
    agentCardHandler({
      agentCardProvider: () => Promise.resolve(cardJson() as unknown as AgentCard),
      cache: { maxAge: 60 },
    }),
  );

  return {
    card,
    cardJson,
    requestHandler,
    cardRouter,
    jsonRpcRouters: [
      express.Router().use(body('jsonrpc')),
      teachMethodRouter({ sink: deps.lessons, card, userBuilder, contextBuilder, log }),
      jsonRpcHandler({
        requestHandler,
        userBuilder,
        contextBuilder,
        legacyCompat: { enabled: legacyCompat },
      }) as Router,
    ],
    restRouter: express.Router().use(
      body('rest'),
      restHandler({
        requestHandler,
        userBuilder,
        contextBuilder,
        legacyCompat: { enabled: legacyCompat },
      }) as Router,
    ),
    async submitMail(principal, raw, _source, contextId) {
      const context = contextBuilder({
        extensions: undefined,
        user: new PrincipalUser(principal),
        headers: {},
        requestedVersion: '1.0',
      });
      const request = SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          ...(contextId === undefined ? {} : { contextId }),
          role: 'ROLE_USER',
          parts: [{ raw: raw.toString('base64'), mediaType: 'message/rfc822', filename: 'message.eml' }],
        },
        configuration: { returnImmediately: false },
      });
      const result = await requestHandler.sendMessage(request, context);
      if (!('id' in result)) throw new Error('triage_inbound answered with a message instead of a task');
      return { taskId: result.id, state: submittedState(result) };
    },
    forgetRecentTasks: () => taskStore.forgetAll(),
    async taskFiling(principal, taskId) {
      const context = contextBuilder({
        extensions: undefined,
        user: new PrincipalUser(principal),
        headers: {},
        requestedVersion: '1.0',
      });
      const task = await taskStore.load(taskId, context);
      return task === undefined ? null : filingOf(task);
    },
  };
}

function filingOf(task: Task): TaskFiling {
  const filed = finishedWith(task)?.filedAs;
  const filedAs = new Map<string, string>();
  if (typeof filed === 'object' && filed !== null)
    for (const [k, v] of Object.entries(filed)) if (typeof v === 'string') filedAs.set(k, v);
  return { state: mailStateOf(task), filedAs };
}

/** Where a mail's task stands: asking, decided, ended otherwise (failed, rejected, canceled), or working. */
function mailStateOf(task: Task): TaskFiling['state'] {
  const state = task.status?.state;
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED) return 'input-required';
  if (state === TaskState.TASK_STATE_COMPLETED) return 'completed';
  return state !== undefined && ENDED.has(state) ? 'failed' : 'working';
}

/** A blocking SendMessage returns a task that asks or has ended: one still working counts as failed. */
function submittedState(task: Task): SubmitResult['state'] {
  const state = mailStateOf(task);
  return state === 'working' ? 'failed' : state;
}
