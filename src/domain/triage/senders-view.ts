/**
 * The senders view: every sender the corpus has a track record for, what its mail was
 * read or answered as, whether a message carrying nothing but that sender settles (the reading is
 * made by the same rule as triage's, with the sender's record), and the lessons whose marks match
 * the sender (each one activation a person can revert in one step, §10.3).
 *
 * Owns: assembling the view. Does not own: the record (the corpus store), the rule (the readers).
 * Names no collection: the caller says which.
 */
import type { PinnedDefinition } from '../definitions/index.ts';
import type { Learnable, LearnableSettings, SenderRecord } from '../learnables/index.ts';
import { labelOf as entryLabel } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { discardedMessage, type CorpusStore, type SenderRow } from './corpus.ts';
import type { Matcher } from './definition-marks.ts';
import { readMessage } from './read-message.ts';

export interface SenderLesson {
  readonly activation: number;
  readonly entry: string;
  readonly label: string;
  /** What the lesson's learnable says it does ("'ops@fwd.example' in the from"). */
  readonly describes: string;
  readonly taughtBy: string;
  readonly at: string;
}

export interface SenderView {
  /** The address, or `@` and a domain. */
  readonly sender: string;
  readonly readAs: readonly {
    readonly entry: string;
    readonly label: string;
    readonly messages: number;
    readonly lastAt: string;
  }[];
  /** Whether a message carrying only this sender settles, and what the reading says. */
  readonly settlesAlone: boolean;
  readonly reads: string;
  readonly lessons: readonly SenderLesson[];
}

export interface SendersViewDeps {
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly resolvePerson: (id: string) => Promise<string | null>;
}

/** The senders of `collection`, most messages first, read under `pinned` (the active version). */
export async function sendersView(
  deps: SendersViewDeps,
  tenant: TenantId,
  pinned: PinnedDefinition,
  matcher: Matcher,
  collection: string,
  limit: number,
): Promise<SenderView[]> {
  const learnable = deps.learnables.find((l) => l.collection === collection);
  if (learnable === undefined) return [];
  const entries = pinned.definition.collections.get(collection);
  const labelOf = (entry: string): string => entryLabel(learnable, entries, entry);
  const rows = await deps.corpus.senders(tenant, collection, limit);
  const out: SenderView[] = [];
  for (const row of rows) out.push(await viewOf(deps, tenant, pinned, matcher, learnable, row, labelOf));
  return out;
}

async function viewOf(
  deps: SendersViewDeps,
  tenant: TenantId,
  pinned: PinnedDefinition,
  matcher: Matcher,
  learnable: Learnable,
  row: SenderRow,
  labelOf: (entry: string) => string,
): Promise<SenderView> {
  // A message that carries nothing but this sender (at a domain: an address no lesson names).
  const address = row.sender.startsWith('@') ? `someone${row.sender}` : row.sender;
  const message = bare(address);
  const record: SenderRecord = await deps.corpus.senderRecord(tenant, address, new Map(), new Map());
  const hits = matcher.match(message).filter((h) => h.mark.collection === learnable.collection);
  const names = new Map<string, string>();
  for (const id of new Set(hits.map((h) => h.mark.provenance.taughtBy)))
    names.set(id, (await deps.resolvePerson(id)) ?? '[erased]');
  const reading = readMessage(
    pinned.definition,
    pinned.definitionVersion,
    { markCount: matcher.markCount, match: () => hits },
    message,
    [learnable],
    deps.settings,
    (id) => names.get(id) ?? id,
    record,
  ).readings.get(learnable.collection);
  return {
    sender: row.sender,
    readAs: [...row.entries]
      .map(([entry, c]) => ({ entry, label: labelOf(entry), messages: c.messages, lastAt: c.lastAt }))
      .sort((a, b) => b.messages - a.messages),
    settlesAlone: reading?.settled ?? false,
    reads: reading?.line ?? '',
    lessons: lessonsOf(pinned, learnable, hits, labelOf, names),
  };
}

/** The lessons behind the hits: one per activation, phrased by the learnable. */
function lessonsOf(
  pinned: PinnedDefinition,
  learnable: Learnable,
  hits: ReturnType<Matcher['match']>,
  labelOf: (entry: string) => string,
  names: ReadonlyMap<string, string>,
): SenderLesson[] {
  const out = new Map<number, SenderLesson>();
  for (const h of hits) {
    const { activation, taughtBy, at } = h.mark.provenance;
    if (out.has(activation)) continue;
    const content = pinned.definition.collections.get(learnable.collection)?.get(h.mark.entry);
    const rule =
      content === undefined
        ? undefined
        : learnable.rules(h.mark.entry, content).find((r) => r.provenance.activation === activation);
    out.set(activation, {
      activation,
      entry: h.mark.entry,
      label: labelOf(h.mark.entry),
      describes: rule?.describes ?? h.mark.mark,
      taughtBy: names.get(taughtBy) ?? taughtBy,
      at,
    });
  }
  return [...out.values()].sort((a, b) => a.activation - b.activation);
}

/** A message with nothing in it but its sender. */
function bare(address: string): MailMessage {
  return {
    ...discardedMessage({ messageId: null, contentHash: '', date: null }),
    from: { address, name: '' },
  };
}
