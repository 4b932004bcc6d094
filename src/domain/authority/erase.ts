/**
 * Erasure (§14): a personal identifier taken out of every version that holds it (those versions
 * tombstoned, a new one without it activated when the active one held it, the objects only they
 * reach deleted), out of the audit trail and the person handles, and then, through the erasers
 * the composition root registered, out of every other store and cache; each reports its count.
 *
 * Owns: the erase verb and the shape of its report. Does not own: how a learnable takes the
 * identifier out of an entry (its `erase`), or how each store finds it (each Eraser).
 */
import { DomainError } from '../errors.ts';
import { canonicalJson } from '../json.ts';
import type { TenantId } from '../tenant.ts';
import type { EntryContent } from '../learnables/index.ts';
import {
  buildVersion,
  textMentions,
  walkVersions,
  type EntryChange,
  type VersionId,
} from '../definitions/index.ts';
import type { ActivationResult, EraseResult } from './authority.ts';
import type { AuthorityContext } from './authority-context.ts';
import { runErasers, type ErasedFrom } from './eraser.ts';
import type { Principal } from './principal.ts';

/** Shortest identifier erase accepts: shorter ones would match nearly everything. */
export const MIN_ERASE_IDENTIFIER_CHARS = 3;

/** The identifier to erase, trimmed; refused when too short to name anyone. */
export function checkEraseIdentifier(raw: unknown): string {
  const identifier = typeof raw === 'string' ? raw.trim() : '';
  if (identifier.length < MIN_ERASE_IDENTIFIER_CHARS) {
    throw new DomainError(
      'REQUEST_MALFORMED',
      `Give the identifier to erase (at least ${MIN_ERASE_IDENTIFIER_CHARS} characters, e.g. "dana@origin.example").`,
    );
  }
  return identifier;
}

export async function erase(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  input: { identifier: string; taughtBy: string; reason?: string },
): Promise<EraseResult> {
  const { writes, versions, store } = ctx;
  writes.authorize(principal, tenant, 'admin');
  const who = await writes.checkPerson(input.taughtBy, principal, tenant);
  const reason = writes.checkReason(input.reason);
  const identifier = checkEraseIdentifier(input.identifier);
  const signed = await writes.sign(tenant, principal, who, reason);
  const entryMentions = (collection: string, content: EntryContent): boolean => {
    const l = ctx.learnableOf(collection);
    return l === undefined
      ? textMentions(canonicalJson(content), identifier)
      : l.mentions(content, identifier);
  };
  const nameMentions = (name: string) => textMentions(name, identifier);

  const done = await writes.write(tenant, async (state) => {
    const { head, base } = state;
    const reader = versions.readerFor(tenant);
    const dead = new Set(await store.tombstonedVersionIds(tenant));
    const live = (await store.versionIds(tenant)).filter((v) => !dead.has(v));
    const walk = await walkVersions(live, reader, entryMentions, nameMentions);

    let activated: ActivationResult | null = null;
    let activeId: VersionId | null = head?.versionId ?? null;
    if (head !== null && walk.mentioningVersions.has(head.versionId)) {
      // §14: the active version holds the identifier, so a new version without it becomes active.
      const changes: EntryChange[] = [];
      for (const [collection, entries] of base.collections) {
        const l = ctx.learnableOf(collection);
        for (const [name, content] of entries) {
          if (nameMentions(name)) changes.push({ collection, entry: name, content: null });
          else if (entryMentions(collection, content)) {
            const removal = l?.erase(content, identifier);
            // A learnable that sees the identifier but cannot take it out loses the whole entry.
            const next = removal?.outcome === 'changed' ? removal.content : null;
            changes.push({ collection, entry: name, content: next });
          }
        }
      }
      const built = await buildVersion(head.versionId, changes, reader);
      const r = await writes.commit(tenant, state, built, changes, signed, {
        action: 'erase',
        describes: `erased a personal identifier from ${changes.length} ${changes.length === 1 ? 'entry' : 'entries'} (§14)`,
        collection: null,
        entry: null,
        value: null,
        target: null,
        at: ctx.options.clock.now(),
      });
      if (r === 'conflict') return 'conflict';
      activated = r;
      activeId = r.versionId;
    }

    // Objects still reachable from a version that stays live keep their bodies.
    const keep = [...live.filter((v) => !walk.mentioningVersions.has(v))];
    if (activeId !== null && !keep.includes(activeId)) keep.push(activeId);
    const kept = await walkVersions(
      keep,
      reader,
      () => false,
      () => false,
    );
    const doomed = [...walk.mentioning].filter((h) => !kept.reachable.has(h));
    const tombstoned = [...walk.mentioningVersions];
    await store.tombstone(tenant, { versionIds: tombstoned, objectHashes: doomed, identifier });
    versions.forget(tenant, tombstoned, doomed);
    const peopleForgotten = await store.erasePerson(tenant, identifier);
    return { done: { activated, tombstonedVersions: tombstoned, peopleForgotten } };
  });
  // §14: erase means everywhere: each store and cache beyond the definitions, and its count.
  const stores: ErasedFrom[] = [
    { store: 'definition versions tombstoned', changed: done.tombstonedVersions.length },
    { store: 'person handles', changed: done.peopleForgotten },
    ...(await runErasers(ctx.options.erasers ?? [], tenant, identifier)),
  ];
  return { ...done, stores };
}
