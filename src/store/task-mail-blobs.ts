/**
 * A task's raw mail, written once, outside the SDK's task row. The SDK keeps a task's
 * history as JSON in its row, so a large mail was stored as base64 text (a third larger), encoded
 * again on every save, and written twice when its task parked first. Here each file part of at
 * least BLOB_MIN_BYTES goes into `task_mail` once (by tenant, task and sha256), and the row keeps
 * the part with no bytes and a reference in its metadata (MAIL_REF_KEY: hash and size). A load
 * puts the bytes back, so the SDK, the executor and every client see the part as it was sent.
 *
 * Small parts stay in the row: a ~2 KB mail costs one statement less that way, and the row is
 * written once for a task that ends in its first turn.
 *
 * Erase and retention find the bytes through the reference (sqlite-task-mail.ts), and drop them
 * with the part. Every query is scoped by tenant (§13.2).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ListTasksRequest, ListTasksResponse, Message, Part, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { TenantId } from '../domain/tenant.ts';

/** File parts this large or larger are kept out of the task row. */
export const BLOB_MIN_BYTES = 64 * 1024;
/** The part metadata key that refers to the bytes in `task_mail`. */
export const MAIL_REF_KEY = 'learnables-triage.mail';

export interface MailRef {
  readonly sha256: string;
  readonly bytes: number;
}

interface MailTables {
  task_mail: { tenant: string; task_id: string; sha256: string; bytes: Uint8Array; created_at: string };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
type Db = Kysely<any>;

/** A part's reference, read from its metadata (the SDK's object or the row's JSON alike). */
export function mailRefOf(metadata: unknown): MailRef | null {
  if (metadata === null || typeof metadata !== 'object') return null;
  const ref = (metadata as Record<string, unknown>)[MAIL_REF_KEY];
  if (ref === null || typeof ref !== 'object') return null;
  const { sha256, bytes } = ref as Record<string, unknown>;
  return typeof sha256 === 'string' && typeof bytes === 'number' ? { sha256, bytes } : null;
}

/** The bytes of a task's mail, by hash (only the hashes asked for). */
export async function taskMailBytes(
  db: Db,
  tenant: TenantId,
  taskId: string,
  hashes: readonly string[],
): Promise<Map<string, Buffer>> {
  if (hashes.length === 0) return new Map();
  const rows = await (db as Kysely<MailTables>)
    .selectFrom('task_mail')
    .select(['sha256', 'bytes'])
    .where('tenant', '=', tenant)
    .where('task_id', '=', taskId)
    .where('sha256', 'in', [...new Set(hashes)])
    .execute();
  return new Map(
    rows.map((r) => [r.sha256, Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.length)]),
  );
}

/** Drops those of a task's mail bytes. */
export async function dropTaskMail(
  db: Db,
  tenant: TenantId,
  taskId: string,
  hashes: readonly string[],
): Promise<void> {
  if (hashes.length === 0) return;
  await (db as Kysely<MailTables>)
    .deleteFrom('task_mail')
    .where('tenant', '=', tenant)
    .where('task_id', '=', taskId)
    .where('sha256', 'in', [...new Set(hashes)])
    .execute();
}

/** Hashes already computed, by the bytes' identity: a parked task's second save hashes nothing. */
const hashed = new WeakMap<Uint8Array, string>();
function sha256Of(bytes: Uint8Array): string {
  let h = hashed.get(bytes);
  if (h === undefined) {
    h = createHash('sha256').update(bytes).digest('hex');
    hashed.set(bytes, h);
  }
  return h;
}

/** Bytes this process has written for a task (`tenant\0task`): a parked task's second save writes them no more. */
const stored = new WeakMap<Uint8Array, string>();

const EMPTY = Buffer.alloc(0);

/** The task with every large file part of its history referring to its bytes; the parts taken out. */
function slimmed(task: Task): { task: Task; blobs: { sha256: string; bytes: Uint8Array }[] } {
  const blobs: { sha256: string; bytes: Uint8Array }[] = [];
  const slimPart = (part: Part): Part => {
    const content = part.content;
    if (content?.$case !== 'raw' || content.value.length < BLOB_MIN_BYTES) return part;
    const ref: MailRef = { sha256: sha256Of(content.value), bytes: content.value.length };
    blobs.push({ sha256: ref.sha256, bytes: content.value });
    return {
      ...part,
      content: { $case: 'raw', value: EMPTY },
      metadata: { ...part.metadata, [MAIL_REF_KEY]: ref },
    };
  };
  const slimMessage = (m: Message): Message => {
    if (!m.parts.some((p) => p.content?.$case === 'raw' && p.content.value.length >= BLOB_MIN_BYTES))
      return m;
    return { ...m, parts: m.parts.map(slimPart) };
  };
  const history = task.history.map(slimMessage);
  return blobs.length === 0 ? { task, blobs } : { task: { ...task, history }, blobs };
}

/** `task` (as loaded) with its referred parts' bytes back in place; a part whose bytes are gone keeps none. */
async function restored(db: Db, tenant: TenantId, task: Task): Promise<Task> {
  const hashes: string[] = [];
  for (const m of task.history)
    for (const p of m.parts) {
      const ref = mailRefOf(p.metadata);
      if (ref !== null) hashes.push(ref.sha256);
    }
  if (hashes.length === 0) return task;
  const bytes = await taskMailBytes(db, tenant, task.id, hashes);
  const restorePart = (part: Part): Part => {
    const ref = mailRefOf(part.metadata);
    if (ref === null) return part;
    const { [MAIL_REF_KEY]: _, ...metadata } = part.metadata ?? {};
    return {
      ...part,
      content: { $case: 'raw', value: bytes.get(ref.sha256) ?? EMPTY },
      metadata: Object.keys(metadata).length === 0 ? undefined : metadata,
    };
  };
  return { ...task, history: task.history.map((m) => ({ ...m, parts: m.parts.map(restorePart) })) };
}

/**
 * `inner` (the durable task store) with large mail kept in `task_mail`. The bytes are written
 * before the row that refers to them, so a row never refers to bytes that are not there; a save
 * that fails after them leaves bytes no row refers to, dropped with the task's other mail.
 */
export function mailBlobTaskStore(
  inner: TaskStore,
  db: Db,
  tenantOf: (context: ServerCallContext) => TenantId,
  nowIso: () => string = () => new Date().toISOString(),
): TaskStore {
  return {
    async save(task: Task, context: ServerCallContext): Promise<void> {
      const slim = slimmed(task);
      const tenant = tenantOf(context);
      const owner = `${tenant}\u0000${task.id}`;
      const fresh = slim.blobs.filter((b) => stored.get(b.bytes) !== owner);
      if (fresh.length > 0) {
        const at = nowIso();
        await (db as Kysely<MailTables>)
          .insertInto('task_mail')
          .values(
            fresh.map((b) => ({
              tenant,
              task_id: task.id,
              sha256: b.sha256,
              bytes: b.bytes,
              created_at: at,
            })),
          )
          .onConflict((oc) => oc.columns(['tenant', 'task_id', 'sha256']).doNothing())
          .execute();
        for (const b of fresh) stored.set(b.bytes, owner);
      }
      await inner.save(slim.task, context);
    },
    async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
      const task = await inner.load(taskId, context);
      return task === undefined ? undefined : restored(db, tenantOf(context), task);
    },
    async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      const page = await inner.list(params, context);
      const tenant = tenantOf(context);
      return { ...page, tasks: await Promise.all(page.tasks.map((t) => restored(db, tenant, t))) };
    },
  };
}
