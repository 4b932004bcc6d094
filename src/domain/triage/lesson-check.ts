/**
 * Every lesson tried on the mail already read before it is absorbed (issue 26, §13.1): the
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
import type { Definition } from '../definitions/index.ts';
import type {
  AlreadyRead,
  EntryContent,
  Learnable,
  LearnableSettings,
  RefiledMessage,
} from '../learnables/index.ts';
import type { TenantId } from '../tenant.ts';
import { compileMatcher } from '../matching/index.ts';
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
    for await (const record of scanCorpus(deps.corpus, tenant)) {
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
