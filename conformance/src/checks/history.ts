/**
 * §10.3 the history and the undo: the lesson's version is in the authority's activation history
 * with its author and reason, and rolling back to the version it replaced takes its knowledge away.
 * Entries are found by `versionId` where the agent gives one, else by `definitionVersion`.
 */
import type { HistoryEntry, LessonDraft, Wire } from '../adapter.ts';
import { teach, type Session } from '../session.ts';
import { named, resultVersion, type Before, type VersionRef } from '../versions.ts';

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

export async function checkHistory(
  s: Session,
  draft: LessonDraft,
  result: Wire,
  known: Before,
): Promise<void> {
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
