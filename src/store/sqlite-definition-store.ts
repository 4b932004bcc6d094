/**
 * The DefinitionStore port over Kysely (the embedded default runs it on SQLite). Objects are
 * content-addressed and shared; the activation history is append-only and its
 * (tenant, definition_version) primary key makes a lost update impossible: a second writer that
 * read the same head gets 'conflict' and the authority retries from a fresh read.
 *
 * Queries are written dialect-neutral (ON CONFLICT, no SQLite-only functions) so a PostgreSQL store
 * can share them. Every method takes the tenant scope explicitly (§13.2). Entry contents and lesson
 * values are opaque text here (§9).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  identifierMatcher,
  scrubJson,
  scrubText,
  type Activation,
  type ActivationAction,
  type VersionId,
  type WriterKind,
  type CommitRequest,
  type DefinitionStore,
} from '../domain/definitions/index.ts';
import { handleKey } from '../domain/authority/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { currentGeneration, RememberedReads, writing } from './read-validity.ts';

/** Hashes per IN (...) list, well under every engine's parameter limit. */
const CHUNK = 500;

interface ActivationRow {
  tenant: string;
  definition_version: number;
  action: string;
  version_id: string;
  previous_version_id: string | null;
  taught_by: string;
  writer_principal: string;
  writer_kind: string;
  writer_token_id: string | null;
  reason: string | null;
  describes: string;
  collection: string | null;
  entry: string | null;
  value: string | null;
  target: number | null;
  at: string;
}

/** The DefinitionStore plus what the authority needs beyond the port's minimum. */
export interface SqliteDefinitionStore extends DefinitionStore {
  /** Version ids tombstoned for this tenant. */
  tombstonedVersionIds(tenant: TenantId): Promise<VersionId[]>;
}

class CommitConflict extends Error {}

function toActivation(r: ActivationRow): Activation {
  return {
    definitionVersion: Number(r.definition_version),
    action: r.action as ActivationAction,
    versionId: r.version_id,
    previousVersionId: r.previous_version_id,
    taughtBy: r.taught_by,
    writer: {
      principal: r.writer_principal,
      kind: r.writer_kind as WriterKind,
      tokenId: r.writer_token_id,
    },
    reason: r.reason,
    describes: r.describes,
    collection: r.collection,
    entry: r.entry,
    value: r.value === null ? null : (JSON.parse(r.value) as Record<string, unknown>),
    target: r.target === null ? null : Number(r.target),
    at: r.at,
  };
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Most person handles remembered per connection (the oldest dropped first). */
const MAX_HANDLES = 10_000;
/** Most tenants' heads remembered. */
const MAX_HEADS = 1_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
export function createSqliteDefinitionStore(db: Kysely<any>): SqliteDefinitionStore {
  // Every task reads the head and the handles of whoever taught what it matched: remembered, and
  // exact (read-validity.ts): another process's commit or a write through this connection is seen
  // by the next read (§10.3 a lesson takes effect on the next task; §14 an erased handle is gone).
  const heads = new RememberedReads<Activation | null>(db, MAX_HEADS);
  const handles = new RememberedReads<string | null>(db, MAX_HANDLES);

  const store: SqliteDefinitionStore = {
    async head(tenant) {
      const generation = await currentGeneration(db);
      if (heads.has(tenant, generation)) return heads.get(tenant)!;
      const r = (await db
        .selectFrom('activations')
        .selectAll()
        .where('tenant', '=', tenant)
        .orderBy('definition_version', 'desc')
        .limit(1)
        .executeTakeFirst()) as ActivationRow | undefined;
      const head = r === undefined ? null : frozen(toActivation(r));
      heads.set(tenant, head, generation);
      return head;
    },

    async getObjects(tenant, hashes) {
      const out = new Map<string, string>();
      for (const part of chunks([...new Set(hashes)])) {
        const rows = (await db
          .selectFrom('objects')
          .select(['hash', 'body'])
          .where('tenant', '=', tenant)
          .where('hash', 'in', part)
          .where('body', 'is not', null)
          .execute()) as { hash: string; body: string }[];
        for (const r of rows) out.set(r.hash, r.body);
      }
      return out;
    },

    async commit(tenant, request: CommitRequest) {
      const a = request.activation;
      if (a.definitionVersion !== request.expectedDefinitionVersion + 1) {
        throw new Error(
          `commit: activation ${a.definitionVersion} does not follow the expected head ${request.expectedDefinitionVersion}`,
        );
      }
      try {
        await db.transaction().execute(async (trx) => {
          // The activation goes first: it takes the write lock and settles the race before any object is written.
          const inserted = await trx
            .insertInto('activations')
            .values({
              tenant,
              definition_version: a.definitionVersion,
              action: a.action,
              version_id: a.versionId,
              previous_version_id: a.previousVersionId,
              taught_by: a.taughtBy,
              writer_principal: a.writer.principal,
              writer_kind: a.writer.kind,
              writer_token_id: a.writer.tokenId,
              reason: a.reason,
              describes: a.describes,
              collection: a.collection,
              entry: a.entry,
              value: a.value === null ? null : JSON.stringify(a.value),
              target: a.target,
              at: a.at,
            })
            .onConflict((oc) => oc.columns(['tenant', 'definition_version']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) throw new CommitConflict();
          // Versions are contiguous, so a taken row means the head moved since the writer read it.
          for (const part of chunks(request.objects)) {
            await trx
              .insertInto('objects')
              .values(part.map((o) => ({ tenant, hash: o.hash, body: o.body })))
              // An object erased earlier (body null) may legitimately be taught again.
              .onConflict((oc) =>
                oc
                  .columns(['tenant', 'hash'])
                  .doUpdateSet((eb) => ({ body: eb.ref('excluded.body') }))
                  .where('objects.body', 'is', null),
              )
              .execute();
          }
        });
        return 'committed';
      } catch (e) {
        if (e instanceof CommitConflict) return 'conflict';
        if (isBusy(e)) return 'conflict';
        throw e;
      }
    },

    async history(tenant, options) {
      let q = db.selectFrom('activations').selectAll().where('tenant', '=', tenant);
      if (options?.beforeVersion !== undefined) q = q.where('definition_version', '<', options.beforeVersion);
      q = q.orderBy('definition_version', 'desc');
      if (options?.limit !== undefined) q = q.limit(options.limit);
      return ((await q.execute()) as ActivationRow[]).map(toActivation);
    },

    async activation(tenant, definitionVersion) {
      const r = (await db
        .selectFrom('activations')
        .selectAll()
        .where('tenant', '=', tenant)
        .where('definition_version', '=', definitionVersion)
        .executeTakeFirst()) as ActivationRow | undefined;
      return r === undefined ? null : toActivation(r);
    },

    async versionStatus(tenant, versionId) {
      const t = await db
        .selectFrom('tombstones')
        .select('version_id')
        .where('tenant', '=', tenant)
        .where('version_id', '=', versionId)
        .executeTakeFirst();
      if (t !== undefined) return 'tombstoned';
      const a = await db
        .selectFrom('activations')
        .select('definition_version')
        .where('tenant', '=', tenant)
        .where('version_id', '=', versionId)
        .limit(1)
        .executeTakeFirst();
      return a === undefined ? 'unknown' : 'live';
    },

    async versionIds(tenant) {
      const rows = (await db
        .selectFrom('activations')
        .select('version_id')
        .distinct()
        .where('tenant', '=', tenant)
        .execute()) as { version_id: string }[];
      return rows.map((r) => r.version_id);
    },

    async tombstonedVersionIds(tenant) {
      const rows = (await db
        .selectFrom('tombstones')
        .select('version_id')
        .where('tenant', '=', tenant)
        .execute()) as { version_id: string }[];
      return rows.map((r) => r.version_id);
    },

    async tombstone(tenant, request) {
      const at = new Date().toISOString();
      const matcher = identifierMatcher(request.identifier);
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(request.versionIds)) {
          await trx
            .insertInto('tombstones')
            .values(part.map((v) => ({ tenant, version_id: v, at })))
            .onConflict((oc) => oc.columns(['tenant', 'version_id']).doNothing())
            .execute();
        }
        for (const part of chunks(request.objectHashes)) {
          await trx
            .updateTable('objects')
            .set({ body: null })
            .where('tenant', '=', tenant)
            .where('hash', 'in', part)
            .execute();
        }
        // §14: kept regex analyses are erased (and counted) by their own eraser (sqlite-erasure.ts).
        // §14: the identifier leaves the audit trail too; the rows themselves remain.
        const rows = (await trx
          .selectFrom('activations')
          .selectAll()
          .where('tenant', '=', tenant)
          .execute()) as ActivationRow[];
        for (const r of rows) {
          const texts = [r.describes, r.reason ?? '', r.value ?? '', r.entry ?? ''];
          if (!texts.some((t) => new RegExp(matcher.source, matcher.flags).test(t))) continue;
          const value =
            r.value === null
              ? null
              : JSON.stringify(scrubJson(JSON.parse(r.value) as unknown, request.identifier));
          await trx
            .updateTable('activations')
            .set({
              describes: scrubText(r.describes, request.identifier),
              reason: r.reason === null ? null : scrubText(r.reason, request.identifier),
              entry: r.entry === null ? null : scrubText(r.entry, request.identifier),
              value,
            })
            .where('tenant', '=', tenant)
            .where('definition_version', '=', r.definition_version)
            .execute();
        }
      });
    },

    async personId(tenant, handle) {
      const key = handleKey(handle);
      const find = async () =>
        await db
          .selectFrom('people')
          .select('id')
          .where('tenant', '=', tenant)
          .where('handle_key', '=', key)
          .executeTakeFirst();
      const found = await find();
      if (found !== undefined) return String(found.id);
      await db
        .insertInto('people')
        .values({ tenant, id: `person-${randomUUID()}`, handle: handle.trim(), handle_key: key })
        .onConflict((oc) => oc.columns(['tenant', 'handle_key']).doNothing())
        .execute();
      const made = await find();
      if (made === undefined) throw new Error('personId: the person row vanished');
      return String(made.id);
    },

    async personHandle(tenant, id) {
      const generation = await currentGeneration(db);
      const key = `${tenant}\u0000${id}`;
      if (handles.has(key, generation)) return handles.get(key)!;
      const r = await db
        .selectFrom('people')
        .select('handle')
        .where('tenant', '=', tenant)
        .where('id', '=', id)
        .executeTakeFirst();
      const h: unknown = r?.handle;
      const handle = typeof h === 'string' ? h : null;
      handles.set(key, handle, generation);
      return handle;
    },

    async erasePerson(tenant, identifier) {
      const rows = (await db
        .selectFrom('people')
        .select(['id', 'handle'])
        .where('tenant', '=', tenant)
        .where('handle', 'is not', null)
        .execute()) as { id: string; handle: string }[];
      const matcher = identifierMatcher(identifier);
      const ids = rows
        .filter((r) => new RegExp(matcher.source, matcher.flags).test(r.handle))
        .map((r) => r.id);
      for (const part of chunks(ids)) {
        await db
          .updateTable('people')
          .set({ handle: null, handle_key: null })
          .where('tenant', '=', tenant)
          .where('id', 'in', part)
          .execute();
      }
      return ids.length;
    },

    async tenants() {
      const rows = (await db.selectFrom('activations').select('tenant').distinct().execute()) as {
        tenant: string;
      }[];
      return rows.map((r) => r.tenant as TenantId);
    },
  };
  // Every write through this connection makes what was remembered stale.
  return {
    ...store,
    commit: (tenant, request) => writing(db, () => store.commit(tenant, request)),
    tombstone: (tenant, request) => writing(db, () => store.tombstone(tenant, request)),
    personId: (tenant, handle) => writing(db, () => store.personId(tenant, handle)),
    erasePerson: (tenant, identifier) => writing(db, () => store.erasePerson(tenant, identifier)),
  };
}

/** A remembered activation is shared by every reader: frozen, so no reader can change another's. */
function frozen(a: Activation): Activation {
  if (a.value !== null) Object.freeze(a.value);
  Object.freeze(a.writer);
  return Object.freeze(a);
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
