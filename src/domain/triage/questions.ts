/**
 * The question a person is asked when a collection is not settled (§8): its words (the reader's),
 * the teach-block data (the entries, candidates first; the reader's suggestion, never wider than
 * its evidence, or why there is none), and every entry an answer may name.
 *
 * Owns: assembling a question from its reader. Does not own: what to suggest (each learnable's
 * reader), or emitting teach blocks only to activated clients (the A2A adapter, §7).
 */
import type { PinnedDefinition } from '../definitions/index.ts';
import type { EntryContent, Learnable, LearnableSettings, Reading } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { createCorpusProbe } from './corpus-probe.ts';
import type { CorpusStore } from './corpus.ts';
import type { TriageQuestion } from './outcome.ts';
import type { Reader } from './read-at.ts';

/** Most entries a teach block lists (candidates first); a client may still name any entry. */
export const MAX_TEACH_ENTRIES = 200;

export interface QuestionsDeps {
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly matcherFor: Reader['matcherFor'];
}

/** One message's question for `learnable`, or null when its reading is settled or it never asks. */
export type AskFor = (learnable: Learnable, reading: Reading) => Promise<TriageQuestion | null>;

/** Questions about `message`, read on `pinned`, kept in the corpus under `key`. */
export function questionsFor(
  deps: QuestionsDeps,
  tenant: TenantId,
  pinned: PinnedDefinition,
  message: MailMessage,
  key: string,
): AskFor {
  return async (learnable, reading) => {
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
            namedElsewhere: namedElsewhere(deps, tenant, pinned, message, learnable),
          });
    const entries = teachEntries(
      reading,
      collection,
      'suggestion' in outcome ? outcome.suggestion.forEntry : undefined,
    );
    const lessonFields = learnable.descriptor(deps.settings).lessonFields;
    const text = reader.question(reading);
    const c = learnable.collection;
    const question: Omit<TriageQuestion, 'choices'> =
      'suggestion' in outcome
        ? {
            collection: c,
            text,
            teach: {
              collection: c,
              entries,
              suggested: outcome.suggestion.value,
              suggestionLabel: outcome.suggestion.suggestionLabel,
              lessonFields,
            },
          }
        : {
            collection: c,
            text,
            teach: { collection: c, entries, lessonFields },
            noSuggestion: outcome.none,
          };
    return withChoices(question, learnable, collection);
  };
}

/**
 * What other collections name in a text (their entries' names, by their own learnable) or matched
 * in this message (their marks' hits, found again only when asked): never `learnable`'s to suggest.
 */
function namedElsewhere(
  deps: QuestionsDeps,
  tenant: TenantId,
  pinned: PinnedDefinition,
  message: MailMessage,
  learnable: Learnable,
): (text: string) => Promise<readonly string[]> {
  const others = deps.learnables.filter((l) => l.collection !== learnable.collection);
  const collections = new Set(others.map((l) => l.collection));
  let matched: Promise<string[]> | undefined;
  const hitTexts = async (): Promise<string[]> =>
    (await deps.matcherFor(tenant, pinned.definition))
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
export function withChoices(
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
