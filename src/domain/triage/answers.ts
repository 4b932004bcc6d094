/**
 * What the corpus keeps of a triage and of a person's answers (§13.1), and what is read back from
 * it: a message's summary (what each collection settled on, a person's answer outliving a later
 * unsettled re-read), the outcome a parked task is answered from once its mail is discarded (§14,
 * §10.3), and the reading as decided.
 *
 * Owns: the kept forms and their round trip. Does not own: reading (read-at.ts) or the questions'
 * words (questions.ts).
 */
import type { Clock } from '../clock.ts';
import type { Authority } from '../authority/index.ts';
import type { Learnable, PersonDecision, Reading } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { readAs, type Colleagues } from './colleague-forward.ts';
import { corpusKey, type CorpusRecord, type CorpusStore, type ReadingSummary } from './corpus.ts';
import type { TriageOutcome, TriageQuestion } from './outcome.ts';
import { withChoices } from './questions.ts';
import type { Reader } from './read-at.ts';
import type { MessageReading } from './reading.ts';

export interface AnswersDeps {
  readonly definitions: Pick<Authority, 'load'>;
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly clock: Clock;
  readonly colleagues?: Colleagues | undefined;
  readonly recordKeysOf: Reader['recordKeysOf'];
}

export interface Answers {
  recordAnswer(tenant: TenantId, message: MailMessage, collection: string, entry: string): Promise<void>;
  decided(reading: MessageReading, answers: Readonly<Record<string, PersonDecision>>): MessageReading;
  keptOutcome(
    tenant: TenantId,
    taskId: string,
  ): Promise<{ outcome: TriageOutcome; message: MailMessage } | null>;
}

export function createAnswers(deps: AnswersDeps): Answers {
  return {
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
        seenAt: existing?.seenAt ?? deps.clock.now(),
        taskId: existing?.taskId ?? null,
        lastReading,
        // The keys its triage kept name the marks that matched then; a message never triaged here
        // gets those of the message alone.
        ...(existing === null ? { recordKeys: [...deps.recordKeysOf(message, []).keys()] } : {}),
      });
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
export function keptForm(outcome: TriageOutcome): unknown {
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

/** What a reading settled on, per collection, as the corpus keeps it; a person's answer outlives a later unsettled re-read. */
export function keptSummary(existing: CorpusRecord | null, reading: MessageReading): ReadingSummary {
  const decided = new Map<string, string>(existing?.lastReading?.decided ?? []);
  for (const [collection, r] of reading.readings)
    if (r.settled && typeof r.winner === 'string') decided.set(collection, r.winner);
  return { versionId: reading.versionId, definitionVersion: reading.definitionVersion, decided };
}
