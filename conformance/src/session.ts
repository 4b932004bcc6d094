/**
 * What the checks share in one run: the agent, the adapter, the recorder, a fresh id for each
 * input, and the two ways a lesson is written (the adapter's authority, or the card's Teach method).
 */
import { randomUUID } from 'node:crypto';
import type { ConformanceAdapter, Lesson, LessonDraft, Question, TeachOutcome, Wire } from './adapter.ts';
import { stateOf, teachBlocks, type Agent, type Channel } from './agent.ts';
import type { Recorder } from './report.ts';
import { resultVersion, versionRef, type VersionRef } from './versions.ts';

export interface Session {
  readonly agent: Agent;
  readonly adapter: ConformanceAdapter;
  readonly r: Recorder;
  /** The extension's declaration on the card. */
  readonly declaration: Wire;
  readonly taughtBy: string;
  /** What the kit has seen of the agent's versions through the results of its lessons. */
  readonly seen: {
    /** The version the last result named: the one active now, as far as the kit has seen. */
    active: VersionRef | undefined;
    /**
     * The highest definitionVersion the kit has seen: in a result, or before the first lesson in the
     * history, the pin or show-back (§10.4: monotonic).
     */
    highest: number | undefined;
    /** Every `learned: true` of the run, and what was wrong with the ones whose definitionVersion did not rise. */
    learned: number;
    notRising: string[];
  };
  /** A new input id, unique to this run. */
  freshId(label: string): string;
}

export function openSession(
  agent: Agent,
  adapter: ConformanceAdapter,
  r: Recorder,
  declaration: Wire,
  taughtBy: string,
): Session {
  const run = randomUUID().slice(0, 8);
  let n = 0;
  return {
    agent,
    adapter,
    r,
    declaration,
    taughtBy,
    seen: { active: undefined, highest: undefined, learned: 0, notRising: [] },
    freshId: (label) => `${run}-${label}-${++n}`,
  };
}

/** The card's Teach method (§12.2), or null when the agent does not own its definitions. */
export function teachMethod(s: Session): string | null {
  const m: unknown = s.declaration?.params?.teachMethod;
  return typeof m === 'string' && m !== '' ? m : null;
}

/** The JSON-RPC endpoint the Teach method is called on: the card's JSONRPC interface. */
export function jsonRpcUrl(s: Session): string | null {
  return s.agent.channels.find((c) => c.binding === 'JSONRPC' && c.protocolVersion === '1.0')?.url ?? null;
}

/** Whether lessons can be written at all: through the adapter, or the card's Teach method. */
export function canTeach(s: Session): boolean {
  return s.adapter.teach !== undefined || (teachMethod(s) !== null && jsonRpcUrl(s) !== null);
}

/** The version a task runs on or is pinned to, as the adapter reads it (§10.3); undefined when it cannot. */
export function versionOf(s: Session, task: Wire): VersionRef | undefined {
  return versionRef(s.adapter.versionOf?.(task));
}

/**
 * Writes a lesson as the kit's person: through the adapter when it knows the authority, else the
 * Teach method with the extension activated. `token: null` writes with no credentials (§13.2);
 * `anonymous` leaves `taughtBy` out (§9 requires it, so the agent must refuse).
 */
export async function teach(
  s: Session,
  draft: LessonDraft,
  token?: string | null,
  options: { readonly anonymous?: boolean } = {},
): Promise<TeachOutcome> {
  const lesson = (options.anonymous === true ? { ...draft } : { ...draft, taughtBy: s.taughtBy }) as Lesson;
  const outcome = await (s.adapter.teach !== undefined
    ? s.adapter.teach(lesson, s.agent.context, token)
    : callTeachMethod(s, lesson, { token, activate: true }));
  if (outcome.ok) {
    const v = resultVersion(outcome.result);
    if (outcome.result?.learned === true) judgeRise(s, v.definitionVersion, draft);
    if (v.versionId !== undefined || v.definitionVersion !== undefined) s.seen.active = v;
    seeVersion(s, v.definitionVersion);
  }
  return outcome;
}

/** Counts a definitionVersion as seen (§10.4: every later `learned: true` must be higher). */
export function seeVersion(s: Session, n: number | undefined): void {
  if (n !== undefined) s.seen.highest = Math.max(s.seen.highest ?? n, n);
}

/** §10.4 monotonic, for every `learned: true` of the run (re-teaching after a rollback included). */
function judgeRise(s: Session, n: number | undefined, draft: LessonDraft): void {
  s.seen.learned++;
  const highest = s.seen.highest;
  if (n !== undefined && highest !== undefined && n <= highest)
    s.seen.notRising.push(
      `the lesson for ${draft.collection}/${draft.entry} came back learned: true with definitionVersion ${n}, not higher than ${highest}, a version seen before it (a definitionVersion is monotonic)`,
    );
}

export async function callTeachMethod(
  s: Session,
  lesson: Lesson,
  options: { token?: string | null | undefined; activate: boolean },
): Promise<TeachOutcome & { echoed: string | null }> {
  const method = teachMethod(s);
  const url = jsonRpcUrl(s);
  if (method === null || url === null)
    throw new Error('the card declares no teachMethod on a JSONRPC interface');
  const call = { jsonrpc: '2.0', id: 1, method, params: lesson };
  const answer = await s.agent.context.call('POST', url, call, options);
  const echoed = answer.headers.get('A2A-Extensions');
  if (answer.status === 200 && answer.body?.result !== undefined)
    return { ok: true, result: answer.body.result, echoed };
  const reason =
    answer.body?.error?.message ??
    (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
  return { ok: false, status: answer.status, reason: String(reason), echoed };
}

/**
 * Sends the adapter's undecidable input on `channel`; the question when the task parked in
 * input-required, else an Error saying what came back instead.
 */
export async function park(
  s: Session,
  channel: Channel,
  label: string,
  activate: boolean,
): Promise<Question & { echoed: string | null }> {
  const id = s.freshId(label);
  const reply = await channel.send(s.adapter.undecidable(id), { activate });
  const task = reply.value;
  if (stateOf(task) !== 'TASK_STATE_INPUT_REQUIRED') {
    throw new Error(
      `the adapter's undecidable input ${id} did not park on ${channel.name}: it came back ${stateOf(task) ?? JSON.stringify(task).slice(0, 200)}`,
    );
  }
  return { id, task, teach: teachBlocks(task.status?.message)[0]?.block, echoed: reply.echoed };
}
