/**
 * Suggestions over a real corpus (SQLite `:memory:` with the real migrations): keep messages as
 * already read, read a message under a test definition, ask its reader for a suggestion, and judge
 * what a suggested value would match with the learnable's own marks (its keys stay opaque here).
 * Shared by scope-traps.test.ts and recurring-suggestions.test.ts.
 */
import RE2 from 're2';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { buildDefinition, type TestLesson } from './definitions.ts';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import type { Learnable } from '../../src/domain/learnables/index.ts';
import type { MailMessage, MailPart } from '../../src/domain/mail/index.ts';
import { partText } from '../../src/domain/mail/index.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import { corpusKey, type ReadingSummary } from '../../src/domain/triage/index.ts';
import { createCorpusProbe } from '../../src/domain/triage/index.ts';
import { definitionMarks } from '../../src/domain/triage/index.ts';
import { readMessage } from '../../src/domain/triage/index.ts';
import type { Suggestion, SuggestOutcome } from '../../src/domain/learnables/index.ts';

export const learnables = createLearnables();
export const customers = learnables.find((l) => l.collection === 'customers')!;
export const kinds = learnables.find((l) => l.collection === 'kinds')!;
export const settings = { identificationMargin: 0.5 };
export const tenant = tenantId('demo');

export const directory: TestLesson[] = [
  { collection: 'customers', entry: 'northgate', value: { label: 'Northgate Motors Ltd' } },
  {
    collection: 'customers',
    entry: 'northgate',
    value: { pattern: '@northgatemotors\\.example', where: 'from' },
  },
  { collection: 'customers', entry: 'gulftrade', value: { label: 'Gulftrade' } },
  { collection: 'customers', entry: 'gulftrade', value: { pattern: 'GTS-\\d{4}-\\d{5}', where: 'any' } },
  { collection: 'customers', entry: 'alhamra', value: { label: 'Al Hamra Trading' } },
  { collection: 'kinds', entry: 'invoice', value: { label: 'Invoice' } },
  { collection: 'kinds', entry: 'invoice', value: { cue: 'invoice', where: 'subject' } },
];

let db: Kysely<unknown>;
let store: SqliteCorpusStore;

/** Opens a fresh corpus before each test of the file that calls it. */
export function useCorpus(): void {
  beforeEach(async () => {
    db = await openDatabase({ file: ':memory:' });
    store = new SqliteCorpusStore(db);
  });
  afterEach(async () => {
    await db.destroy();
  });
}

/**
 * Keep `m` in the corpus as already read (settled as `customer`, or as each collection's entry of a
 * record, or unsettled), first seen on `day`.
 */
export async function seen(
  m: MailMessage,
  customer: string | null | Readonly<Record<string, string>> = null,
  day = '2026-09-01',
): Promise<void> {
  const decided: [string, string][] =
    customer === null
      ? []
      : typeof customer === 'string'
        ? [['customers', customer]]
        : Object.entries(customer);
  const lastReading: ReadingSummary = {
    versionId: 'sha256:test',
    definitionVersion: 1,
    decided: new Map(decided),
  };
  await store.remember(tenant, {
    key: corpusKey(m),
    message: m,
    seenAt: `${day}T00:00:00.000Z`,
    taskId: null,
    lastReading,
  });
}

/** The reading of `m` under `lessons` (every collection). */
export function readFor(m: MailMessage, lessons: TestLesson[] = directory) {
  const definition = buildDefinition(lessons);
  const reading = readMessage(
    definition,
    1,
    compileMatcher(definitionMarks(definition, learnables)),
    m,
    learnables,
    settings,
    (id) => id,
  );
  return { definition, reading };
}

export async function suggestFor(
  m: MailMessage,
  lessons: TestLesson[] = directory,
  collection = 'customers',
): Promise<SuggestOutcome> {
  const { definition, reading } = readFor(m, lessons);
  const learnable = collection === 'customers' ? customers : kinds;
  return learnable.reader!.suggest!(reading.readings.get(collection)!, {
    message: m,
    entries: definition.collections.get(collection),
    probe: createCorpusProbe(store, tenant, corpusKey(m)),
    settings,
    // As triage gives it (issue 39): the customers' names, for a kind's cue to leave out.
    namedElsewhere: (text) =>
      Promise.resolve(
        collection === 'kinds'
          ? customers.namesIn!(text, definition.collections.get('customers') ?? new Map())
          : [],
      ),
  });
}

/** What the suggested value would match, judged by the learnable itself (its keys stay opaque here). */
export function matcherOf(
  s: Suggestion,
  learnable: Learnable = customers,
): (m: Pick<MailMessage, 'from' | 'subject' | 'body' | 'attachments'>) => boolean {
  const r = learnable.absorb('x', undefined, s.value, { activation: 1, taughtBy: 't', at: 'now' });
  if (r.outcome !== 'learned')
    throw new Error(`suggestion refused by its own learnable: ${JSON.stringify(r)}`);
  const marks = learnable
    .marks('x', r.content)
    .map((mk) => ({ re: new RE2(mk.source, 'iu'), parts: mk.parts }));
  return (m) => marks.some((mk) => mk.parts.some((p: MailPart) => mk.re.test(partText(m as MailMessage, p))));
}

export function expectSuggestion(o: SuggestOutcome): Suggestion {
  if (!('suggestion' in o)) throw new Error(`expected a suggestion, got none: ${o.none}`);
  return o.suggestion;
}
