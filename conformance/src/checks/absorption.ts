/**
 * §10 absorption, through the adapter's authority or the card's Teach method: a lesson gives a
 * LessonResult with a higher definitionVersion (§10.4) and a new version, not the old one changed
 * in place (§10.3); the same lesson again learns nothing and keeps the version (§10.2); lessons the
 * agent must refuse are refused in words and change nothing (§10.1, §9: refusals.ts); a task
 * parked before the lesson finishes on its pinned version (§10.3); the lesson is in the history
 * with its author and reason, and undoing it takes its knowledge away (§10.3: history.ts).
 * Show-back (§11) is checked before and after the lesson, on the same question.
 */
import type { LessonDraft, Question, TeachOutcome, Wire } from '../adapter.ts';
import { stateOf, type Channel } from '../agent.ts';
import { schemaProblems } from '../schema.ts';
import { canTeach, park, seeVersion, teach, versionOf, type Session } from '../session.ts';
import { named, resultVersion, sameVersion, type Before, type VersionRef } from '../versions.ts';
import { answerOn } from './teach-block.ts';
import { checkHistory } from './history.ts';
import { checkNeedsTaughtBy, checkRefused, keptVersion, undeclared, versionKept } from './refusals.ts';
import { checkShowBackMoved, showBack } from './show-back.ts';

const ABSORPTION_CHECKS = [
  ['absorb.result', '§10.4'],
  ['absorb.new-version', '§10.3'],
  ['absorb.idempotent', '§10.2'],
  ['absorb.refusal', '§10.1'],
  ['lesson.undeclared-collection', '§9'],
  ['lesson.needs-taught-by', '§9'],
  ['pin.finishes-on-pinned', '§10.3'],
  ['history.attributed', '§10.3'],
  ['history.undo', '§10.3'],
  ['showback.current-version', '§11'],
] as const;

/** A lesson the agent learned, and the id of the input it was taught for: §12.2 and §13.2 reuse them. */
export interface Taught {
  readonly draft: LessonDraft;
  readonly questionId: string;
}

export async function checkAbsorption(s: Session, c: Channel): Promise<Taught | null> {
  if (!canTeach(s)) {
    for (const [id, section] of ABSORPTION_CHECKS)
      s.r.skip(
        id,
        section,
        'no way to write a lesson: the card declares no teachMethod and the adapter has no teach()',
      );
    return null;
  }
  const q = await park(s, c, 'lesson', true);
  const before = await showBack(s, c, q, 'before');
  const draft = s.adapter.lesson(q);
  await seeVersionsBefore(s, q, before?.task);
  const known: Before = { pin: versionOf(s, q.task), highest: s.seen.highest };
  const result = checkResult(s, await teach(s, draft), known);
  if (result === null) {
    for (const [id, section] of ABSORPTION_CHECKS.slice(2))
      s.r.skip(id, section, 'the first lesson was not learned');
    return null;
  }
  // Show back before any task parks on the new version: an agent that reads on the version of the
  // last parked task, not the active one, then reads on the version before the lesson (§11).
  const after = await showBack(s, c, q, 'after');
  checkShowBackMoved(s, before, after, s.seen.active);
  const idempotent = await checkIdempotent(s, draft, result);
  const probe = (): Promise<string | null> => versionKept(s, draft, result, idempotent);
  await checkRefused(s, 'absorb.refusal', '§10.1', s.adapter.refusedLesson?.(q), probe);
  await checkRefused(s, 'lesson.undeclared-collection', '§9', undeclared(s, draft), probe);
  await checkNeedsTaughtBy(s, c);
  await checkPinned(s, c, q);
  await checkHistory(s, draft, result, known);
  return { draft, questionId: q.id };
}

/**
 * §10.4 monotonic needs the number before the first lesson, wherever the agent gives it: the
 * parked task's pin, the show-back before the lesson, the history. An agent that names versions by
 * id on its tasks still numbers them in its history.
 */
async function seeVersionsBefore(s: Session, q: Question, shownBefore: Wire): Promise<void> {
  seeVersion(s, versionOf(s, q.task)?.definitionVersion);
  if (shownBefore !== undefined) seeVersion(s, versionOf(s, shownBefore)?.definitionVersion);
  const entries = await s.adapter.history?.(s.agent.context).catch(() => []);
  for (const e of entries ?? [])
    seeVersion(s, Number.isInteger(e.definitionVersion) ? e.definitionVersion : undefined);
}

/** §10.4 monotonic over the whole run: every `learned: true`, re-teaching after a rollback included. */
export function checkMonotonic(s: Session): void {
  const id = 'absorb.monotonic';
  if (s.seen.learned === 0) {
    s.r.skip(id, '§10.4', 'no lesson was learned');
    return;
  }
  s.r.verdict(
    id,
    '§10.4',
    s.seen.notRising[0] ?? null,
    `each of the ${s.seen.learned} lessons learned in the run came back with a definitionVersion above every one seen before it`,
  );
}

/**
 * §10.4 the result of a lesson the agent did not know: a LessonResult, learned: true, a
 * `describes`, and a definitionVersion higher than any before it (monotonic); §10.3 a new version,
 * not the one it replaced changed in place. The result, when learned: true, for the checks after.
 */
function checkResult(s: Session, outcome: TeachOutcome, known: Before): Wire {
  if (!outcome.ok) {
    const refused = `the adapter's lesson was refused (${outcome.status}): ${outcome.reason}`;
    s.r.fail('absorb.result', '§10.4', refused);
    s.r.skip('absorb.new-version', '§10.3', 'the first lesson was not learned');
    return null;
  }
  const r = outcome.result;
  const problem =
    schemaProblems('LessonResult', r) ??
    (r.learned !== true
      ? 'a lesson the agent did not know came back learned: false'
      : typeof r.describes !== 'string' || r.describes.trim() === ''
        ? '"describes" is empty'
        : notHigher(r, known));
  s.r.verdict(
    'absorb.result',
    '§10.4',
    problem,
    `learned: true, definitionVersion ${r.definitionVersion} (after ${named(known.pin)}), "${r.describes}"`,
  );
  if (r.learned !== true) {
    s.r.skip('absorb.new-version', '§10.3', 'the first lesson was not learned');
    return null;
  }
  s.r.verdict(
    'absorb.new-version',
    '§10.3',
    inPlace(r, known.pin),
    `the lesson made ${named(resultVersion(r))}, a new version beside the ${named(known.pin)} it replaced`,
  );
  return r;
}

/** §10.4 "monotonic": what is wrong with a learned definitionVersion no higher than one before it, or null. */
function notHigher(r: Wire, known: Before): string | null {
  const n: unknown = r.definitionVersion;
  if (typeof n !== 'number') return null; // the schema said so
  if (known.highest !== undefined && n <= known.highest)
    return `learned: true with definitionVersion ${n}, not higher than ${known.highest}, the version an earlier lesson made (a definitionVersion is monotonic)`;
  const pinned = known.pin?.definitionVersion;
  if (pinned !== undefined && n <= pinned)
    return `learned: true with definitionVersion ${n}, not higher than ${pinned}, the version the parked task was pinned to (a definitionVersion is monotonic)`;
  return null;
}

/** §10.3 "MUST NOT modify one in place": the new version is the one replaced, or the parked task's pin. */
function inPlace(r: Wire, pin: VersionRef | undefined): string | null {
  const made = resultVersion(r);
  if (r.versionId !== undefined && r.versionId === r.previousVersionId)
    return `a lesson that changed something kept the version ${r.versionId}: the version it replaced was changed in place, not a new immutable version`;
  if (sameVersion(made, pin) === true)
    return `the lesson's version ${named(made)} is the version the parked task was pinned to: changed in place, not a new immutable version`;
  return null;
}

/** Whether the same lesson again kept the version (the refusal checks read the version that way). */
async function checkIdempotent(s: Session, draft: LessonDraft, first: Wire): Promise<boolean> {
  const verdict = await s.r.attempt('absorb.idempotent', '§10.2', 'the same lesson again', async () => {
    const again = await teach(s, draft);
    const problem = !again.ok
      ? `the same lesson again was an error (${again.status}): ${again.reason}`
      : keptVersion(again.result, first, 'the same lesson again');
    return s.r.verdict(
      'absorb.idempotent',
      '§10.2',
      problem,
      `the same lesson again: learned: false, still definitionVersion ${first.definitionVersion}`,
    );
  });
  return verdict.status === 'PASS';
}

async function checkPinned(s: Session, c: Channel, q: Question): Promise<void> {
  const id = 'pin.finishes-on-pinned';
  const pinned = versionOf(s, q.task);
  if (pinned === undefined) {
    s.r.skip(id, '§10.3', 'the adapter cannot tell which version a task runs on (versionOf)');
    return;
  }
  await s.r.attempt(id, '§10.3', 'answering the task parked before the lesson', async () => {
    const done = (await c.send(answerOn(s, q), { activate: true })).value;
    const ran = versionOf(s, done);
    const problem =
      stateOf(done) !== 'TASK_STATE_COMPLETED'
        ? `the parked task, answered after the lesson, ended ${stateOf(done)}`
        : sameVersion(ran, pinned) !== true
          ? `the task was pinned to ${named(pinned)} and finished on ${named(ran)}`
          : null;
    return s.r.verdict(
      id,
      '§10.3',
      problem,
      `parked on ${named(pinned)}, answered after the lesson, finished on it`,
    );
  });
}
