/**
 * Lessons the agent must refuse, and how the kit sees that a refusal changed nothing: §10.1 a value
 * the learnable refuses, §9 a collection the card does not declare (both refused in words a person
 * can act on, the version unmoved), and §9 a lesson without `taughtBy`.
 */
import type { LessonDraft, Wire } from '../adapter.ts';
import type { Channel } from '../agent.ts';
import { park, teach, type Session } from '../session.ts';

/** null when `r` learned nothing and kept `first`'s version; else what differs, after `what`. */
export function keptVersion(r: Wire, first: Wire, what: string): string | null {
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
export async function versionKept(
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
export function undeclared(s: Session, draft: LessonDraft): LessonDraft {
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
export async function checkRefused(
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
export async function checkNeedsTaughtBy(s: Session, c: Channel): Promise<void> {
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
