/**
 * §10 absorption, through the adapter's authority or the card's Teach method: a lesson gives a
 * LessonResult and a new version (§10.4, §10.3); the same lesson again learns nothing and keeps the
 * version (§10.2); a value the learnable refuses is refused in words and changes nothing (§10.1);
 * a task parked before the lesson finishes on its pinned version (§10.3); the lesson is in the
 * history with its author and reason, and undoing it takes its knowledge away (§10.3).
 * Show-back (§11) is checked before and after the lesson, on the same question.
 */
import type { HistoryEntry, LessonDraft, Question, TeachOutcome, Wire } from '../adapter.ts';
import { stateOf, type Channel } from '../agent.ts';
import { schemaProblems } from '../schema.ts';
import { canTeach, park, teach, versionOf, type Session } from '../session.ts';
import { named, resultVersion, sameVersion, type VersionRef } from '../versions.ts';
import { answerOn } from './teach-block.ts';
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

/** What the kit knew of the versions before the first lesson: the parked task's pin, the highest number seen. */
interface Before {
  readonly pin: VersionRef | undefined;
  readonly highest: number | undefined;
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
  const known: Before = { pin: versionOf(s, q.task), highest: s.seen.highest };
  const result = checkResult(s, await teach(s, draft), known);
  if (result === null) {
    for (const [id, section] of ABSORPTION_CHECKS.slice(2))
      s.r.skip(id, section, 'the first lesson was not learned');
    return null;
  }
  const idempotent = await checkIdempotent(s, draft, result);
  const probe = (): Promise<string | null> => versionKept(s, draft, result, idempotent);
  await checkRefused(s, 'absorb.refusal', '§10.1', s.adapter.refusedLesson?.(q), probe);
  await checkRefused(s, 'lesson.undeclared-collection', '§9', undeclared(s, draft), probe);
  await checkNeedsTaughtBy(s, c);
  const after = await showBack(s, c, q, 'after');
  checkShowBackMoved(s, before, after, s.seen.active);
  await checkPinned(s, c, q);
  await checkHistory(s, draft, result, known);
  return { draft, questionId: q.id };
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

/** null when `r` learned nothing and kept `first`'s version; else what differs, after `what`. */
function keptVersion(r: Wire, first: Wire, what: string): string | null {
  if (r.learned !== false) return `${what} came back learned: ${JSON.stringify(r.learned)}`;
  if (r.definitionVersion !== first.definitionVersion)
    return `${what} moved definitionVersion ${first.definitionVersion} to ${r.definitionVersion}`;
  if (first.versionId !== undefined && r.versionId !== undefined && r.versionId !== first.versionId)
    return `${what} gave version ${r.versionId}, not ${first.versionId}`;
  return null;
}

/**
 * After a refusal, the known lesson again reads the version, which must not have moved: null when
 * it did not. When that lesson is not idempotent (§10.2, failed above) the version cannot be read
 * that way: 'unread'.
 */
async function versionKept(
  s: Session,
  draft: LessonDraft,
  first: Wire,
  idempotent: boolean,
): Promise<string | null> {
  if (!idempotent) return 'unread';
  const probe = await teach(s, draft);
  if (!probe.ok) return `the known lesson, sent after the refusal, was an error: ${probe.reason}`;
  return keptVersion(probe.result, first, 'after the refusal, the known lesson');
}

/** Words that say nothing a person could act on (§10.1: "not 400 Bad Request: invalid value"). */
const GENERIC =
  /^\s*(\d{3}\s*)?(bad request|invalid( (value|params|request|input))?|error|validation (error|failed)|unprocessable( entity)?)[\s.:!]*$/i;

/** The adapter's lesson for a collection the card does not declare (§9 "MUST name a declared collection"). */
function undeclared(s: Session, draft: LessonDraft): LessonDraft {
  const declared = new Set(
    ((s.declaration?.params?.learnables ?? []) as Wire[]).map((l) => String(l?.collection)),
  );
  let collection = `undeclared-${s.freshId('collection')}`;
  while (declared.has(collection)) collection = `${collection}-x`;
  return { ...draft, collection, reason: 'conformance: a collection the card does not declare' };
}

/**
 * A lesson the agent must refuse (§10.1 a value the learnable refuses; §9 an undeclared
 * collection): refused, with a reason a person can act on, and the version unmoved. `lesson`
 * undefined: the adapter gives none, and the check is skipped.
 */
async function checkRefused(
  s: Session,
  id: string,
  section: string,
  lesson: LessonDraft | undefined,
  probe: () => Promise<string | null>,
): Promise<void> {
  if (lesson === undefined) {
    s.r.skip(id, section, 'the adapter gives no value the learnable refuses');
    return;
  }
  const what =
    id === 'absorb.refusal' ? 'a value the learnable should refuse' : `a lesson for ${lesson.collection}`;
  await s.r.attempt(id, section, `teaching ${what}`, async () => {
    const refused = await teach(s, lesson);
    const moved = refused.ok ? null : await probe();
    const problem = refused.ok
      ? `${what} was absorbed: ${JSON.stringify(refused.result)}`
      : GENERIC.test(refused.reason) || refused.reason.trim().length < 12
        ? `the refusal gives no reason a person can act on: ${JSON.stringify(refused.reason)}`
        : moved === 'unread'
          ? null
          : moved;
    const version =
      moved === 'unread'
        ? 'whether the version moved cannot be read (§10.2 failed)'
        : 'the version did not move';
    return s.r.verdict(
      id,
      section,
      problem,
      `${what}: refused in words, "${refused.ok ? '' : refused.reason}"; ${version}`,
    );
  });
}

/** §9 `taughtBy` is required (a person, never a service account standing in): a new lesson without it is refused. */
async function checkNeedsTaughtBy(s: Session, c: Channel): Promise<void> {
  const id = 'lesson.needs-taught-by';
  await s.r.attempt(id, '§9', 'a lesson without taughtBy', async () => {
    const q = await park(s, c, 'anonymous', true);
    const outcome = await teach(s, s.adapter.lesson(q), undefined, { anonymous: true });
    return s.r.verdict(
      id,
      '§9',
      outcome.ok
        ? `a lesson without taughtBy was absorbed, with no person to attribute it to: ${JSON.stringify(outcome.result)}`
        : null,
      `a new lesson without taughtBy was refused (${outcome.ok ? '' : `${outcome.status}: ${outcome.reason}`})`,
    );
  });
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

/** The history's activation of a version: by versionId where both give one, else by definitionVersion. */
function activationOf(entries: readonly HistoryEntry[], v: VersionRef): HistoryEntry | undefined {
  const byNumber = entries.find(
    (e) => v.definitionVersion !== undefined && e.definitionVersion === v.definitionVersion,
  );
  if (v.versionId === undefined) return byNumber;
  if (byNumber !== undefined && (byNumber.versionId === undefined || byNumber.versionId === v.versionId))
    return byNumber;
  return entries.find((e) => e.versionId === v.versionId);
}

async function checkHistory(s: Session, draft: LessonDraft, result: Wire, known: Before): Promise<void> {
  const history = s.adapter.history?.bind(s.adapter);
  const rollback = s.adapter.rollback?.bind(s.adapter);
  if (history === undefined) {
    s.r.skip('history.attributed', '§10.3', "the adapter cannot read the authority's history");
    s.r.skip('history.undo', '§10.3', "the adapter cannot read the authority's history");
    return;
  }
  const entries = await history(s.agent.context);
  const made = resultVersion(result);
  const entry = activationOf(entries, made);
  const reason = draft.reason;
  s.r.verdict(
    'history.attributed',
    '§10.3',
    entry === undefined
      ? `the history (${entries.length} activation(s)) has no activation of ${named(made)}`
      : entry.taughtBy !== s.taughtBy
        ? `the activation names ${JSON.stringify(entry.taughtBy)} as its author, not ${s.taughtBy}`
        : reason !== undefined && entry.reason !== reason
          ? `the activation's reason is ${JSON.stringify(entry.reason)}, not ${JSON.stringify(reason)}`
          : null,
    `the history shows ${named(made)}, taught by ${s.taughtBy}${reason === undefined ? '' : `, "${reason}"`}`,
  );
  if (rollback === undefined) {
    s.r.skip('history.undo', '§10.3', 'the adapter has no rollback');
    return;
  }
  await s.r.attempt('history.undo', '§10.3', 'rolling the lesson back', async () => {
    const to = replaced(entries, result, known);
    await rollback(s.agent.context, to);
    const again = await teach(s, draft);
    const problem = !again.ok
      ? `after the rollback to ${named(to)} the lesson was refused: ${again.reason}`
      : again.result.learned !== true
        ? `after rolling back to ${named(to)} the agent still knew the lesson (learned: false)`
        : null;
    return s.r.verdict(
      'history.undo',
      '§10.3',
      problem,
      `rolled back to ${named(to)}, the lesson was unknown again (learned: true when taught once more)`,
    );
  });
}

/**
 * The version the lesson replaced, to roll back to: its history entry by previousVersionId when
 * the result gives one, else the parked task's pin (nothing was taught between), else the number
 * before the lesson's.
 */
function replaced(
  entries: readonly HistoryEntry[],
  result: Wire,
  known: Before,
): { versionId?: string | undefined; definitionVersion: number } {
  const previous =
    typeof result.previousVersionId === 'string'
      ? entries.find((e) => e.versionId === result.previousVersionId)
      : undefined;
  const definitionVersion =
    previous?.definitionVersion ?? known.pin?.definitionVersion ?? Number(result.definitionVersion) - 1;
  const versionId =
    typeof result.previousVersionId === 'string' ? result.previousVersionId : known.pin?.versionId;
  return { versionId, definitionVersion };
}
