/**
 * One call of the executor (executor.ts) as the SDK's events, in the order the SDK requires, and
 * the parts and messages they carry. The terminal states (`ENDED`) are the A2A spelling of
 * domain/task-states.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Artifact, Message, Part, Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { Clock } from '../domain/clock.ts';
import { TERMINAL_STATES } from '../domain/task-states.ts';

/**
 * The terminal states: nothing follows them. A new task reaching one in its first turn is published
 * whole; a task entering one is delivered as decided (delivery-bodies.ts).
 */
export const ENDED: ReadonlySet<TaskState> = new Set(TERMINAL_STATES.map((name) => TaskState[name]));

/**
 * One call of execute: publishes the SDK's events in the order it requires. A new task's first event
 * waits until the turn has something more to say, so an artifact made before then travels inside it
 * instead of as an event of its own: the SDK saves the whole task once per event, and a task read
 * at once is then saved twice (task with its reading, final status) instead of three times.
 */
export class Turn {
  private published = false;
  /** The first event of a new task, not yet published. */
  private pending: { metadata: Record<string, unknown> | undefined; artifacts: Artifact[] } | null = null;

  constructor(
    readonly rc: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly clock: Clock,
  ) {}

  /** A new task: its first event goes out with the next status (and any artifact made before it). */
  begin(metadata: Record<string, unknown> | undefined): void {
    if (this.published || this.pending !== null) throw new Error('Turn.begin: the task has begun');
    this.pending = { metadata, artifacts: [] };
  }

  /** Publishes the new task's first event if it is still waiting. */
  flush(): void {
    if (this.published) return;
    const pending = this.pending ?? { metadata: undefined, artifacts: [] };
    this.pending = null;
    this.bus.publish(
      AgentEvent.task({
        id: this.rc.taskId,
        contextId: this.rc.contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: this.clock.now() },
        artifacts: pending.artifacts,
        history: [this.rc.userMessage],
        metadata: pending.metadata,
      }),
    );
    this.published = true;
  }

  /**
   * A new task that ends in its first turn is published once, whole, in its terminal state: the SDK
   * saves the task on every event (ResultManager.processEvent, @a2a-js/sdk 1.3), so a task event
   * then a final status update wrote the task twice. The task stored is the one the two events
   * made (the status message last in its history, the status metadata over the task's), and a
   * streaming client sees that one Task, which is terminal; the stream ends when the executor
   * returns. A task that parks (input-required) keeps its two events: the SDK keeps that bus open
   * and ends the stream only on a status update.
   */
  private whole(
    state: TaskState,
    message: Message | undefined,
    metadata: Record<string, unknown> | undefined,
  ): void {
    const pending = this.pending!;
    this.pending = null;
    const merged =
      pending.metadata === undefined && metadata === undefined
        ? undefined
        : { ...pending.metadata, ...metadata };
    this.bus.publish(
      AgentEvent.task({
        id: this.rc.taskId,
        contextId: this.rc.contextId,
        status: { state, message, timestamp: this.clock.now() },
        artifacts: pending.artifacts,
        history: message === undefined ? [this.rc.userMessage] : [this.rc.userMessage, message],
        metadata: merged,
      }),
    );
    this.published = true;
  }

  /** First events of a resumed task: the stored task, then working. */
  resumed(task: Task): void {
    this.bus.publish(AgentEvent.task(task));
    this.published = true;
    this.status(TaskState.TASK_STATE_WORKING, undefined, undefined);
  }

  status(
    state: TaskState,
    message: Message | undefined,
    metadata: Record<string, unknown> | undefined,
  ): void {
    if (this.pending !== null && ENDED.has(state)) {
      this.whole(state, message, metadata);
      return;
    }
    this.flush();
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.rc.taskId,
        contextId: this.rc.contextId,
        status: { state, message, timestamp: this.clock.now() },
        metadata,
      }),
    );
  }

  artifact(name: string, description: string, parts: Part[], extensions: string[] = []): void {
    const artifact: Artifact = {
      artifactId: randomUUID(),
      name,
      description,
      parts,
      metadata: undefined,
      extensions,
    };
    if (this.pending !== null) {
      this.pending.artifacts.push(artifact);
      return;
    }
    this.flush();
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.rc.taskId,
        contextId: this.rc.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
  }

  /** A terminal state with a message in words; `metadata` goes on the status message. */
  finish(state: TaskState, text: string, metadata: Record<string, unknown> | undefined): void {
    this.status(
      state,
      agentMessage(this.rc.taskId, this.rc.contextId, [textPart(text)], metadata, []),
      undefined,
    );
  }
}

export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  };
}

export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

export function agentMessage(
  taskId: string,
  contextId: string,
  parts: Part[],
  metadata?: Record<string, unknown>,
  extensions: string[] = [],
): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    taskId,
    contextId,
    parts,
    metadata,
    extensions,
    referenceTaskIds: [],
  };
}
