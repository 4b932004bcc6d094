/**
 * Reading one message on one version: the matcher compiled for it (in slices, with the tenant's kept
 * analyses), every matched mark's teacher resolved to a display form (§13.4, §14), and, for a
 * reading that rests on its sender's marks alone, the sender's track record read in the same round
 * trip as the message's kept row (docs/learning.md, "The track record").
 *
 * Owns: the order of those reads. Does not own: what a reading decides (read-message.ts and each
 * learnable's reader) or what is kept afterwards (triage-service.ts).
 */
import type { PinnedDefinition } from '../definitions/index.ts';
import type { Learnable, LearnableSettings, MarkHit, SenderRecord } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import { ANALYSER_VERSION, type AnalysisKeeping, type MarkAnalysisStore } from '../matching/index.ts';
import type { TenantId } from '../tenant.ts';
import type { CorpusRecord, CorpusStore } from './corpus.ts';
import type { Matcher, MatcherCache } from './definition-marks.ts';
import { needsSenderRecord, readMessage } from './read-message.ts';
import type { MessageReading } from './reading.ts';

export interface ReadAtDeps {
  readonly corpus: CorpusStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly matcherCache: MatcherCache;
  readonly analyses?: MarkAnalysisStore | undefined;
  readonly resolvePerson?: ((tenant: TenantId, personId: string) => Promise<string | null>) | undefined;
}

/** What the message itself was last decided as, left out of its sender's record. */
export type KeptDecision = { readonly own: ReadonlyMap<string, string> } | { readonly key: string };

export type ReadAt = MessageReading & {
  readonly recordKeys: ReadonlyMap<string, string>;
  /** Given a corpus key: the message's kept row, read with the record. */
  readonly existing?: CorpusRecord | null;
};

export interface Reader {
  /** The version's matcher, as a task compiles it (sliced, keeping the tenant's analyses). */
  readonly matcherFor: (tenant: TenantId, definition: PinnedDefinition['definition']) => Promise<Matcher>;
  /**
   * The message read on `pinned`, leaving out what it was last decided as: `own`, or, given its
   * corpus `key`, what its kept row says (returned as `existing`).
   */
  readonly read: (
    tenant: TenantId,
    pinned: PinnedDefinition,
    message: MailMessage,
    kept: KeptDecision,
  ) => Promise<ReadAt>;
  /** The message's track-record keys beyond its sender, each with the collection that weighs it. */
  readonly recordKeysOf: (message: MailMessage, hits: readonly MarkHit[]) => Map<string, string>;
}

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

export function createReader(deps: ReadAtDeps): Reader {
  const matcherFor: Reader['matcherFor'] = (tenant, definition) =>
    deps.matcherCache.matcherFor(definition, deps.learnables, analysisKeeping(deps.analyses, tenant));

  function recordKeysOf(message: MailMessage, hits: readonly MarkHit[]): Map<string, string> {
    const keys = new Map<string, string>();
    for (const l of deps.learnables)
      for (const k of l.recordKeys?.(message, hits) ?? []) keys.set(k, l.collection);
    return keys;
  }

  async function teachersOf(tenant: TenantId, hits: readonly MarkHit[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (deps.resolvePerson === undefined) return names;
    for (const id of new Set(hits.map((h) => h.mark.provenance.taughtBy)))
      names.set(id, (await deps.resolvePerson(tenant, id)) ?? '[erased]');
    return names;
  }

  async function read(
    tenant: TenantId,
    pinned: PinnedDefinition,
    message: MailMessage,
    kept: KeptDecision,
  ): Promise<ReadAt> {
    const matcher = await matcherFor(tenant, pinned.definition);
    const hits = matcher.match(message);
    const keys = recordKeysOf(message, hits);
    const names = await teachersOf(tenant, hits);
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
      const record = await deps.corpus.senderRecord(tenant, from.address, kept.own, keys);
      return { ...readWith(record), recordKeys: keys };
    }
    if (from === null)
      return { ...first, recordKeys: keys, existing: await deps.corpus.get(tenant, kept.key) };
    const both = await deps.corpus.getWithSenderRecord(tenant, kept.key, from.address, keys);
    return { ...readWith(both.record), recordKeys: keys, existing: both.existing };
  }

  return { matcherFor, read, recordKeysOf };
}
