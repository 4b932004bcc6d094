/**
 * The triage service: what the A2A executor (triage_inbound, recheck_message), the IMAP poller and
 * the authority API's dry run call.
 *
 * - `triage` reads a message under a pinned definition version (§10.3): with no pin it resolves the
 *   active version and pins to it; with a pin it loads exactly that version by versionId, so a task
 *   finishes on the version it started on even after a newer one is activated. Each unsettled
 *   reading whose reader asks becomes a question with the teach-block data (§8): the entries, the
 *   reader's suggestion (never wider than its evidence), or the reason there is none. Every message
 *   read is kept in the corpus (§13.1), with what each collection settled on.
 * - `recheck` is show-back (§11): a message seen before, read under the version active NOW; it
 *   never asks, never proposes, is never pinned.
 * - `dryRun` evaluates a proposed lesson against the corpus (§13.1).
 *
 * Owns: orchestration, over whatever learnables are registered; it names no collection. Does not
 * own: reading, asking in words or suggesting (each learnable's reader), storage (the CorpusStore
 * port), or emitting teach blocks only to activated clients (the A2A adapter, §7).
 */
import type { Authority } from '../authority/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { PinnedDefinition } from '../definitions/index.ts';
import type { EntryContent, Learnable, LearnableSettings } from '../learnables/index.ts';
import type { MarkHit, PersonDecision, Reading, SenderRecord } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import {
  corpusKey,
  discardedSentence,
  type CorpusRecord,
  type CorpusStore,
  type ReadingSummary,
} from './corpus.ts';
import { createCorpusProbe } from './corpus-probe.ts';
import { dryRun, type DryRunLesson, type DryRunResult } from './dry-run.ts';
import type { Matcher, MatcherCache } from './definition-marks.ts';
import { ANALYSER_VERSION, type AnalysisKeeping, type MarkAnalysisStore } from '../matching/index.ts';
import { needsSenderRecord, readMessage } from './read-message.ts';
import { readAs, type Colleagues } from './colleague-forward.ts';
import { sendersView, type SenderView } from './senders-view.ts';
import type { MessageReading, TeachBlock } from './reading.ts';

/** What the agent reads about definitions: an embedded authority, or a remote one (§12.1). */
export type DefinitionSource = Pick<Authority, 'descriptors' | 'active' | 'load'>;

/** The definition a task is pinned to (§10.3), kept in the task's metadata. */
export interface TaskPin {
  readonly definitionVersion: number;
  readonly versionId: string;
}

/** One thing the agent could not decide and must ask a person (§8). */
export interface TriageQuestion {
  readonly collection: string;
  /** The question in a person's words, with what the agent saw. */
  readonly text: string;
  /** The teach-block data; the A2A adapter emits it only to clients that activated the extension (§7). */
  readonly teach: TeachBlock;
  /** Why there is no suggestion, in words, when there is none. */
  readonly noSuggestion?: string;
  /**
   * Every entry an answer may name: all entries of the collection in the pinned version, with their
   * labels. The teach block's `entries` is capped for size; a person may still name any of these.
   */
  readonly choices: readonly { readonly name: string; readonly label: string }[];
}

export interface TriageOutcome {
  readonly pin: TaskPin;
  readonly reading: MessageReading;
  /** Empty when every question a learnable covers is settled. */
  readonly questions: readonly TriageQuestion[];
  /** The message's corpus key (for recheck by key). */
  readonly key: string;
}

export type RecheckKey =
  | { readonly messageId: string }
  | { readonly key: string }
  | { readonly taskId: string }
  | { readonly message: MailMessage };

export interface TriageSettings extends LearnableSettings {
  /** Days a message is kept in the corpus (§13.1); undefined keeps messages until purged by hand. */
  readonly corpusRetentionDays?: number;
  /** RAW_MAIL_RETENTION_DAYS (§14), named when show-back or a dry run meets a discarded message. */
  readonly rawMailRetentionDays?: number;
}

export interface TriageServiceDeps {
  readonly definitions: DefinitionSource;
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: TriageSettings;
  readonly matcherCache: MatcherCache;
  /**
   * Where regex analyses are kept per tenant (mark-analysis.ts), so a compile after a restart does
   * not analyse every mark again. Absent: analyses live only as long as the process.
   */
  readonly analyses?: MarkAnalysisStore;
  /** Display form of a stable person id (§14); null once erased. Default: the id itself. */
  readonly resolvePerson?: (tenant: TenantId, personId: string) => Promise<string | null>;
  readonly clock?: Clock;
  /**
   * Issue 39: the tenant's people, whose forwards are read as the message they forward
   * (colleague-forward.ts). Absent: every forward is read as sent.
   */
  readonly colleagues?: Colleagues;
}

export interface TriageService {
  triage(
    tenant: TenantId,
    message: MailMessage,
    pin?: TaskPin,
    options?: { readonly taskId?: string },
  ): Promise<TriageOutcome>;
  /** §11 show-back; null when the message was never seen for this tenant. */
  recheck(tenant: TenantId, key: RecheckKey): Promise<MessageReading | null>;
  dryRun(tenant: TenantId, lesson: DryRunLesson): Promise<DryRunResult>;
  /**
   * Record a person's answer to a question (the entry they chose), so the corpus knows what this
   * message is: later suggestions never claim it for another entry (§13.1).
   */
  recordAnswer(tenant: TenantId, message: MailMessage, collection: string, entry: string): Promise<void>;
  /**
   * The reading as decided: each collection a person answered (`answers`, by collection) marked so,
   * the rest as decided by rules or by nobody, each phrased by its reader. Pure.
   */
  decided(reading: MessageReading, answers: Readonly<Record<string, PersonDecision>>): MessageReading;
  /** Delete corpus messages older than the retention setting; returns how many. */
  purgeExpired(tenant: TenantId): Promise<number>;
  /** Issue 38: the senders of `collection` and what each one's mail decides, under the active version. */
  senders(tenant: TenantId, collection: string, limit: number): Promise<SenderView[]>;
  /**
   * §14, §10.3: what a task parked in input-required is answered from once its mail was
   * discarded: the outcome read on its pinned version when it parked, and the message as kept
   * (Message-ID, content hash). Null when none was kept for `taskId`.
   */
  keptOutcome(
    tenant: TenantId,
    taskId: string,
  ): Promise<{ outcome: TriageOutcome; message: MailMessage } | null>;
}

/** Most entries a teach block lists (candidates first); a client may still name any entry. */
export const MAX_TEACH_ENTRIES = 200;
/** What a message never kept was decided as. */
const NOTHING_DECIDED: ReadonlyMap<string, string> = new Map();

/** Expired corpus messages are purged at most this often per tenant, in ms. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A tenant's kept regex analyses as the matcher cache reads and writes them (§13.2: kept per tenant);
 * undefined without a store. Whoever compiles a version ahead of its first task (the server's
 * warm-up) passes the same keeping, so the analyses are read and kept as a task would.
 */
export function analysisKeeping(
  store: MarkAnalysisStore | undefined,
  tenant: TenantId,
): AnalysisKeeping | undefined {
  if (store === undefined) return undefined;
  return {
    load: () => store.load(tenant, ANALYSER_VERSION),
    save: (made) => store.save(tenant, ANALYSER_VERSION, made),
  };
}

export function createTriageService(deps: TriageServiceDeps): TriageService {
  const clock = deps.clock ?? systemClock;
  const lastPurge = new Map<TenantId, number>();

  // A large version compiles in slices, never blocking the event loop for long (issue 3), reading
  // the tenant's kept analyses (§13.2: kept per tenant).
  const keeping = (tenant: TenantId): AnalysisKeeping | undefined => analysisKeeping(deps.analyses, tenant);
  const matcherFor = (tenant: TenantId, definition: PinnedDefinition['definition']): Promise<Matcher> =>
    deps.matcherCache.matcherFor(definition, deps.learnables, keeping(tenant));

  /**
   * Read with every matched mark's teacher resolved to a display form first (readers are sync); a
   * reading that rests on its sender's marks alone is read again with the sender's track record
   * (issue 38), leaving out what the message itself was last decided as: `own`, or, given the
   * message's corpus `key`, what its kept row says, read with the record in one round trip (issue
   * 51) and returned as `existing`.
   */
  async function read(
    tenant: TenantId,
    pinned: PinnedDefinition,
    message: MailMessage,
    kept: { readonly own: ReadonlyMap<string, string> } | { readonly key: string },
  ): Promise<
    MessageReading & {
      readonly recordKeys: ReadonlyMap<string, string>;
      readonly existing?: CorpusRecord | null;
    }
  > {
    const matcher = await matcherFor(tenant, pinned.definition);
    const hits = matcher.match(message);
    const keys = recordKeysOf(message, hits);
    const names = new Map<string, string>();
    if (deps.resolvePerson !== undefined) {
      for (const id of new Set(hits.map((h) => h.mark.provenance.taughtBy))) {
        names.set(id, (await deps.resolvePerson(tenant, id)) ?? '[erased]');
      }
    }
    const once: Matcher = { markCount: matcher.markCount, match: () => hits };
    const readWith = (record?: SenderRecord): MessageReading =>
      readMessage(
        pinned.definition,
        pinned.definitionVersion,
        once,
        message,
        deps.learnables,
        deps.settings,
        (id) => names.get(id) ?? id,
        record,
      );
    const first = readWith();
    const from = needsSenderRecord(first) ? message.from : null;
    if ('own' in kept) {
      if (from === null) return { ...first, recordKeys: keys };
      return {
        ...readWith(await deps.corpus.senderRecord(tenant, from.address, kept.own, keys)),
        recordKeys: keys,
      };
    }
    if (from === null)
      return { ...first, recordKeys: keys, existing: await deps.corpus.get(tenant, kept.key) };
    const both = await deps.corpus.getWithSenderRecord(tenant, kept.key, from.address, keys);
    return { ...readWith(both.record), recordKeys: keys, existing: both.existing };
  }

  /**
   * Issue 38: the message's track-record keys beyond its sender, from every learnable that keeps
   * some, each with the collection that weighs it (issue 39).
   */
  function recordKeysOf(message: MailMessage, hits: readonly MarkHit[]): Map<string, string> {
    const keys = new Map<string, string>();
    for (const l of deps.learnables)
      for (const k of l.recordKeys?.(message, hits) ?? []) keys.set(k, l.collection);
    return keys;
  }

  async function purgeExpired(tenant: TenantId): Promise<number> {
    const days = deps.settings.corpusRetentionDays;
    if (days === undefined) return 0;
    const cutoff = new Date(Date.parse(clock.now()) - days * DAY_MS).toISOString();
    return deps.corpus.purge(tenant, cutoff);
  }

  async function maybePurge(tenant: TenantId): Promise<void> {
    const now = Date.parse(clock.now());
    if (
      deps.settings.corpusRetentionDays === undefined ||
      now - (lastPurge.get(tenant) ?? -Infinity) < PURGE_INTERVAL_MS
    )
      return;
    lastPurge.set(tenant, now);
    await purgeExpired(tenant);
  }

  /**
   * Issue 39: what other collections name in a text (their entries' names, by their own learnable)
   * or matched in this message (their marks' hits, found again only when asked): never
   * `learnable`'s to suggest.
   */
  function namedElsewhere(
    tenant: TenantId,
    pinned: PinnedDefinition,
    message: MailMessage,
    learnable: Learnable,
  ): (text: string) => Promise<readonly string[]> {
    const others = deps.learnables.filter((l) => l.collection !== learnable.collection);
    const collections = new Set(others.map((l) => l.collection));
    let matched: Promise<string[]> | undefined;
    const hitTexts = async (): Promise<string[]> =>
      (await matcherFor(tenant, pinned.definition))
        .match(message)
        .filter((h) => collections.has(h.mark.collection))
        .map((h) => h.text);
    return async (text) => {
      const lower = text.toLowerCase();
      const out = (await (matched ??= hitTexts())).filter((t) => t !== '' && lower.includes(t.toLowerCase()));
      for (const l of others) {
        const entries = pinned.definition.collections.get(l.collection);
        if (l.namesIn !== undefined && entries !== undefined) out.push(...l.namesIn(text, entries));
      }
      return out;
    };
  }

  async function question(
    tenant: TenantId,
    pinned: PinnedDefinition,
    message: MailMessage,
    key: string,
    learnable: Learnable,
    reading: Reading,
  ): Promise<TriageQuestion | null> {
    const reader = learnable.reader;
    if (reader?.question === undefined || reading.settled) return null;
    const collection = pinned.definition.collections.get(learnable.collection);
    const outcome =
      reader.suggest === undefined
        ? {
            none: `The ${learnable.entryNoun} is chosen by a person; there is nothing in the message to suggest.`,
          }
        : await reader.suggest(reading, {
            message,
            entries: collection,
            probe: createCorpusProbe(deps.corpus, tenant, key),
            settings: deps.settings,
            namedElsewhere: namedElsewhere(tenant, pinned, message, learnable),
          });
    const entries = teachEntries(
      reading,
      collection,
      'suggestion' in outcome ? outcome.suggestion.forEntry : undefined,
    );
    const lessonFields = learnable.descriptor(deps.settings).lessonFields;
    const text = reader.question(reading);
    const question: Omit<TriageQuestion, 'choices'> =
      'suggestion' in outcome
        ? {
            collection: learnable.collection,
            text,
            teach: {
              collection: learnable.collection,
              entries,
              suggested: outcome.suggestion.value,
              suggestionLabel: outcome.suggestion.suggestionLabel,
              lessonFields,
            },
          }
        : {
            collection: learnable.collection,
            text,
            teach: { collection: learnable.collection, entries, lessonFields },
            noSuggestion: outcome.none,
          };
    return withChoices(question, learnable, collection);
  }

  return {
    async triage(tenant, sent, pin, options = {}) {
      const message = await readAs(tenant, sent, deps.colleagues);
      let pinned: PinnedDefinition;
      if (pin === undefined) {
        pinned = await deps.definitions.active(tenant);
      } else {
        // §10.3: a pinned task runs on exactly its version, even after a newer one is activated.
        const definition = await deps.definitions.load(tenant, pin.versionId);
        pinned = { definitionVersion: pin.definitionVersion, definition };
      }
      const key = corpusKey(message);
      const { recordKeys: keys, existing = null, ...reading } = await read(tenant, pinned, message, { key });
      const questions: TriageQuestion[] = [];
      for (const learnable of deps.learnables) {
        const r = reading.readings.get(learnable.collection);
        if (r === undefined) continue;
        const q = await question(tenant, pinned, message, key, learnable, r);
        if (q !== null) questions.push(q);
      }
      // §13.1: keep what was read, so later lessons can be dry-run against it.
      const outcome: TriageOutcome = {
        pin: { definitionVersion: pinned.definitionVersion, versionId: pinned.definition.versionId },
        reading,
        questions,
        key,
      };
      await deps.corpus.remember(tenant, {
        key,
        message,
        seenAt: existing?.seenAt ?? clock.now(),
        taskId: options.taskId ?? null,
        lastReading: mergeSummary(existing, summarise(reading)),
        recordKeys: [...keys.keys()],
        // §14: a task that asks keeps its reading, so it can be answered once its mail is discarded.
        ...(options.taskId === undefined
          ? {}
          : { outcome: questions.length === 0 ? null : keptForm(outcome) }),
      });
      await maybePurge(tenant);
      return outcome;
    },

    async recheck(tenant, k) {
      let message: MailMessage;
      let own: ReadonlyMap<string, string> = NOTHING_DECIDED;
      if ('message' in k) {
        message = await readAs(tenant, k.message, deps.colleagues);
        own = (await deps.corpus.get(tenant, corpusKey(message)))?.lastReading?.decided ?? own;
      } else {
        let record: CorpusRecord | null;
        if ('messageId' in k) record = await deps.corpus.findByMessageId(tenant, k.messageId);
        else if ('taskId' in k) record = await deps.corpus.findByTaskId(tenant, k.taskId);
        else record = await deps.corpus.get(tenant, k.key);
        if (record === null) return null;
        // §14: past RAW_MAIL_RETENTION_DAYS the text is gone, and show-back says so.
        if (record.textDiscardedAt !== null)
          throw new DomainError(
            'MESSAGE_TEXT_DISCARDED',
            discardedSentence(record, deps.settings.rawMailRetentionDays),
            {
              details: { key: record.key, readAt: record.seenAt, discardedAt: record.textDiscardedAt },
            },
          );
        message = record.message;
        own = record.lastReading?.decided ?? own;
      }
      // §11: under the version active now (asked fresh, never a cached head); never pinned, never asks, never proposes.
      const {
        recordKeys: _keys,
        existing: _existing,
        ...reading
      } = await read(tenant, await deps.definitions.active(tenant, { fresh: true }), message, { own });
      return reading;
    },

    async recordAnswer(tenant, sent, collection, entry) {
      const message = await readAs(tenant, sent, deps.colleagues);
      const key = corpusKey(message);
      const existing = await deps.corpus.get(tenant, key);
      const base: ReadingSummary = existing?.lastReading ?? {
        versionId: '',
        definitionVersion: 0,
        decided: new Map(),
      };
      const lastReading: ReadingSummary = { ...base, decided: new Map(base.decided).set(collection, entry) };
      await deps.corpus.remember(tenant, {
        key,
        message,
        seenAt: existing?.seenAt ?? clock.now(),
        taskId: existing?.taskId ?? null,
        lastReading,
        // The keys its triage kept name the marks that matched then (issue 49); a message never
        // triaged here gets those of the message alone.
        ...(existing === null ? { recordKeys: [...recordKeysOf(message, []).keys()] } : {}),
      });
    },

    dryRun(tenant, lesson) {
      return dryRun(
        {
          definitions: deps.definitions,
          corpus: deps.corpus,
          learnables: deps.learnables,
          settings: deps.settings,
          matcherCache: deps.matcherCache,
          clock,
          ...(deps.settings.rawMailRetentionDays === undefined
            ? {}
            : { rawMailRetentionDays: deps.settings.rawMailRetentionDays }),
        },
        tenant,
        lesson,
      );
    },

    decided(reading, answers) {
      const readings = new Map<string, Reading>();
      for (const [collection, r] of reading.readings) {
        const reader = deps.learnables.find((l) => l.collection === collection)?.reader;
        const answer = Object.hasOwn(answers, collection) ? answers[collection] : undefined;
        readings.set(collection, reader?.decided === undefined ? r : reader.decided(r, answer));
      }
      return { ...reading, readings };
    },

    purgeExpired,

    async senders(tenant, collection, limit) {
      const pinned = await deps.definitions.active(tenant, { fresh: true });
      const resolve = deps.resolvePerson;
      return sendersView(
        {
          corpus: deps.corpus,
          learnables: deps.learnables,
          settings: deps.settings,
          resolvePerson: (id) => (resolve === undefined ? Promise.resolve(id) : resolve(tenant, id)),
        },
        tenant,
        pinned,
        await matcherFor(tenant, pinned.definition),
        collection,
        limit,
      );
    },

    async keptOutcome(tenant, taskId) {
      const record = await deps.corpus.findByTaskId(tenant, taskId);
      const kept = record?.outcome;
      if (record === null || kept === null || kept === undefined) return null;
      const stored = kept as Omit<TriageOutcome, 'questions' | 'reading'> & {
        reading: Omit<MessageReading, 'readings'> & { readings: [string, Reading][] };
        questions: Omit<TriageQuestion, 'choices'>[];
      };
      // The readings were kept as [collection, reading] pairs: names are data, and JSON has no Map.
      const outcome = {
        ...stored,
        reading: { ...stored.reading, readings: new Map(stored.reading.readings) },
      };
      // §10.3: the choices are the pinned version's entries, as when the task parked.
      const definition = await deps.definitions.load(tenant, outcome.pin.versionId);
      const questions = outcome.questions.flatMap((q) => {
        const learnable = deps.learnables.find((l) => l.collection === q.collection);
        return learnable === undefined
          ? []
          : [withChoices(q, learnable, definition.collections.get(q.collection))];
      });
      return { outcome: { ...outcome, questions }, message: record.message };
    },
  };
}

/**
 * The outcome as kept in the corpus: each question without its choices (every entry of the
 * collection, rebuilt from the pinned version on the way back; JSON would also lose the getter).
 */
function keptForm(outcome: TriageOutcome): unknown {
  return {
    ...outcome,
    reading: { ...outcome.reading, readings: [...outcome.reading.readings] },
    questions: outcome.questions.map((q) => ({
      collection: q.collection,
      text: q.text,
      teach: q.teach,
      ...(q.noSuggestion === undefined ? {} : { noSuggestion: q.noSuggestion }),
    })),
  };
}

/** A definition's entry names in sorted order, per collection (versions are immutable). */
const sortedNamesOf = new WeakMap<ReadonlyMap<string, unknown>, readonly string[]>();
/** Every entry with its label, per collection and learnable (labels depend on content only). */
const choicesOf = new WeakMap<ReadonlyMap<string, unknown>, Map<Learnable, TriageQuestion['choices']>>();

function sortedNames(collection: ReadonlyMap<string, unknown>): readonly string[] {
  let names = sortedNamesOf.get(collection);
  if (names === undefined) {
    names = Object.freeze([...collection.keys()].sort());
    sortedNamesOf.set(collection, names);
  }
  return names;
}

/**
 * The question with `choices`: every entry of the collection with its label. Built on first read
 * and shared by every question on the same version: a collection of 10,000 entries would
 * otherwise decode 10,000 labels for each question asked, though only an answer reads them.
 */
function withChoices(
  question: Omit<TriageQuestion, 'choices'>,
  learnable: Learnable,
  collection: ReadonlyMap<string, EntryContent> | undefined,
): TriageQuestion {
  const build = (): TriageQuestion['choices'] => {
    if (collection === undefined) return Object.freeze([]);
    let byLearnable = choicesOf.get(collection);
    if (byLearnable === undefined) {
      byLearnable = new Map();
      choicesOf.set(collection, byLearnable);
    }
    let choices = byLearnable.get(learnable);
    if (choices === undefined) {
      choices = Object.freeze(
        [...collection.entries()].map(([name, content]) =>
          Object.freeze({ name, label: learnable.label?.(name, content) ?? name }),
        ),
      );
      byLearnable.set(learnable, choices);
    }
    return choices;
  };
  let memo: TriageQuestion['choices'] | undefined;
  return Object.defineProperty(question, 'choices', {
    enumerable: true,
    get: () => (memo ??= build()),
  }) as TriageQuestion;
}

/**
 * The entry the suggestion points to first, then candidates (most likely answers), then the other
 * entries in name order, at most MAX_TEACH_ENTRIES.
 */
function teachEntries(
  reading: Reading,
  collection: ReadonlyMap<string, unknown> | undefined,
  first: string | undefined,
): string[] {
  const out = new Set<string>();
  if (first !== undefined && collection?.has(first) === true) out.add(first);
  for (const name of reading.likely) out.add(name);
  if (collection === undefined) return [...out];
  for (const name of sortedNames(collection)) {
    if (out.size >= MAX_TEACH_ENTRIES) break;
    out.add(name);
  }
  return [...out];
}

function summarise(reading: MessageReading): ReadingSummary {
  const decided = new Map<string, string>();
  for (const [collection, r] of reading.readings) {
    if (r.settled && typeof r.winner === 'string') decided.set(collection, r.winner);
  }
  return { versionId: reading.versionId, definitionVersion: reading.definitionVersion, decided };
}

/** A person's recorded answer outlives a later unsettled re-read of the same message. */
function mergeSummary(existing: CorpusRecord | null, next: ReadingSummary): ReadingSummary {
  const prev = existing?.lastReading;
  if (prev === undefined || prev === null) return next;
  const decided = new Map(prev.decided);
  for (const [collection, entry] of next.decided) decided.set(collection, entry);
  return { ...next, decided };
}
