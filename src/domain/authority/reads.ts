/**
 * The authority's reads (§10.3, §13.4): the active version, any version by id, the history with
 * handles in place of person ids, the rules in force at a version and who put them there, and the
 * handles behind provenance ids.
 *
 * Owns: turning stored person ids into what people read ("[erased]" once forgotten, §14).
 * Does not own: loading versions (versions.ts) or any write.
 */
import type { TenantId } from '../tenant.ts';
import { ERASED } from '../definitions/index.ts';
import type { Authority, HistoryEntry, RuleInForce } from './authority.ts';
import { displayProvenance, parseProvenanceId } from './attribution.ts';
import type { AuthorityContext } from './authority-context.ts';

export type AuthorityReads = Pick<
  Authority,
  'descriptors' | 'active' | 'load' | 'history' | 'rulesInForce' | 'personHandles'
>;

export function authorityReads(ctx: AuthorityContext): AuthorityReads {
  const { store, versions } = ctx;

  /** Handles by person id, each asked once per call. */
  const handleResolver = (tenant: TenantId) => {
    const memo = new Map<string, Promise<string>>();
    return (id: string): Promise<string> => {
      let p = memo.get(id);
      if (p === undefined) {
        p = store.personHandle(tenant, id).then((h) => h ?? ERASED);
        memo.set(id, p);
      }
      return p;
    };
  };

  return {
    descriptors() {
      return ctx.learnables.map((l) => l.descriptor(ctx.options.settings));
    },

    async active(tenant) {
      const { base, n } = await versions.headState(tenant);
      return { definitionVersion: n, definition: base };
    },

    async load(tenant, versionId) {
      return versions.load(tenant, versionId, true);
    },

    async history(tenant, options): Promise<HistoryEntry[]> {
      const [rows, tombstoned] = await Promise.all([
        store.history(tenant, options),
        store.tombstonedVersionIds(tenant),
      ]);
      const dead = new Set(tombstoned);
      const resolve = handleResolver(tenant);
      return Promise.all(
        rows.map(async (a) => ({
          ...a,
          taughtBy: await resolve(a.taughtBy),
          tombstoned: dead.has(a.versionId),
        })),
      );
    },

    async rulesInForce(tenant, versionId): Promise<RuleInForce[]> {
      const d = await versions.load(tenant, versionId, true);
      const resolve = handleResolver(tenant);
      const out: RuleInForce[] = [];
      for (const [collection, entries] of d.collections) {
        const l = ctx.learnableOf(collection);
        if (l === undefined) continue;
        for (const [entry, content] of entries) {
          for (const rule of l.rules(entry, content)) {
            const { personId, via } = parseProvenanceId(rule.provenance.taughtBy);
            out.push({
              collection,
              entry,
              describes: rule.describes,
              activation: rule.provenance.activation,
              taughtBy: await resolve(personId),
              // §13.4: the application (or CLI operator) that wrote it for that person, if any.
              via,
              at: rule.provenance.at,
            });
          }
        }
      }
      return out;
    },

    async personHandles(tenant, ids) {
      // A provenance id in words: "dana@…" or "dana@…, via app:preshipment" (§13.4).
      const out = new Map<string, string | null>();
      for (const id of new Set(ids)) {
        out.set(id, await displayProvenance(id, (personId) => store.personHandle(tenant, personId)));
      }
      return out;
    },
  };
}
