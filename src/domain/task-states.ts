/**
 * The A2A task states as every layer names them: the SDK's enum names, which are also what its task
 * store writes in `status_state` (taskStateToJSON). One vocabulary for the executor, the stores and
 * the mail pipelines, so "finished" cannot mean one set in one place and another set in the next.
 */

/** Nothing follows these: the task is over. */
export const TERMINAL_STATES = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_CANCELED',
] as const;

/** The task waits for an answer (§8), written whole and read again when one comes. */
export const PARKED_STATE = 'TASK_STATE_INPUT_REQUIRED';

/** Nothing is writing the task from memory: parked or over. */
export const SETTLED_STATES = [PARKED_STATE, ...TERMINAL_STATES] as const;

/** A process is (or was, until it stopped) still working on the task. */
export const UNFINISHED_STATES = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'] as const;

export type SettledState = (typeof SETTLED_STATES)[number];
