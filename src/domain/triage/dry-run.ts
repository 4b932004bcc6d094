/**
 * Dry run of a proposed lesson against the corpus (§13.1): before a person confirms a lesson, show
 * how many messages already seen it matches, a few of them, how many would newly settle, and which
 * would change from one entry to another (a conflict the person must see before confirming).
 *
 * The lesson is absorbed by its own learnable into a scratch copy of the active definition (the
 * value stays opaque here, §9); a refusal is the learnable's reason (§10.1). Every kept message is
 * read twice, under the active version and under the scratch one. Nothing is written.
 *
 * The scratch matcher is the active version's compiled matcher with the taught entry's marks swapped
 * for a matcher compiled from that entry's new marks: the same hits as compiling the whole scratch
 * version (a test proves it), without recompiling a large directory for every dry run.
 */
import type { Clock } from '../clock.ts';
import type { Definition, PinnedDefinition } from '../definitions/index.ts';
import { DomainError } from '../errors.ts';
import { canonicalJson, isPlainObject } from '../json.ts';
import type { EntryContent, Learnable, LearnableSettings, LessonValue } from '../learnables/index.ts';
import type { TenantId } from '../tenant.ts';
import { createsEntryHere, entryUnknown } from '../authority/index.ts';
import { compileMatcher } from '../matching/index.ts';
import { discardedSentence, scanCorpus, type CorpusRecord, type CorpusStore } from './corpus.ts';
import { definitionMarks, type IndexedMark, type Matcher, type MatcherCache } from './definition-marks.ts';
import { readMessage } from './read-message.ts';
import type { MessageReading } from './reading.ts';

/** Most example messages a dry run returns. */
const DRY_RUN_EXAMPLES = 5;
/** Most conflicts listed (all are counted). */
const DRY_RUN_CHANGES_LISTED = 50;

export interface DryRunLesson {
  readonly collection: string;
  readonly entry: string;
  /** Opaque (§9). */
  readonly value: LessonValue;
}

export interface DryRunExample {
  readonly key: string;
  readonly subject: string;
  readonly from: string;
}

/** A message whose settled entry would change: to another entry, or to unsettled (`to: null`). */
export interface DryRunChange {
  readonly key: string;
  readonly subject: string;
  readonly from: string | null;
  readonly to: string | null;
}

export interface DryRunResult {
  readonly collection: string;
  readonly entry: string;
  /** Whether the lesson would change anything (§10.2: false when it adds nothing). */
  readonly learned: boolean;
  /** Phrased by the learnable (§10.4). */
  readonly describes: string;
  /** The version the lesson was evaluated against. */
  readonly definitionVersion: number;
  readonly versionId: string;
  /** Messages kept in the corpus. */
  readonly total: number;
  /** Messages the lesson matches (for learnables that match text) or whose reading it changes. */
  readonly matches: number;
  readonly examples: readonly DryRunExample[];
  /** Messages unsettled now that the lesson would settle. */
  readonly newlySettled: number;
  /** How many messages would change from one entry to another, or lose their settled entry. */
  readonly conflicts: number;
  readonly changes: readonly DryRunChange[];
  /** §14: kept messages whose text was discarded (RAW_MAIL_RETENTION_DAYS), so not evaluated. */
  readonly discarded: number;
  /** Says so in words when `discarded` > 0. */
  readonly discardedNote?: string;
}

export interface DryRunDeps {
  readonly definitions: { active(tenant: TenantId): Promise<PinnedDefinition> };
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly matcherCache: MatcherCache;
  readonly clock: Clock;
  /** RAW_MAIL_RETENTION_DAYS, named when a message's text was discarded. */
  readonly rawMailRetentionDays?: number;
}

export async function dryRun(
  deps: DryRunDeps,
  tenant: TenantId,
  lesson: DryRunLesson,
): Promise<DryRunResult> {
  const learnable = lessonLearnable(deps.learnables, lesson);
  const active = await deps.definitions.active(tenant);
  const entries = active.definition.collections.get(learnable.collection);
  const content = entries?.get(lesson.entry);
  // Issue 12.3: a dry run refuses a typo as teaching would, with the nearest entries.
  if (content === undefined && !createsEntryHere(learnable, lesson.value)) {
    throw entryUnknown(learnable, lesson.entry, entries);
  }
  const activation = active.definitionVersion + 1;
  const absorbed = learnable.absorb(lesson.entry, content, lesson.value, {
    activation,
    taughtBy: 'dry-run',
    at: deps.clock.now(),
  });
  if (absorbed.outcome === 'refused') {
    // §10.1: the learnable's reason, unchanged.
    throw new DomainError('LESSON_REFUSED', absorbed.reason, {
      details: { collection: learnable.collection, entry: lesson.entry },
    });
  }

  const base = {
    collection: learnable.collection,
    entry: lesson.entry,
    learned: absorbed.outcome === 'learned',
    describes: absorbed.describes,
    definitionVersion: active.definitionVersion,
    versionId: active.definition.versionId,
  };
  const total = await deps.corpus.count(tenant);
  if (absorbed.outcome === 'unchanged') {
    return {
      ...base,
      total,
      matches: 0,
      examples: [],
      newlySettled: 0,
      conflicts: 0,
      changes: [],
      discarded: 0,
    };
  }

  const scratch = scratchDefinition(
    active.definition,
    learnable.collection,
    lesson.entry,
    absorbed.content,
    activation,
  );
  const before = deps.matcherCache.get(active.definition.versionId, () =>
    definitionMarks(active.definition, deps.learnables),
  );
  const after = swapEntryMatcher(before, learnable, lesson.entry, absorbed.content);
  const isNew = (m: IndexedMark): boolean =>
    m.collection === learnable.collection &&
    m.entry === lesson.entry &&
    m.provenance.activation === activation;

  let matches = 0;
  let newlySettled = 0;
  let conflicts = 0;
  const examples: DryRunExample[] = [];
  const changes: DryRunChange[] = [];
  const read = (
    definition: Definition,
    matcher: Matcher,
    message: Parameters<Matcher['match']>[0],
  ): MessageReading =>
    readMessage(
      definition,
      active.definitionVersion,
      matcher,
      message,
      deps.learnables,
      deps.settings,
      (id) => id,
    );

  let discarded = 0;
  let firstDiscarded: CorpusRecord | null = null;
  for await (const record of scanCorpus(deps.corpus, tenant)) {
    if (record.textDiscardedAt !== null) {
      // §14: its text is gone; counting it as read would report a reading that never happened.
      discarded++;
      firstDiscarded ??= record;
      continue;
    }
    const m = record.message;
    const afterHits = after.match(m);
    const then = read(active.definition, before, m);
    const now = read(scratch, { markCount: after.markCount, match: () => afterHits }, m);
    const was = then.readings.get(learnable.collection);
    const will = now.readings.get(learnable.collection);
    const changed =
      was !== undefined && will !== undefined && canonicalJson(was.decision) !== canonicalJson(will.decision);
    if (afterHits.some((h) => isNew(h.mark)) || changed) {
      matches++;
      if (examples.length < DRY_RUN_EXAMPLES)
        examples.push({ key: record.key, subject: m.subject, from: m.from?.address ?? '' });
    }
    if (was === undefined || will === undefined) continue;
    // A collection that decides no single entry (a manifest's fields) counts what it settles.
    if (was.winner === undefined) {
      if (will.settledCount > was.settledCount) newlySettled++;
      continue;
    }
    if (!was.settled && will.settled) newlySettled++;
    if (was.settled && (!will.settled || will.winner !== was.winner)) {
      conflicts++;
      if (changes.length < DRY_RUN_CHANGES_LISTED) {
        changes.push({
          key: record.key,
          subject: m.subject,
          from: was.winner ?? null,
          to: will.settled ? (will.winner ?? null) : null,
        });
      }
    }
  }
  const note =
    firstDiscarded === null
      ? {}
      : {
          discardedNote: `${discarded} of the ${total} messages kept could not be evaluated. ${discardedSentence(firstDiscarded, deps.rawMailRetentionDays)}${discarded > 1 ? ` The text of the other ${discarded - 1} was discarded likewise.` : ''}`,
        };
  return { ...base, total, matches, examples, newlySettled, conflicts, changes, discarded, ...note };
}

/** The learnable a dry-run lesson names, its entry and value checked as teaching would. */
function lessonLearnable(learnables: readonly Learnable[], lesson: DryRunLesson): Learnable {
  const learnable = learnables.find((l) => l.collection === lesson.collection);
  if (learnable === undefined) {
    const declared = learnables.map((l) => l.collection).join(', ');
    throw new DomainError(
      'COLLECTION_UNKNOWN',
      `There is no collection "${String(lesson.collection)}": use one of ${declared}.`,
      {
        details: { declared: learnables.map((l) => l.collection) },
      },
    );
  }
  if (typeof lesson.entry !== 'string' || lesson.entry.trim() === '') {
    throw new DomainError(
      'LESSON_MALFORMED',
      'entry is missing: name the entry the lesson would teach (e.g. "northgate").',
    );
  }
  if (!isPlainObject(lesson.value)) {
    throw new DomainError(
      'LESSON_MALFORMED',
      'value must be an object holding the lesson fields the collection declares.',
    );
  }
  return learnable;
}

/** The active definition with one entry replaced: what absorbing the lesson would activate. */
export function scratchDefinition(
  definition: Definition,
  collection: string,
  entry: string,
  content: EntryContent,
  activation: number,
): Definition {
  const collections = new Map(definition.collections);
  const entries = new Map(definition.collections.get(collection) ?? []);
  entries.set(entry, content);
  collections.set(collection, entries);
  return { versionId: `dry-run:${definition.versionId}:${activation}`, collections };
}

/**
 * The scratch version's matcher: every hit of the active matcher except the taught entry's, plus
 * the hits of that entry's marks as the lesson leaves them.
 */
export function swapEntryMatcher(
  active: Matcher,
  learnable: Learnable,
  entry: string,
  content: EntryContent,
): Matcher {
  const marks: IndexedMark[] = learnable
    .marks(entry, content)
    .map((m) => ({ ...m, collection: learnable.collection, entry }));
  const own = compileMatcher(marks);
  const mine = (m: IndexedMark): boolean => m.collection === learnable.collection && m.entry === entry;
  return {
    markCount: active.markCount + own.markCount,
    match(message) {
      return [...active.match(message).filter((h) => !mine(h.mark)), ...own.match(message)];
    },
  };
}
