// Invariant (§7): for a request that has not activated the extension, the gate removes every teach
// block (status message, history, stream events) and nothing else, and never mutates what the
// SDK's handler returned; for an activated request it returns the very same objects.
import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../domain/extension.ts';
import { messageWithoutTeach, taskWithoutTeach } from './teach-block-gate.ts';

function message(metadata: Message['metadata'], extensions: string[]): Message {
  return {
    messageId: 'm1',
    contextId: 'c1',
    taskId: 't1',
    role: Role.ROLE_AGENT,
    parts: [],
    metadata,
    extensions,
    referenceTaskIds: [],
  };
}

const teach = { collection: 'customers', entries: ['northgate'] };

describe('messageWithoutTeach (§7)', () => {
  it('drops the teach block and the extension from a message that carried only it', () => {
    const m = message({ [EXTENSION_URI]: { teach }, other: 1 }, [EXTENSION_URI, 'urn:x']);
    const out = messageWithoutTeach(m);
    expect(out.metadata).toEqual({ other: 1 });
    expect(out.extensions).toEqual(['urn:x']);
    expect(m.metadata?.[EXTENSION_URI]).toEqual({ teach }); // not mutated
  });

  it('keeps the rest of the extension metadata and the extension in the list', () => {
    const m = message({ [EXTENSION_URI]: { teach, note: 'kept' } }, [EXTENSION_URI]);
    const out = messageWithoutTeach(m);
    expect(out.metadata).toEqual({ [EXTENSION_URI]: { note: 'kept' } });
    expect(out.extensions).toEqual([EXTENSION_URI]);
  });

  it('returns the same message when it carries no teach block', () => {
    const m = message({ [EXTENSION_URI]: { error: 'x' } }, []);
    expect(messageWithoutTeach(m)).toBe(m);
    const bare = message(undefined, []);
    expect(messageWithoutTeach(bare)).toBe(bare);
  });
});

describe('taskWithoutTeach (§7)', () => {
  it('strips the status message and every message of the history, leaving the task metadata', () => {
    const asked = message({ [EXTENSION_URI]: { teach } }, [EXTENSION_URI]);
    const task: Task = {
      id: 't1',
      contextId: 'c1',
      status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: asked, timestamp: undefined },
      artifacts: [],
      history: [message(undefined, []), asked],
      metadata: { [EXTENSION_URI]: { asking: 'customers' } },
    };
    const out = taskWithoutTeach(task);
    expect(JSON.stringify(out)).not.toContain('"teach"');
    expect(out.metadata).toBe(task.metadata);
    expect(out.history[0]).toBe(task.history[0]);
    expect(JSON.stringify(task)).toContain('"teach"'); // not mutated
    const clean = { ...task, status: { ...task.status!, message: undefined }, history: [] };
    expect(taskWithoutTeach(clean)).toBe(clean);
  });
});
