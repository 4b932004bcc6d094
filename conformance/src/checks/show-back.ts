/**
 * §11 show-back: a read-only re-reading of an input under the definition active now. It does not
 * ask (the task does not wait for input) and proposes nothing (no teach block); its report says
 * settled or unsettled, never only that something was saved; and it is not pinned to an earlier
 * version, so a lesson that settles the input shows as settled.
 */
import type { Question, Wire } from '../adapter.ts';
import { stateOf, teachBlocks, type Channel } from '../agent.ts';
import { versionOf, type Session } from '../session.ts';
import { named, sameVersion, type VersionRef } from '../versions.ts';

export interface ShowBack {
  readonly task: Wire;
  /** Every `settled` flag in the report's data, in order. */
  readonly flags: readonly boolean[];
}

/** Shows back `q`'s input and checks §11's MUSTs of any show-back; null when the adapter has none. */
export async function showBack(
  s: Session,
  c: Channel,
  q: Question,
  when: 'before' | 'after',
): Promise<ShowBack | null> {
  const request = s.adapter.showBack;
  if (request === undefined || request === null) return null;
  const task = (await c.send(request(q.task), { activate: true })).value;
  const flags = settledFlags(task);
  const asked = stateOf(task) === 'TASK_STATE_INPUT_REQUIRED' || teachBlocks(task).length > 0;
  s.r.verdict(
    `showback.no-question.${when}`,
    '§11',
    asked ? `show-back ${when} the lesson asked a question (${stateOf(task)}) or proposed a lesson` : null,
    `show-back ${when} the lesson ended ${stateOf(task)} without a question or a teach block`,
  );
  s.r.verdict(
    `showback.settled-or-unsettled.${when}`,
    '§11',
    flags.length === 0
      ? `show-back ${when} the lesson reports no settled or unsettled reading, only ${JSON.stringify(reportOf(task)).slice(0, 160)}`
      : null,
    `show-back ${when} the lesson reports ${flags.map((f) => (f ? 'settled' : 'unsettled')).join(', ')}`,
  );
  return { task, flags };
}

/** §11 not pinned: after a lesson that settles the input, show-back reads it settled where it did not before. */
export function checkShowBackMoved(
  s: Session,
  before: ShowBack | null,
  after: ShowBack | null,
  taughtVersion: VersionRef | undefined,
): void {
  const id = 'showback.current-version';
  if (s.adapter.showBack === null) {
    s.r.na(id, '§11', 'the adapter says this agent has no show-back (§11 is a SHOULD)');
    return;
  }
  if (before === null || after === null) {
    s.r.skip(
      id,
      '§11',
      s.adapter.showBack === undefined ? 'the adapter gives no show-back request' : 'show-back did not run',
    );
    return;
  }
  const unsettled = (b: ShowBack): number => b.flags.filter((f) => !f).length;
  const shownOn = versionOf(s, after.task);
  const problem =
    before.flags.length === 0 || after.flags.length === 0
      ? 'show-back reports no settled or unsettled reading, so what the lesson changed cannot be seen'
      : unsettled(before) === 0
        ? "before the lesson show-back already read the input as settled: the adapter's input was not undecidable"
        : unsettled(after) >= unsettled(before)
          ? `after the lesson show-back still reads ${unsettled(after)} unsettled reading(s), as before it: not the active version`
          : sameVersion(shownOn, taughtVersion) === false
            ? `show-back ran on ${named(shownOn)}, not the version the last lesson made active (${named(taughtVersion)})`
            : null;
  s.r.verdict(
    id,
    '§11',
    problem,
    `the lesson's effect shows: ${unsettled(before)} unsettled reading(s) before, ${unsettled(after)} after`,
  );
}

/** The data parts of a task's artifacts (or of a reply message), as one list. */
export function reportOf(task: Wire): Wire[] {
  const parts: Wire[] = [
    ...(Array.isArray(task?.artifacts) ? task.artifacts.flatMap((a: Wire) => a?.parts ?? []) : []),
    ...(task?.message?.parts ?? []),
  ];
  return parts.filter((p) => p?.data !== undefined).map((p) => p.data);
}

function settledFlags(task: Wire): boolean[] {
  const flags: boolean[] = [];
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (!Array.isArray(v) && typeof (v as { settled?: unknown }).settled === 'boolean')
      flags.push((v as { settled: boolean }).settled);
    for (const inner of Object.values(v)) walk(inner);
  };
  walk(reportOf(task));
  return flags;
}
