/**
 * §10 absorption, through the adapter's authority or the card's Teach method: a lesson gives a
 * LessonResult and a new version (§10.4, §10.3); the same lesson again learns nothing and keeps the
 * version (§10.2); a value the learnable refuses is refused in words and changes nothing (§10.1);
 * a task parked before the lesson finishes on its pinned version (§10.3); the lesson is in the
 * history with its author and reason, and undoing it takes its knowledge away (§10.3).
 * Show-back (§11) is checked before and after the lesson, on the same question.
 */
import type { LessonDraft, Question, TeachOutcome, Wire } from '../adapter.ts';
import { stateOf, type Channel } from '../agent.ts';
import { schemaProblems } from '../schema.ts';
import { canTeach, park, teach, type Session } from '../session.ts';
import { answerOn } from './teach-block.ts';
import { checkShowBackMoved, showBack } from './show-back.ts';

const ABSORPTION_CHECKS = [
  ['absorb.result', '§10.4'],
  ['absorb.idempotent', '§10.2'],
  ['absorb.refusal', '§10.1'],
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
  const first = await teach(s, draft);
  const result = checkResult(s, first, q);
  if (result === null) {
    for (const [id, section] of ABSORPTION_CHECKS.slice(1))
      s.r.skip(id, section, 'the first lesson was not learned');
    return null;
  }
  const idempotent = await checkIdempotent(s, draft, result);
  await checkRefusal(s, q, draft, result, idempotent);
  const after = await showBack(s, c, q, 'after');
  checkShowBackMoved(s, before, after, s.active.versionId);
  await checkPinned(s, c, q);
  await checkHistory(s, draft, result);
  return { draft, questionId: q.id };
}

function checkResult(s: Session, outcome: TeachOutcome, q: Question): Wire {
  if (!outcome.ok) {
    s.r.fail(
      'absorb.result',
      '§10.4',
      `the adapter's lesson was refused (${outcome.status}): ${outcome.reason}`,
    );
    return null;
  }
  const r = outcome.result;
  const pinned = s.adapter.versionOf?.(q.task);
  const problem =
    schemaProblems('LessonResult', r) ??
    (r.learned !== true
      ? 'a lesson the agent did not know came back learned: false'
      : typeof r.describes !== 'string' || r.describes.trim() === ''
        ? '"describes" is empty'
        : r.versionId !== undefined && r.versionId === r.previousVersionId
          ? `a lesson that changed something kept the version ${r.versionId} (§10.3 a new immutable version)`
          : pinned !== undefined && r.versionId !== undefined && r.versionId === pinned
            ? `the new version ${r.versionId} is the version the parked task was pinned to`
            : null);
  s.r.verdict(
    'absorb.result',
    '§10.4',
    problem,
    `learned: true, definitionVersion ${r.definitionVersion}, "${r.describes}"`,
  );
  return problem === null ? r : null;
}

/** Whether the same lesson again kept the version (the refusal check reads the version that way). */
async function checkIdempotent(s: Session, draft: LessonDraft, first: Wire): Promise<boolean> {
  const verdict = await s.r.attempt('absorb.idempotent', '§10.2', 'the same lesson again', async () => {
    const again = await teach(s, draft);
    const problem = !again.ok
      ? `the same lesson again was an error (${again.status}): ${again.reason}`
      : sameVersion(again.result, first, 'the same lesson again');
    return s.r.verdict(
      'absorb.idempotent',
      '§10.2',
      problem,
      `the same lesson again: learned: false, still definitionVersion ${first.definitionVersion}`,
    );
  });
  return verdict.status === 'PASS';
}

/** null when `r` learned nothing and kept `first`'s version; else what differs, after `what`. */
function sameVersion(r: Wire, first: Wire, what: string): string | null {
  if (r.learned !== false) return `${what} came back learned: ${JSON.stringify(r.learned)}`;
  if (r.definitionVersion !== first.definitionVersion)
    return `${what} moved definitionVersion ${first.definitionVersion} to ${r.definitionVersion}`;
  if (first.versionId !== undefined && r.versionId !== undefined && r.versionId !== first.versionId)
    return `${what} gave version ${r.versionId}, not ${first.versionId}`;
  return null;
}

/** Words that say nothing a person could act on (§10.1: "not 400 Bad Request: invalid value"). */
const GENERIC =
  /^\s*(\d{3}\s*)?(bad request|invalid( (value|params|request|input))?|error|validation (error|failed)|unprocessable( entity)?)[\s.:!]*$/i;

/**
 * The refusal, in words; then the known lesson again reads the version, which must not have moved.
 * When that lesson is not idempotent (§10.2, failed above) the version cannot be read that way, and
 * only the words are judged here.
 */
async function checkRefusal(
  s: Session,
  q: Question,
  draft: LessonDraft,
  first: Wire,
  idempotent: boolean,
): Promise<void> {
  if (s.adapter.refusedLesson === undefined) {
    s.r.skip('absorb.refusal', '§10.1', 'the adapter gives no value the learnable refuses');
    return;
  }
  const refusedDraft = s.adapter.refusedLesson(q);
  await s.r.attempt('absorb.refusal', '§10.1', 'a lesson the learnable refuses', async () => {
    const refused = await teach(s, refusedDraft);
    const probe = idempotent ? await teach(s, draft) : null;
    const problem = refused.ok
      ? `a value the learnable should refuse was absorbed: ${JSON.stringify(refused.result)}`
      : GENERIC.test(refused.reason) || refused.reason.trim().length < 12
        ? `the refusal gives no reason a person can act on: ${JSON.stringify(refused.reason)}`
        : probe === null
          ? null
          : !probe.ok
            ? `the known lesson, sent after the refusal, was an error: ${probe.reason}`
            : sameVersion(probe.result, first, 'after the refusal, the known lesson');
    const moved =
      probe === null ? 'whether the version moved cannot be read (§10.2 failed)' : 'the version did not move';
    return s.r.verdict(
      'absorb.refusal',
      '§10.1',
      problem,
      `refused in words: "${refused.ok ? '' : refused.reason}"; ${moved}`,
    );
  });
}

async function checkPinned(s: Session, c: Channel, q: Question): Promise<void> {
  const id = 'pin.finishes-on-pinned';
  const pinned = s.adapter.versionOf?.(q.task);
  if (pinned === undefined) {
    s.r.skip(id, '§10.3', 'the adapter cannot tell which version a task runs on (versionOf)');
    return;
  }
  await s.r.attempt(id, '§10.3', 'answering the task parked before the lesson', async () => {
    const done = (await c.send(answerOn(s, q), { activate: true })).value;
    const ran = s.adapter.versionOf!(done);
    const problem =
      stateOf(done) !== 'TASK_STATE_COMPLETED'
        ? `the parked task, answered after the lesson, ended ${stateOf(done)}`
        : ran !== pinned
          ? `the task was pinned to ${pinned} and finished on ${String(ran)}`
          : null;
    return s.r.verdict(
      id,
      '§10.3',
      problem,
      `parked on ${pinned}, answered after the lesson, finished on it`,
    );
  });
}

async function checkHistory(s: Session, draft: LessonDraft, result: Wire): Promise<void> {
  const history = s.adapter.history?.bind(s.adapter);
  const rollback = s.adapter.rollback?.bind(s.adapter);
  if (history === undefined) {
    s.r.skip('history.attributed', '§10.3', "the adapter cannot read the authority's history");
    s.r.skip('history.undo', '§10.3', "the adapter cannot read the authority's history");
    return;
  }
  const entries = await history(s.agent.context);
  const entry = entries.find((e) => e.versionId === result.versionId);
  const reason = draft.reason;
  s.r.verdict(
    'history.attributed',
    '§10.3',
    entry === undefined
      ? `the history has no activation of ${String(result.versionId)}`
      : entry.taughtBy !== s.taughtBy
        ? `the activation names ${JSON.stringify(entry.taughtBy)} as its author, not ${s.taughtBy}`
        : reason !== undefined && entry.reason !== reason
          ? `the activation's reason is ${JSON.stringify(entry.reason)}, not ${JSON.stringify(reason)}`
          : null,
    `the history shows ${String(result.versionId)}, taught by ${s.taughtBy}${reason === undefined ? '' : `, "${reason}"`}`,
  );
  if (rollback === undefined) {
    s.r.skip('history.undo', '§10.3', 'the adapter has no rollback');
    return;
  }
  await s.r.attempt('history.undo', '§10.3', 'rolling the lesson back', async () => {
    const previous = entries.find((e) => e.versionId === result.previousVersionId);
    await rollback(s.agent.context, {
      versionId: String(result.previousVersionId),
      definitionVersion: previous?.definitionVersion ?? result.definitionVersion - 1,
    });
    const again = await teach(s, draft);
    const problem = !again.ok
      ? `after the rollback the lesson was refused: ${again.reason}`
      : again.result.learned !== true
        ? 'after rolling the lesson back the agent still knew it (learned: false)'
        : null;
    return s.r.verdict(
      'history.undo',
      '§10.3',
      problem,
      'rolled back, the lesson was unknown again (learned: true when taught once more)',
    );
  });
}
