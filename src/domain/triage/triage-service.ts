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
 * Its parts: the read with the sender's record in it (read-at.ts), the questions (questions.ts),
 * what the corpus keeps and answers are read back from (answers.ts).
 *
 * Owns: orchestration, over whatever learnables are registered; it names no collection. Does not
 * own: reading, asking in words or suggesting (each learnable's reader), storage (the CorpusStore
 * port), or emitting teach blocks only to activated clients (the A2A adapter, §7).
 */
import type { Authority } from '../authority/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { PinnedDefinition } from '../definitions/index.ts';
import type { Learnable, LearnableSettings, PersonDecision } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { corpusKey, discardedSentence, type CorpusRecord, type CorpusStore } from './corpus.ts';
import { dryRun, type DryRunLesson, type DryRunResult } from './dry-run.ts';
import type { MatcherCache } from './definition-marks.ts';
import type { MarkAnalysisStore } from '../matching/index.ts';
import { readAs, type Colleagues } from './colleague-forward.ts';
import { sendersView, type SenderView } from './senders-view.ts';
import type { MessageReading } from './reading.ts';
import type { TaskPin, TriageOutcome, TriageQuestion } from './outcome.ts';
import { createReader } from './read-at.ts';
import { questionsFor } from './questions.ts';
import { createAnswers, keptForm, keptSummary } from './answers.ts';

/** What the agent reads about definitions: an embedded authority, or a remote one (§12.1). */
export type DefinitionSource = Pick<Authority, 'descriptors' | 'active' | 'load'>;

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
   * The tenant's people, whose forwards are read as the message they forward
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
  /** The senders of `collection` and what each one's mail decides, under the active version. */
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

/** What a message never kept was decided as. */
const NOTHING_DECIDED: ReadonlyMap<string, string> = new Map();

/** Expired corpus messages are purged at most this often per tenant, in ms. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function createTriageService(deps: TriageServiceDeps): TriageService {
  const clock = deps.clock ?? systemClock;
  const lastPurge = new Map<TenantId, number>();
  // A large version compiles in slices, never blocking the event loop for long, reading the
  // tenant's kept analyses (§13.2: kept per tenant).
  const reader = createReader(deps);
  const { matcherFor, read } = reader;
  const answers = createAnswers({ ...deps, clock, recordKeysOf: reader.recordKeysOf });

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

  /** §10.3: a pinned task runs on exactly its version, even after a newer one is activated. */
  async function pinnedFor(tenant: TenantId, pin: TaskPin | undefined): Promise<PinnedDefinition> {
    if (pin === undefined) return deps.definitions.active(tenant);
    const definition = await deps.definitions.load(tenant, pin.versionId);
    return { definitionVersion: pin.definitionVersion, definition };
  }

  /** The message behind a show-back key, and what it was last decided as (§11); null if never seen. */
  async function recheckTarget(
    tenant: TenantId,
    k: RecheckKey,
  ): Promise<{ message: MailMessage; own: ReadonlyMap<string, string> } | null> {
    if ('message' in k) {
      const message = await readAs(tenant, k.message, deps.colleagues);
      const own = (await deps.corpus.get(tenant, corpusKey(message)))?.lastReading?.decided;
      return { message, own: own ?? NOTHING_DECIDED };
    }
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
    return { message: record.message, own: record.lastReading?.decided ?? NOTHING_DECIDED };
  }

  return {
    async triage(tenant, sent, pin, options = {}) {
      const message = await readAs(tenant, sent, deps.colleagues);
      const pinned = await pinnedFor(tenant, pin);
      const key = corpusKey(message);
      const { recordKeys: keys, existing = null, ...reading } = await read(tenant, pinned, message, { key });
      const ask = questionsFor({ ...deps, matcherFor }, tenant, pinned, message, key);
      const questions: TriageQuestion[] = [];
      for (const learnable of deps.learnables) {
        const r = reading.readings.get(learnable.collection);
        const q = r === undefined ? null : await ask(learnable, r);
        if (q !== null) questions.push(q);
      }
      const outcome: TriageOutcome = {
        pin: { definitionVersion: pinned.definitionVersion, versionId: pinned.definition.versionId },
        reading,
        questions,
        key,
      };
      // §13.1: keep what was read, so later lessons can be dry-run against it.
      await deps.corpus.remember(tenant, {
        key,
        message,
        seenAt: existing?.seenAt ?? clock.now(),
        taskId: options.taskId ?? null,
        lastReading: keptSummary(existing, reading),
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
      const target = await recheckTarget(tenant, k);
      if (target === null) return null;
      // §11: under the version active now (asked fresh, never a cached head); never pinned, never asks, never proposes.
      const active = await deps.definitions.active(tenant, { fresh: true });
      const {
        recordKeys: _keys,
        existing: _existing,
        ...reading
      } = await read(tenant, active, target.message, {
        own: target.own,
      });
      return reading;
    },

    dryRun(tenant, lesson) {
      const days = deps.settings.rawMailRetentionDays;
      return dryRun(
        { ...deps, clock, ...(days === undefined ? {} : { rawMailRetentionDays: days }) },
        tenant,
        lesson,
      );
    },

    ...answers,
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
  };
}
