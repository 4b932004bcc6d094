/**
 * The baseline of the server benchmark: a minimal A2A agent on the same SDK and transport as the
 * real server (express 5, @a2a-js/sdk DefaultRequestHandler, jsonRpcHandler on /a2a/jsonrpc) whose
 * executor does no work: every message becomes a task that completes at once. The ratio of the
 * real server's throughput to this one's is what triage costs.
 *
 * Run as its own process: `node --import tsx bench/minimal-agent.ts` with PORT (default 0); prints
 * "listening on <url>".
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { openDatabase } from '../src/store/database.ts';
import { AgentCard, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

class CompleteAtOnce implements AgentExecutor {
  execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const now = new Date().toISOString();
    bus.publish(
      AgentEvent.task({
        id: rc.taskId,
        contextId: rc.contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: {
            messageId: randomUUID(),
            role: 2, // ROLE_AGENT
            taskId: rc.taskId,
            contextId: rc.contextId,
            parts: [
              {
                content: { $case: 'text', value: 'Read.' },
                mediaType: 'text/plain',
                filename: '',
                metadata: undefined,
              },
            ],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
          timestamp: now,
        },
        artifacts: [],
        history: [rc.userMessage],
        metadata: undefined,
      }),
    );
    return Promise.resolve();
  }

  cancelTask(): Promise<void> {
    return Promise.resolve();
  }
}

export async function startMinimalAgent(
  port = 0,
  host = '127.0.0.1',
  /** A SQLite file: keep tasks in the SDK's DatabaseTaskStore there, as the real server does. */
  durableFile?: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(port, host, ok));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    name: 'Minimal agent',
    description: 'Completes every task at once (benchmark baseline).',
    supportedInterfaces: [{ url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    version: '0.0.0',
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    defaultInputModes: ['message/rfc822'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  const db = durableFile === undefined ? null : await openDatabase({ file: durableFile });
  const store = db === null ? new InMemoryTaskStore() : new DatabaseTaskStore(db);
  const handler = new DefaultRequestHandler(card, store, new CompleteAtOnce());
  const app = express();
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  server.on('request', app);
  return {
    url,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1]?.endsWith('minimal-agent.ts') === true) {
  const agent = await startMinimalAgent(
    Number(process.env.PORT ?? 0),
    '127.0.0.1',
    process.env.DURABLE_FILE === undefined || process.env.DURABLE_FILE === ''
      ? undefined
      : process.env.DURABLE_FILE,
  );
  process.stdout.write(`minimal agent listening on ${agent.url}\n`);
  process.once('SIGTERM', () => void agent.close().then(() => process.exit(0)));
}
