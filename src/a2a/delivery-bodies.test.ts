// Invariant (issue 40, §7): what a task owes is built once per state it enters: a question's body keeps its teach block only for a target created activated, the mail itself (history) never travels, and a show-back (recheck_message) decides no mail, so the tenant's delivery webhooks are not told of it.
import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../domain/extension.ts';
import { SKILL_RECHECK, SKILL_TRIAGE } from './agent-card.ts';
import { deliveryBodies } from './delivery-bodies.ts';

function task(state: TaskState, ours: Record<string, unknown>): Task {
  return {
    id: 't1',
    contextId: 'c1',
    status: {
      state,
      timestamp: '2026-12-05T10:00:00.000Z',
      message: {
        messageId: 'm1',
        contextId: 'c1',
        taskId: 't1',
        role: Role.ROLE_AGENT,
        parts: [],
        metadata: { [EXTENSION_URI]: ours },
        extensions: [EXTENSION_URI],
        referenceTaskIds: [],
      },
    },
    artifacts: [],
    history: [
      {
        messageId: 'u1',
        contextId: 'c1',
        taskId: 't1',
        role: Role.ROLE_USER,
        parts: [
          { content: { $case: 'text', value: 'RAW MAIL' }, metadata: undefined, filename: '', mediaType: '' },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    ],
    metadata: undefined,
  } as unknown as Task;
}

describe('delivery bodies', () => {
  it('keeps the teach block only in the activated body, and never the mail', () => {
    const b = deliveryBodies(task(TaskState.TASK_STATE_INPUT_REQUIRED, { teach: { collection: 'x' } }))!;
    expect(b.event).toBe('input-required');
    expect(b.push.activated).toContain('"teach"');
    expect(b.push.plain).not.toContain('"teach"');
    expect(b.webhook!.plain).not.toContain('"teach"');
    expect(b.push.activated).not.toContain('RAW MAIL');
  });

  it('tells webhooks of a triage that ended, not of a show-back', () => {
    expect(
      deliveryBodies(task(TaskState.TASK_STATE_COMPLETED, { skill: SKILL_TRIAGE }))!.webhook,
    ).toBeDefined();
    const shown = deliveryBodies(task(TaskState.TASK_STATE_COMPLETED, { skill: SKILL_RECHECK }))!;
    expect(shown.event).toBe('decided');
    expect(shown.webhook).toBeUndefined();
  });

  it('owes nothing while a task works', () => {
    expect(deliveryBodies(task(TaskState.TASK_STATE_WORKING, {}))).toBeNull();
  });
});
