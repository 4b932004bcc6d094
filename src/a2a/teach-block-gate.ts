/**
 * §7 at the boundary, per request: "An agent MUST NOT emit a teach block to a client that has not
 * activated the extension". A request handler around the SDK's that, for a call whose context has
 * not activated the extension, takes every teach block out of what the call returns: the task of
 * GetTask, CancelTask and SendMessage, each task of ListTasks, and every event of SendStreamingMessage
 * and of a resubscription (SubscribeToTask), in the status message and in the history alike.
 *
 * Why here and not in the stored task: activation belongs to a request, not to a task. The stored
 * task keeps the one teach block its question was asked with, whoever asked it; a reader who
 * activated sees it, one who did not never does, on every transport and read route the SDK has
 * (JSON-RPC, HTTP+JSON and the v0.3 layer all call this handler).
 *
 * Deliberately does not: decide activation (the context builder does, and the transports echo it),
 * build or check a teach block (teach-block.ts), or touch anything else under the extension URI
 * (the task's pin and answers, a show-back's report). It never mutates what the inner handler
 * returns: a live event is shared with every subscriber of the task, activated or not.
 */
import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { EXTENSION_URI, namesLearnables } from '../domain/extension.ts';
import { isPlainObject } from '../domain/json.ts';

/** True when the call activated the extension (what the response header echoes, §7). */
function activatedLearnables(context: ServerCallContext): boolean {
  return namesLearnables(context.activatedExtensions);
}

export function gateTeachBlocks(inner: A2ARequestHandler): A2ARequestHandler {
  const task = (t: Task, c: ServerCallContext): Task => (activatedLearnables(c) ? t : taskWithoutTeach(t));
  return {
    getAgentCard: () => inner.getAgentCard(),
    getAuthenticatedExtendedAgentCard: (p, c) => inner.getAuthenticatedExtendedAgentCard(p, c),
    async sendMessage(p, c) {
      const r = await inner.sendMessage(p, c);
      if (activatedLearnables(c)) return r;
      return 'id' in r ? taskWithoutTeach(r) : messageWithoutTeach(r);
    },
    sendMessageStream: (p, c) => gateStream(inner.sendMessageStream(p, c), c),
    getTask: async (p, c) => task(await inner.getTask(p, c), c),
    cancelTask: async (p, c) => task(await inner.cancelTask(p, c), c),
    async listTasks(p, c) {
      const r = await inner.listTasks(p, c);
      return activatedLearnables(c) ? r : { ...r, tasks: r.tasks.map(taskWithoutTeach) };
    },
    resubscribe: (p, c) => gateStream(inner.resubscribe(p, c), c),
    createTaskPushNotificationConfig: (p, c) => inner.createTaskPushNotificationConfig(p, c),
    getTaskPushNotificationConfig: (p, c) => inner.getTaskPushNotificationConfig(p, c),
    listTaskPushNotificationConfigs: (p, c) => inner.listTaskPushNotificationConfigs(p, c),
    deleteTaskPushNotificationConfig: (p, c) => inner.deleteTaskPushNotificationConfig(p, c),
  };
}

async function* gateStream(
  events: AsyncGenerator<StreamResponse, void, undefined>,
  context: ServerCallContext,
): AsyncGenerator<StreamResponse, void, undefined> {
  // Activation is read per event: the executor may activate only once it runs (REST streaming).
  for await (const event of events) yield activatedLearnables(context) ? event : eventWithoutTeach(event);
}

function eventWithoutTeach(event: StreamResponse): StreamResponse {
  const p = event.payload;
  switch (p?.$case) {
    case 'task':
      return { ...event, payload: { $case: 'task', value: taskWithoutTeach(p.value) } };
    case 'message':
      return { ...event, payload: { $case: 'message', value: messageWithoutTeach(p.value) } };
    case 'statusUpdate': {
      const status = p.value.status;
      if (status?.message === undefined) return event;
      const message = messageWithoutTeach(status.message);
      if (message === status.message) return event;
      return {
        ...event,
        payload: { $case: 'statusUpdate', value: { ...p.value, status: { ...status, message } } },
      };
    }
    default:
      return event; // artifacts never carry a teach block
  }
}

/** The task as a client that has not activated may see it; the same object when nothing changes. */
export function taskWithoutTeach(task: Task): Task {
  const statusMessage = task.status?.message;
  const message = statusMessage === undefined ? undefined : messageWithoutTeach(statusMessage);
  const history = task.history.map(messageWithoutTeach);
  const changed = message !== statusMessage || history.some((m, i) => m !== task.history[i]);
  if (!changed) return task;
  return {
    ...task,
    status: task.status === undefined ? undefined : { ...task.status, message },
    history,
  };
}

/**
 * The message without the teach block under the extension URI (§8); the rest of that metadata is
 * kept. When nothing of the extension is left, the message no longer lists it either (A2A §4.6.2).
 */
export function messageWithoutTeach(message: Message): Message {
  const ours: unknown = message.metadata?.[EXTENSION_URI];
  if (!isPlainObject(ours) || !Object.hasOwn(ours, 'teach')) return message;
  const rest = Object.fromEntries(Object.entries(ours).filter(([k]) => k !== 'teach'));
  const others = Object.entries(message.metadata ?? {}).filter(([k]) => k !== EXTENSION_URI);
  const keep = Object.keys(rest).length > 0;
  const metadata = Object.fromEntries(keep ? [...others, [EXTENSION_URI, rest]] : others);
  return {
    ...message,
    metadata: Object.keys(metadata).length === 0 ? undefined : metadata,
    extensions: keep ? message.extensions : message.extensions.filter((u) => u !== EXTENSION_URI),
  };
}
