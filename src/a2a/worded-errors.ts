/**
 * Rewords the SDK's request-handler errors that leak enum numbers ("Task … is in a terminal state
 * (3) and cannot be modified") into a sentence a person can act on, on every route and
 * transport: the wrapper sits around the request handler itself, like the teach-block gate.
 * Also a write the disk refused (full, read-only): its sentence rather than the driver's.
 * Owns the wording, and one code: a push notification config that does not exist on a task that
 * does is not TASK_NOT_FOUND, as the SDK answers, but a malformed request naming the config (issue
 * 50). Everything else passes through untouched.
 */
import { TaskState } from '@a2a-js/sdk';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { storageFault } from '../domain/storage-fault.ts';

const TERMINAL = /^Task (\S+) is in a terminal state \((\d+)\) and cannot be (modified|subscribed to)\.?$/;
/** The SDK's two sentences for a config missing from a task it has found (task_not_found otherwise). */
const NO_CONFIG = /^Push notification config (?:with id '(.*)' not found|not found) for task (\S+?)\.?$/;

/** "TASK_STATE_COMPLETED" → "completed"; an unknown number stays "finished". */
export function stateInWords(state: number): string {
  const name = (TaskState as unknown as Record<number, string | undefined>)[state];
  return name === undefined
    ? 'finished'
    : name
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replace(/_/g, ' ');
}

/** The same error, its message in words when it is one the SDK numbers. */
export function reworded(e: unknown, requestedId?: string): unknown {
  if (!(e instanceof Error)) return e;
  // A task row the disk refused to store: the SDK would send the driver's sentence ("database or
  // disk is full") as an internal error; the caller gets ours (domain/storage-fault.ts).
  const storage = storageFault(e);
  if (storage !== null) return storage;
  const missing = NO_CONFIG.exec(e.message);
  if (missing !== null) {
    const [, named, taskId] = missing;
    const id = named ?? requestedId;
    return new RequestMalformedError(
      `Task ${taskId} has no push notification config${id === undefined ? '' : ` with id '${id}'`}. ` +
        "List the task's configs with ListTaskPushNotificationConfigs, or create one with CreateTaskPushNotificationConfig.",
    );
  }
  const m = TERMINAL.exec(e.message);
  if (m === null) return e;
  const [, taskId, state, what] = m;
  e.message =
    what === 'modified'
      ? `Task ${taskId} has already ended (${stateInWords(Number(state))}) and takes no more messages. To triage another message, send it without a taskId: it starts a new task.`
      : `Task ${taskId} has already ended (${stateInWords(Number(state))}), so there is nothing to subscribe to. Read it with GetTask instead.`;
  return e;
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === 'object' && v !== null && Symbol.asyncIterator in v && !(v instanceof Promise);
}

async function* rewordedStream(stream: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  try {
    yield* stream;
  } catch (e) {
    throw reworded(e);
  }
}

export function wordedErrors(handler: A2ARequestHandler): A2ARequestHandler {
  return new Proxy(handler, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        // The id a request names (a push notification config's), for a sentence that names it.
        const named: unknown = (args[0] as { id?: unknown } | undefined)?.id;
        const id = typeof named === 'string' && named !== '' ? named : undefined;
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          throw reworded(e, id);
        }
        if (result instanceof Promise)
          return result.catch((e: unknown) => {
            throw reworded(e, id);
          });
        if (isAsyncIterable(result)) return rewordedStream(result);
        return result;
      };
    },
  });
}
