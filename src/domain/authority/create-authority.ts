/**
 * The authority (§10, §13.2, §13.4, §14): absorbs lessons into immutable, content-addressed
 * versions through the learnable that owns the collection, keeps the append-only activation
 * history, rolls back, reverts one lesson, erases a personal identifier and imports a directory.
 *
 * Lessons for one tenant serialize: an in-process per-tenant mutex, plus the store's commit
 * conflict (another process won the same definitionVersion) and a retry from a fresh read.
 *
 * Deliberately blind to the meaning of a lesson value and of an entry's content (§9): it passes
 * them to the learnable and stores them as opaque JSON. Does no I/O of its own (the store does).
 */
import { DomainError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import { canonicalJson, isPlainObject } from '../json.ts';
import type { TenantId } from '../tenant.ts';
import type { EntryContent, Learnable, LearnableSettings, LessonValue } from '../learnables/index.ts';
import type { Activation, Definition, PinnedDefinition, VersionId } from '../definitions/index.ts';
import type { DefinitionStore } from '../definitions/index.ts';
import { isVersionId } from '../definitions/index.ts';
import {
  createObjectCache,
  createObjectReader,
  MissingObjectError,
  type ObjectCache,
  type ObjectReader,
} from '../definitions/index.ts';
import { ERASED, textMentions } from '../definitions/index.ts';
import type { ErasedFrom, Eraser } from './eraser.ts';
import {
  applyChanges,
  buildVersion,
  EMPTY_VERSION_ID,
  emptyDefinition,
  loadDefinition,
  walkVersions,
  type EntryChange,
} from '../definitions/index.ts';
import type {
  ActivationResult,
  Authority,
  DirectoryImport,
  EraseResult,
  HistoryEntry,
  RuleInForce,
} from './authority.ts';
import type { Lesson, LessonResult } from './lesson.ts';
import { hasRole, type Principal, type Role } from './principal.ts';
import { createKeyedMutex } from './keyed-mutex.ts';
import {
  checkWritesAsItself,
  displayProvenance,
  parseProvenanceId,
  provenanceId,
  writerOf,
} from './attribution.ts';
import {
  checkLesson,
  collectionUnknown,
  entryNameProblem,
  reasonProblem,
  taughtByProblem,
} from './lesson-shape.ts';
import { entryUnknown, createsEntryHere } from './unknown-entry.ts';

/** How many times a write is retried from a fresh read after another process committed first. */
export const MAX_COMMIT_ATTEMPTS = 20;
/** Whole definitions kept in memory (the active one of each busy tenant, and pinned ones). */
const DEFINITION_CACHE_ENTRIES = 16;
/** Shortest identifier erase accepts: shorter ones would match nearly everything. */
export const MIN_ERASE_IDENTIFIER_CHARS = 3;

export interface AuthorityOptions {
  readonly store: DefinitionStore;
  readonly learnables: readonly Learnable[];
  readonly settings: LearnableSettings;
  readonly clock: Clock;
  /** Ids or handles of service accounts; a lesson taughtBy one of them is refused (§9). */
  readonly servicePrincipals?: readonly string[];
  /**
   * Whether `name` holds a token of this tenant as an application or a service (not a person):
   * such a taughtBy is refused too (§9). Absent: only `servicePrincipals` and the writer itself.
   */
  readonly isServiceAccount?: (tenant: TenantId, name: string) => Promise<boolean>;
  /** Shared object cache (defaults to a private one). */
  readonly objectCache?: ObjectCache;
  /** §14: every other store and cache an erase must reach, called in order after the tombstones. */
  readonly erasers?: readonly Eraser[];
}

export function createAuthority(options: AuthorityOptions): Authority {
  const { store, learnables, settings, clock } = options;
  const cache = options.objectCache ?? createObjectCache();
  const mutex = createKeyedMutex();
  const services = new Set((options.servicePrincipals ?? []).map((s) => s.trim().toLowerCase()));
  const definitions = new Map<string, Definition>();
  const validated = new Set<string>();

  const learnableOf = (collection: string) => learnables.find((l) => l.collection === collection);
  const readerFor = (tenant: TenantId): ObjectReader =>
    createObjectReader((hashes) => store.getObjects(tenant, hashes), cache);

  function remember(tenant: TenantId, d: Definition): void {
    const key = `${tenant}\0${d.versionId}`;
    definitions.delete(key);
    definitions.set(key, d);
    while (definitions.size > DEFINITION_CACHE_ENTRIES) {
      const oldest = definitions.keys().next();
      if (oldest.done === true) break;
      definitions.delete(oldest.value);
    }
  }

  /** Load a version's content; `checkStatus` refuses unknown and tombstoned ids (§14). */
  async function loadVersion(
    tenant: TenantId,
    versionId: VersionId,
    checkStatus: boolean,
  ): Promise<Definition> {
    if (versionId === EMPTY_VERSION_ID) return emptyDefinition();
    if (checkStatus) {
      // Asked every time, not cached: another process may have tombstoned it (§14).
      if (!isVersionId(versionId)) throw versionNotFound(tenant, versionId);
      const status = await store.versionStatus(tenant, versionId);
      if (status === 'unknown') throw versionNotFound(tenant, versionId);
      if (status === 'tombstoned') throw versionTombstoned(tenant, versionId);
    }
    const cached = definitions.get(`${tenant}\0${versionId}`);
    if (cached !== undefined) return cached;
    try {
      const d = await loadDefinition(versionId, readerFor(tenant), (collection, entry, content, hash) => {
        const key = `${collection}\0${hash}`;
        if (validated.has(key)) return;
        const l = learnableOf(collection);
        if (l === undefined) return;
        const v = l.validateContent(entry, content);
        if (!v.ok) {
          throw new DomainError(
            'INTERNAL',
            `The stored ${l.entryNoun} "${entry}" in version ${versionId} is not well formed (${v.reason}); restore the store from a backup.`,
          );
        }
        if (validated.size > 1_000_000) validated.clear();
        validated.add(key);
      });
      remember(tenant, d);
      return d;
    } catch (e) {
      if (e instanceof MissingObjectError) {
        const status = await store.versionStatus(tenant, versionId);
        if (status === 'tombstoned') throw versionTombstoned(tenant, versionId);
        throw new DomainError(
          'INTERNAL',
          `Version ${versionId} of tenant "${tenant}" cannot be read: ${e.message}. Restore the store from a backup.`,
          { cause: e },
        );
      }
      throw e;
    }
  }

  async function headState(
    tenant: TenantId,
  ): Promise<{ head: Activation | null; base: Definition; n: number }> {
    const head = await store.head(tenant);
    const base = head === null ? emptyDefinition() : await loadVersion(tenant, head.versionId, false);
    return { head, base, n: head?.definitionVersion ?? 0 };
  }

  function authorize(principal: Principal, tenant: TenantId, role: Role): void {
    // §13.2: the authority authorizes the writer itself and scopes every write to one tenant.
    if (principal.tenant !== tenant) {
      throw new DomainError(
        'FORBIDDEN',
        `"${principal.id}" belongs to tenant "${principal.tenant}" and cannot change tenant "${tenant}".`,
      );
    }
    if (!hasRole(principal, role)) {
      throw new DomainError('FORBIDDEN', `"${principal.id}" may not do this: it needs the "${role}" role.`);
    }
  }

  async function checkPerson(
    taughtBy: unknown,
    principal: Principal,
    tenant: TenantId,
    field = 'taughtBy',
  ): Promise<string> {
    const problem = taughtByProblem(taughtBy);
    if (problem !== null) {
      throw new DomainError('LESSON_MALFORMED', `${problem}.`, { details: { fields: [field] } });
    }
    const who = (taughtBy as string).trim();
    const key = who.toLowerCase();
    // §9: taughtBy identifies the human, never a service account standing in for one.
    // A person, or an operator at the CLI (someone at the shell), may name themself.
    const selfIsPerson = principal.kind === 'person' || principal.kind === 'operator';
    if (
      services.has(key) ||
      (!selfIsPerson && key === principal.id.toLowerCase()) ||
      (options.isServiceAccount !== undefined && (await options.isServiceAccount(tenant, who)))
    ) {
      throw new DomainError(
        'TAUGHT_BY_NOT_A_PERSON',
        `taughtBy "${who}" is a service account, not a person: give the person who taught this (e.g. "dana@warehouse.example").`,
      );
    }
    // §13.2: a person's token writes as that person; an application may name the human it acts for.
    checkWritesAsItself(principal, who);
    return who;
  }

  function checkReason(reason: unknown): string | null {
    const problem = reasonProblem(reason);
    if (problem !== null)
      throw new DomainError('LESSON_MALFORMED', `${problem}.`, { details: { fields: ['reason'] } });
    return typeof reason === 'string' && reason.trim() !== '' ? reason : null;
  }

  /** Run a write for one tenant: serialized in-process, retried from a fresh read on conflict. */
  async function write<T>(tenant: TenantId, attempt: () => Promise<{ done: T } | 'conflict'>): Promise<T> {
    return mutex.run(tenant, async () => {
      for (let i = 0; i < MAX_COMMIT_ATTEMPTS; i++) {
        const r = await attempt();
        if (r !== 'conflict') return r.done;
      }
      throw new DomainError(
        'CONFLICT',
        `Tenant "${tenant}" is being changed by other writers right now; nothing was written. Try again.`,
      );
    });
  }

  async function commit(
    tenant: TenantId,
    base: Definition,
    n: number,
    built: { versionId: VersionId; objects: readonly { hash: string; body: string }[] },
    changes: readonly EntryChange[] | Definition,
    activation: Omit<Activation, 'definitionVersion' | 'versionId' | 'previousVersionId'>,
  ): Promise<ActivationResult | 'conflict'> {
    const row: Activation = {
      ...activation,
      definitionVersion: n + 1,
      versionId: built.versionId,
      previousVersionId: n === 0 ? null : base.versionId,
    };
    const r = await store.commit(tenant, {
      expectedDefinitionVersion: n,
      objects: built.objects,
      activation: row,
    });
    if (r === 'conflict') return 'conflict';
    remember(
      tenant,
      Array.isArray(changes) ? applyChanges(base, changes, built.versionId) : (changes as Definition),
    );
    return {
      definitionVersion: row.definitionVersion,
      versionId: row.versionId,
      previousVersionId: row.previousVersionId,
      describes: row.describes,
    };
  }

  /**
   * ENTRY_UNKNOWN for a lesson naming an entry nobody has: the nearest existing entries by name and
   * label (the learnable's `label`, never a key of the content), and how to create one instead.
   */

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

  /** A provenance id in words: "dana@…" or "dana@…, via app:preshipment" (§13.4). */
  const provenanceName = (tenant: TenantId, id: string): Promise<string | null> =>
    displayProvenance(id, (personId) => store.personHandle(tenant, personId));

  return {
    descriptors() {
      return learnables.map((l) => l.descriptor(settings));
    },

    async absorb(tenant, principal, lesson: Lesson): Promise<LessonResult> {
      authorize(principal, tenant, 'teach');
      const checked = checkLesson(lesson, learnables);
      const who = await checkPerson(checked.taughtBy, principal, tenant);
      const person = await store.personId(tenant, who); // §14: a stable internal id, not the address
      const { learnable, collection, entry, value } = checked;
      return write(tenant, async () => {
        const { head, base, n } = await headState(tenant);
        const current = base.collections.get(collection)?.get(entry);
        // Issue 12.3: no entry by accident. A lesson for an entry nobody has creates one only if it
        // asks to, the way its learnable declares; the learnable judges the value, not the authority (§9).
        const creates = current === undefined;
        if (creates && !createsEntryHere(learnable, value)) {
          throw entryUnknown(learnable, entry, base.collections.get(collection));
        }
        const stamp = { activation: n + 1, taughtBy: provenanceId(person, who, principal), at: clock.now() };
        const absorbed = learnable.absorb(entry, current, value, stamp);
        if (absorbed.outcome === 'refused') {
          // §10.1: the learnable's reason, unchanged.
          throw new DomainError('LESSON_REFUSED', absorbed.reason, { details: { collection, entry } });
        }
        const unchanged = (describes: string): { done: LessonResult } => ({
          done: { learned: false, describes, definitionVersion: n, versionId: base.versionId },
        });
        // §10.2: a lesson that adds nothing is not an error and makes no version.
        if (absorbed.outcome === 'unchanged') return unchanged(absorbed.describes);
        // The learnable's words, and that they made a new entry.
        const describes = creates
          ? `new ${learnable.entryNoun} "${entry}": ${absorbed.describes}`
          : absorbed.describes;
        const changes = [{ collection, entry, content: absorbed.content }];
        const built = await buildVersion(head?.versionId ?? null, changes, readerFor(tenant));
        if (built.versionId === base.versionId) return unchanged(absorbed.describes);
        const r = await commit(tenant, base, n, built, changes, {
          action: 'teach',
          taughtBy: person,
          writer: writerOf(principal),
          reason: checked.reason,
          describes,
          collection,
          entry,
          value,
          target: null,
          at: stamp.at,
        });
        if (r === 'conflict') return 'conflict';
        return {
          done: {
            learned: true,
            describes: r.describes,
            definitionVersion: r.definitionVersion,
            versionId: r.versionId,
            ...(r.previousVersionId === null ? {} : { previousVersionId: r.previousVersionId }),
          },
        };
      });
    },

    async active(tenant): Promise<PinnedDefinition> {
      const { base, n } = await headState(tenant);
      return { definitionVersion: n, definition: base };
    },

    async load(tenant, versionId) {
      return loadVersion(tenant, versionId, true);
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

    async rollback(tenant, principal, input) {
      authorize(principal, tenant, 'teach');
      const who = await checkPerson(input.taughtBy, principal, tenant);
      const reason = checkReason(input.reason);
      if (!Number.isSafeInteger(input.to) || input.to < 0) {
        throw new DomainError(
          'DEFINITION_VERSION_NOT_FOUND',
          `"${String(input.to)}" is not a definitionVersion: give a whole number from the history.`,
        );
      }
      const person = await store.personId(tenant, who);
      return write(tenant, async () => {
        const { head, base, n } = await headState(tenant);
        let targetId: VersionId;
        if (input.to === 0) targetId = EMPTY_VERSION_ID;
        else {
          const target = input.to > n ? null : await store.activation(tenant, input.to);
          if (target === null) {
            throw new DomainError(
              'DEFINITION_VERSION_NOT_FOUND',
              `Tenant "${tenant}" has no definitionVersion ${input.to}: its history runs from 1 to ${n}.`,
            );
          }
          targetId = target.versionId;
        }
        if (head === null || targetId === base.versionId) {
          return {
            done: {
              definitionVersion: n,
              versionId: base.versionId,
              previousVersionId: head?.previousVersionId ?? null,
              describes: `The content of definitionVersion ${input.to} is already active; nothing changed.`,
            },
          };
        }
        // Loading checks it is not tombstoned (§14) and that every object is still present.
        const target = await loadVersion(tenant, targetId, true);
        const r = await commit(tenant, base, n, { versionId: targetId, objects: [] }, target, {
          action: 'rollback',
          taughtBy: person,
          writer: writerOf(principal),
          reason,
          describes: `rolled back to the content of definitionVersion ${input.to}`,
          collection: null,
          entry: null,
          value: null,
          target: input.to,
          at: clock.now(),
        });
        return r === 'conflict' ? 'conflict' : { done: r };
      });
    },

    async revert(tenant, principal, input) {
      authorize(principal, tenant, 'teach');
      const who = await checkPerson(input.taughtBy, principal, tenant);
      const reason = checkReason(input.reason);
      const person = await store.personId(tenant, who);
      return write(tenant, async () => {
        const old = Number.isSafeInteger(input.activation)
          ? await store.activation(tenant, input.activation)
          : null;
        if (old === null) {
          throw new DomainError(
            'ACTIVATION_NOT_FOUND',
            `Tenant "${tenant}" has no activation ${String(input.activation)}: pick a number from the history.`,
          );
        }
        if (old.action !== 'teach' || old.collection === null || old.entry === null || old.value === null) {
          throw new DomainError(
            'NOTHING_TO_REVERT',
            `Activation ${old.definitionVersion} was a ${old.action}, not a lesson; to undo it, roll back to the definitionVersion before it.`,
          );
        }
        const l = learnableOf(old.collection);
        if (l === undefined) throw collectionUnknown(old.collection, learnables);
        const { head, base, n } = await headState(tenant);
        const content = base.collections.get(old.collection)?.get(old.entry);
        const removal =
          content === undefined
            ? ({ outcome: 'unchanged' } as const)
            : l.revert(old.entry, content, old.value, old.definitionVersion);
        if (removal.outcome === 'unchanged') {
          throw new DomainError(
            'NOTHING_TO_REVERT',
            `What activation ${old.definitionVersion} taught ${old.entry} is no longer in the active version (it was already reverted, rolled back or erased); nothing to revert.`,
          );
        }
        const changes = [{ collection: old.collection, entry: old.entry, content: removal.content }];
        const built = await buildVersion(head?.versionId ?? null, changes, readerFor(tenant));
        const r = await commit(tenant, base, n, built, changes, {
          action: 'revert',
          taughtBy: person,
          writer: writerOf(principal),
          reason,
          describes: `took back activation ${old.definitionVersion}: ${l.describe(old.value, old.entry)}`,
          collection: old.collection,
          entry: old.entry,
          value: old.value,
          target: old.definitionVersion,
          at: clock.now(),
        });
        return r === 'conflict' ? 'conflict' : { done: r };
      });
    },

    async erase(tenant, principal, input): Promise<EraseResult> {
      authorize(principal, tenant, 'admin');
      const who = await checkPerson(input.taughtBy, principal, tenant);
      const reason = checkReason(input.reason);
      const identifier = typeof input.identifier === 'string' ? input.identifier.trim() : '';
      if (identifier.length < MIN_ERASE_IDENTIFIER_CHARS) {
        throw new DomainError(
          'REQUEST_MALFORMED',
          `Give the identifier to erase (at least ${MIN_ERASE_IDENTIFIER_CHARS} characters, e.g. "dana@origin.example").`,
        );
      }
      const person = await store.personId(tenant, who);
      const entryMentions = (collection: string, content: EntryContent): boolean => {
        const l = learnableOf(collection);
        return l === undefined
          ? textMentions(canonicalJson(content), identifier)
          : l.mentions(content, identifier);
      };
      const nameMentions = (name: string) => textMentions(name, identifier);

      const done = await write(tenant, async () => {
        const { head, base, n } = await headState(tenant);
        const reader = readerFor(tenant);
        const dead = new Set(await store.tombstonedVersionIds(tenant));
        const live = (await store.versionIds(tenant)).filter((v) => !dead.has(v));
        const walk = await walkVersions(live, reader, entryMentions, nameMentions);

        let activated: ActivationResult | null = null;
        let activeId: VersionId | null = head?.versionId ?? null;
        if (head !== null && walk.mentioningVersions.has(head.versionId)) {
          // §14: the active version holds the identifier, so a new version without it becomes active.
          const changes: EntryChange[] = [];
          for (const [collection, entries] of base.collections) {
            const l = learnableOf(collection);
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
          const r = await commit(tenant, base, n, built, changes, {
            action: 'erase',
            taughtBy: person,
            writer: writerOf(principal),
            reason,
            describes: `erased a personal identifier from ${changes.length} ${changes.length === 1 ? 'entry' : 'entries'} (§14)`,
            collection: null,
            entry: null,
            value: null,
            target: null,
            at: clock.now(),
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
        for (const h of doomed) cache.delete(h);
        for (const v of tombstoned) definitions.delete(`${tenant}\0${v}`);
        const peopleForgotten = await store.erasePerson(tenant, identifier);
        return { done: { activated, tombstonedVersions: tombstoned, peopleForgotten } };
      });
      // §14: erase means everywhere: each store and cache beyond the definitions, and its count.
      const stores: ErasedFrom[] = [
        { store: 'definition versions tombstoned', changed: done.tombstonedVersions.length },
        { store: 'person handles', changed: done.peopleForgotten },
      ];
      for (const e of options.erasers ?? []) stores.push(...(await e.erase(tenant, identifier)));
      return { ...done, stores };
    },

    async import(tenant, principal, input) {
      authorize(principal, tenant, 'admin');
      const who = await checkPerson(input.taughtBy, principal, tenant);
      const reason = checkReason(input.reason);
      const lessons = checkDirectory(input.directory, learnables);
      const person = await store.personId(tenant, who);
      return write(tenant, async () => {
        const { head, base, n } = await headState(tenant);
        const stamp = { activation: n + 1, taughtBy: provenanceId(person, who, principal), at: clock.now() };
        const working = new Map<string, Map<string, EntryContent>>();
        let learned = 0;
        for (const { learnable, collection, entry, value, index } of lessons) {
          let col = working.get(collection);
          if (col === undefined) working.set(collection, (col = new Map<string, EntryContent>()));
          const current = col.get(entry) ?? base.collections.get(collection)?.get(entry);
          // The same path as a taught lesson: the learnable judges and absorbs each value (§10.1).
          const absorbed = learnable.absorb(entry, current, value, stamp);
          if (absorbed.outcome === 'refused') {
            throw new DomainError(
              'IMPORT_MALFORMED',
              `Lesson ${index + 1} for ${collection} "${entry}" was refused: ${absorbed.reason}`,
              { details: { collection, entry, index } },
            );
          }
          if (absorbed.outcome === 'learned') {
            col.set(entry, absorbed.content);
            learned++;
          }
        }
        const changes: EntryChange[] = [];
        const counts: string[] = [];
        for (const [collection, col] of working) {
          for (const [entry, content] of col) changes.push({ collection, entry, content });
          if (col.size > 0) counts.push(`${col.size} in ${collection}`);
        }
        if (changes.length === 0) return { done: null };
        const built = await buildVersion(head?.versionId ?? null, changes, readerFor(tenant));
        if (built.versionId === base.versionId) return { done: null };
        const r = await commit(tenant, base, n, built, changes, {
          action: 'import',
          taughtBy: person,
          writer: writerOf(principal),
          reason,
          describes: `imported ${learned} lesson${learned === 1 ? '' : 's'} into ${changes.length} ${changes.length === 1 ? 'entry' : 'entries'} (${counts.join(', ')})`,
          collection: null,
          entry: null,
          value: null,
          target: null,
          at: stamp.at,
        });
        return r === 'conflict' ? 'conflict' : { done: r };
      });
    },

    async rulesInForce(tenant, versionId): Promise<RuleInForce[]> {
      const d = await loadVersion(tenant, versionId, true);
      const resolve = handleResolver(tenant);
      const out: RuleInForce[] = [];
      for (const [collection, entries] of d.collections) {
        const l = learnableOf(collection);
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

    async personHandles(tenant, ids): Promise<ReadonlyMap<string, string | null>> {
      const out = new Map<string, string | null>();
      for (const id of new Set(ids)) out.set(id, await provenanceName(tenant, id));
      return out;
    },
  };
}

interface DirectoryLesson {
  readonly learnable: Learnable;
  readonly collection: string;
  readonly entry: string;
  readonly value: LessonValue;
  readonly index: number;
}

/** Check a directory's envelope (collection -> entry -> list of lesson values) before absorbing it. */
function checkDirectory(directory: DirectoryImport, learnables: readonly Learnable[]): DirectoryLesson[] {
  const malformed = (why: string) =>
    new DomainError('IMPORT_MALFORMED', `The directory cannot be imported: ${why}.`);
  if (!isPlainObject(directory) || !isPlainObject((directory as { collections?: unknown }).collections)) {
    throw malformed(
      'it must be an object {"collections": {"<collection>": {"<entry>": [<lesson value>, …]}}}',
    );
  }
  const out: DirectoryLesson[] = [];
  for (const [collection, entries] of Object.entries(directory.collections)) {
    const learnable = learnables.find((l) => l.collection === collection);
    if (learnable === undefined) throw collectionUnknown(collection, learnables);
    if (!isPlainObject(entries))
      throw malformed(`"${collection}" must map entry names to lists of lesson values`);
    for (const [entry, values] of Object.entries(entries)) {
      // The same names a taught lesson may use (issue 12.3: what is accepted round-trips everywhere).
      const problem = entryNameProblem(entry);
      if (problem !== null) throw malformed(`${collection}: ${problem}`);
      if (!Array.isArray(values)) throw malformed(`${collection} "${entry}" must be a list of lesson values`);
      values.forEach((value: unknown, index: number) => {
        if (!isPlainObject(value))
          throw malformed(`lesson ${index + 1} of ${collection} "${entry}" must be an object`);
        let plain: LessonValue;
        try {
          plain = JSON.parse(canonicalJson(value)) as LessonValue;
        } catch {
          throw malformed(`lesson ${index + 1} of ${collection} "${entry}" must be plain JSON`);
        }
        out.push({ learnable, collection, entry, value: plain, index });
      });
    }
  }
  return out;
}

function versionNotFound(tenant: TenantId, versionId: string): DomainError {
  return new DomainError(
    'DEFINITION_VERSION_NOT_FOUND',
    `Tenant "${tenant}" has no version ${versionId}: use a versionId from its history.`,
    { details: { versionId } },
  );
}

function versionTombstoned(tenant: TenantId, versionId: string): DomainError {
  return new DomainError(
    'DEFINITION_VERSION_TOMBSTONED',
    `Version ${versionId} of tenant "${tenant}" was tombstoned when a personal identifier was erased (§14): its content is gone and it can never be loaded or activated again. Use the active version instead.`,
    { details: { versionId } },
  );
}
