/**
 * What a task's save owes to those who asked to be told: the bodies of its push
 * notifications and of the tenant's delivery webhooks, built once when the task enters
 * input-required or ends, and stored with the state (store/delivering-task-store.ts).
 *
 * A push body is the A2A `StreamResponse` carrying the task (A2A 1.0, the SDK's V1 wire JSON), its
 * history left out: the mail is not sent around, the status message (the question) and the
 * artifacts (the decision) are. A webhook body is a Standard Webhooks event: `type`, `timestamp`,
 * and that same StreamResponse as `data`. §7: each comes twice, with the teach block for a target
 * created with the extension activated and without it for any other.
 */
import { StreamResponse, TaskState, type Task } from '@a2a-js/sdk';
import type { DeliveryBodies, DeliveryEvent } from '../domain/delivery.ts';
import { SKILL_RECHECK } from './agent-card.ts';
import { finishedWith } from './executor.ts';
import { ENDED } from './turn.ts';
import { taskWithoutTeach } from './teach-block-gate.ts';
import { stateInWords } from './worded-errors.ts';

/** The event a task in this state is delivered as, or null when no one is told. */
export function deliveryEventOf(task: Task): DeliveryEvent | null {
  const state = task.status?.state;
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED) return 'input-required';
  if (state !== undefined && ENDED.has(state)) return 'decided';
  return null;
}

export function deliveryBodies(task: Task): DeliveryBodies | null {
  const event = deliveryEventOf(task);
  if (event === null) return null;
  const shown: Task = { ...task, history: [] };
  const activated = pushBody(shown);
  const plain = pushBody(taskWithoutTeach(shown));
  const timestamp = task.status?.timestamp ?? new Date().toISOString();
  const type = event === 'input-required' ? 'task.input_required' : 'task.decided';
  const webhook = (data: string) =>
    `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"state":${JSON.stringify(stateInWords(task.status?.state ?? 0))},"data":${data}}`;
  return {
    event,
    key: `${task.id}.${event}.${Date.parse(timestamp) || 0}`,
    push: { activated, plain },
    ...(isShowBack(task) ? {} : { webhook: { activated: webhook(activated), plain: webhook(plain) } }),
  };
}

/** A recheck_message task (§11): it decides no mail, so mail pipelines' webhooks are not told of it. */
function isShowBack(task: Task): boolean {
  return finishedWith(task)?.skill === SKILL_RECHECK;
}

function pushBody(task: Task): string {
  return JSON.stringify(StreamResponse.toJSON({ payload: { $case: 'task', value: task } }));
}
