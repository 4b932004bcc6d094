/**
 * Every lesson tried on the mail already read before it is absorbed (§13.1): the
 * authority's `LessonCheck` port over this process's corpus. The lesson's entry as it would be
 * (already judged by its learnable) is matched against every kept message; each message its new
 * marks match is read under the head version and under the version the lesson would make, and one
 * that is filed under an entry now (settled, or answered by a person) and would be filed otherwise
 * (under another entry, or left undecided) is reported. The authority refuses such a lesson unless
 * the value asks to re-file (absorb.ts); the count of matches goes back to the person either way.
 *
 * Only messages a new mark matches can change: a lesson adds marks to one entry (or only renames
 * it), so the check compiles those marks alone and reads nothing else twice.
 *
 * Owns: finding the messages. Does not own: the words (the learnable's `refiling`) or refusing.
 */
import type { Clock } from '../clock.ts';
import type { Definition, PinnedDefinition } from '../definitions/index.ts';
import { refileVerdict, type LessonResult } from '../authority/index.ts';
import { isPlainObject } from '../json.ts';
import type {
  AlreadyRead,
  EntryContent,
  Learnable,
  LearnableSettings,
  RefiledMessage,
} from '../learnables/index.ts';
import type { TenantId } from '../tenant.ts';
import { compileMatcher, literalAtoms } from '../matching/index.ts';
import { scanCorpus, type CorpusStore } from './corpus.ts';
import { definitionMarks, type IndexedMark, type MatcherCache } from './definition-marks.ts';
import { scratchDefinition, swapEntryMatcher } from './dry-run.ts';
import { readMessage } from './read-message.ts';

/** Most re-filed messages kept as examples (all are counted). */
const MAX_EXAMPLES = 20;

export interface LessonCheckDeps {
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly matcherCache: MatcherCache;
}

/** What a lesson would make of the tenant's mail already read. */
export interface LessonUnderCheck {
  readonly learnable: Learnable;
  readonly entry: string;
  /** The entry as the lesson leaves it (the learnable's `absorb` already ran). */
  readonly content: EntryContent;
  /** The head version the lesson is absorbed into, and the activation it would be. */
  readonly base: Definition;
  readonly activation: number;
}

export function createLessonCheck(
  deps: LessonCheckDeps,
): (tenant: TenantId, lesson: LessonUnderCheck) => Promise<AlreadyRead> {
  return async (tenant, lesson) => {
    const { learnable, entry, content, base, activation } = lesson;
    const collection = learnable.collection;
    const fresh: IndexedMark[] = learnable
      .marks(entry, content)
      .filter((m) => m.provenance.activation === activation)
      .map((m) => ({ ...m, collection, entry }));
    const total = await deps.corpus.count(tenant);
    if (fresh.length === 0 || learnable.reader === undefined) {
      return { matches: 0, total, refiled: 0, examples: [] };
    }
    const only = compileMatcher(fresh);
    const before = deps.matcherCache.get(base.versionId, () => definitionMarks(base, deps.learnables));
    const after = swapEntryMatcher(before, learnable, entry, content);
    const scratch = scratchDefinition(base, collection, entry, content, activation);
    const read = (
      definition: Definition,
      matcher: typeof before,
      message: Parameters<typeof before.match>[0],
    ) =>
      readMessage(
        definition,
        activation,
        matcher,
        message,
        deps.learnables,
        deps.settings,
        (id) => id,
      ).readings.get(collection);

    let matches = 0;
    let refiled = 0;
    const examples: RefiledMessage[] = [];
    // One new mark with one literal every match contains (the usual lesson): the store skips the
    // messages that cannot match without reading them (a prefilter; the mark still confirms).
    const atoms = fresh.length === 1 ? literalAtoms(fresh[0]!.source) : null;
    const scan = atoms?.length === 1 ? { containing: atoms[0]! } : {};
    for await (const record of scanCorpus(deps.corpus, tenant, scan)) {
      if (record.textDiscardedAt !== null) continue; // §14: no text, nothing to read
      if (only.match(record.message).length === 0) continue;
      matches++;
      const then = read(base, before, record.message);
      const known = record.lastReading?.decided.get(collection) ?? (then?.settled ? then.winner : null);
      if (known === null || known === undefined) continue;
      const now = read(scratch, after, record.message);
      const becomes = now?.settled === true ? (now.winner ?? null) : null;
      const wasSettled = then?.settled === true && then.winner === known;
      if (becomes === known || (becomes === null && !wasSettled)) continue;
      refiled++;
      if (examples.length < MAX_EXAMPLES) {
        const held = base.collections.get(collection)?.get(known);
        examples.push({
          key: record.key,
          subject: record.message.subject,
          date: record.message.date ?? record.seenAt,
          was: known,
          wasLabel:
            held !== undefined && learnable.label !== undefined ? learnable.label(known, held) : known,
          becomes,
        });
      }
    }
    return { matches, total, refiled, examples };
  };
}

/**
 * The split topology (§12.1): the agent holds the corpus, the authority the versions. The agent
 * tries a lesson posted to it on its own corpus under the version active now, refuses it there as
 * the authority would (refileVerdict), and only then forwards it (http/forwarded-lesson.ts). The
 * value is judged by its learnable here too; a value it refuses or that adds nothing is left for
 * the authority to answer (undefined), so the person hears the authority's own words.
 */
export async function checkLessonAtAgent(
  deps: LessonCheckDeps & {
    readonly definitions: { active(tenant: TenantId): Promise<PinnedDefinition> };
    readonly clock: Clock;
  },
  tenant: TenantId,
  /** The lesson as posted (unchecked: the authority checks its shape and answers for it). */
  lesson: unknown,
): Promise<LessonResult['alreadyRead']> {
  if (!isPlainObject(lesson)) return undefined;
  const learnable = deps.learnables.find((l) => l.collection === lesson.collection);
  const { entry, value } = lesson;
  if (learnable === undefined || typeof entry !== 'string' || !isPlainObject(value)) return undefined;
  const active = await deps.definitions.active(tenant);
  const current = active.definition.collections.get(learnable.collection)?.get(entry);
  const activation = active.definitionVersion + 1;
  const absorbed = learnable.absorb(entry, current, value, {
    activation,
    taughtBy: 'check',
    at: deps.clock.now(),
  });
  if (absorbed.outcome !== 'learned') return undefined;
  const read = await createLessonCheck(deps)(tenant, {
    learnable,
    entry,
    content: absorbed.content,
    base: active.definition,
    activation,
  });
  return refileVerdict(learnable, entry, current, value, read);
}
