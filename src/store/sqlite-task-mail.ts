/**
 * The mail kept inside the SDK's `tasks` table (history, status message, artifacts, metadata, as
 * the wire JSON @a2a-js/sdk 1.3 writes them), for the two things that must take it out again:
 * a §14 erase (`eraseFromTasks`: every string that names the identifier says "[erased]" instead,
 * and a file or text part whose bytes hold it, plain or encoded, loses its bytes) and raw-mail
 * retention (`incinerateTaskMail`: the mail a task was given is dropped once it is older than
 * RAW_MAIL_RETENTION_DAYS).
 *
 * A part that loses its content becomes one data part `{"incinerated": {...}}` keeping its file
 * name, media type, size and sha256, and why and when it went (`src/a2a/input.ts` reads it back as
 * "the mail was discarded"). Every query is scoped by tenant (§13.2).
 *
 * Deliberately not here: parsing mail, or deciding what a task still needs (the corpus keeps the
 * reading a parked task is answered from).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { mentionsEncoded, scrubJson, scrubText } from '../domain/definitions/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { tenantsTask } from './sqlite-task-pins.ts';
import { dropTaskMail, mailRefOf, taskMailBytes } from './task-mail-blobs.ts';
import { SETTLED_STATES } from '../domain/task-states.ts';

interface TaskRow {
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
  readonly status: string | null;
  readonly artifacts: string | null;
  readonly history: string | null;
  readonly metadata: string | null;
}

const COLUMNS = ['status', 'artifacts', 'history', 'metadata'] as const;

/** The columns of the SDK's tasks table read and written here. */
interface TaskTables {
  tasks: TaskRow & { status_last_updated: number; status_state: string | null };
}
/** Rows read per page while sweeping. */
const PAGE_ROWS = 50;

/** The data-part key of a part whose content was dropped. */
export const INCINERATED_KEY = 'incinerated';

export interface IncineratedPart {
  readonly why: 'erased' | 'retention';
  readonly at: string;
  readonly filename?: string;
  readonly mediaType?: string;
  readonly bytes: number;
  readonly sha256: string;
}

type Json = unknown;
type Part = Record<string, Json>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK owns the tasks schema
type Db = Kysely<any>;

const isObject = (v: Json): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The bytes of the large parts kept outside the row (task-mail-blobs.ts), by hash. */
type Outside = ReadonlyMap<string, Buffer>;
const NOTHING_OUTSIDE: Outside = new Map();

/**
 * The bytes a part carries, as text to search (file parts decoded from base64, or read from
 * `task_mail` when the row refers to them).
 */
function contentOf(part: Part, outside: Outside): { bytes: Buffer; text: string } | null {
  const ref = mailRefOf(part.metadata);
  if (ref !== null) {
    const bytes = outside.get(ref.sha256) ?? Buffer.alloc(0);
    return { bytes, text: bytes.toString('latin1') };
  }
  if (typeof part.raw === 'string') {
    const bytes = Buffer.from(part.raw, 'base64');
    return { bytes, text: bytes.toString('latin1') };
  }
  if (typeof part.text === 'string') return { bytes: Buffer.from(part.text, 'utf8'), text: part.text };
  if (part.data !== undefined) {
    const text = JSON.stringify(part.data);
    return { bytes: Buffer.from(text, 'utf8'), text };
  }
  return null;
}

/** What a dropped part keeps of its bytes: their size and hash. */
interface Summary {
  readonly bytes: number;
  readonly sha256: string;
}

const summaryOf = (bytes: Buffer): Summary => ({
  bytes: bytes.length,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

/**
 * The part as it stays once its content is dropped. A part whose bytes are kept outside the row
 * gives its reference's size and hash (taken from those bytes when they were stored), so they need
 * not be read again to be summed up.
 */
function incinerated(part: Part, summary: Summary, why: IncineratedPart['why'], at: string): Part {
  const kept: IncineratedPart = {
    why,
    at,
    ...(typeof part.filename === 'string' && part.filename !== '' ? { filename: part.filename } : {}),
    ...(typeof part.mediaType === 'string' && part.mediaType !== '' ? { mediaType: part.mediaType } : {}),
    bytes: summary.bytes,
    sha256: summary.sha256,
  };
  return { data: { [INCINERATED_KEY]: kept } };
}

/** The hashes of the parts in `value` whose bytes are kept outside the row. */
function refsIn(value: Json): string[] {
  const found: string[] = [];
  mapParts(value, (part) => {
    const ref = mailRefOf(part.metadata);
    if (ref !== null) found.push(ref.sha256);
    return part;
  });
  return found;
}

const isIncinerated = (part: Part): boolean => isObject(part.data) && INCINERATED_KEY in part.data;

/** Every object in `value` that has a `parts` array (messages, artifacts), rewritten by `f`. */
function mapParts(value: Json, f: (part: Part) => Part): Json {
  if (Array.isArray(value)) return value.map((v) => mapParts(v, f));
  if (!isObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      k === 'parts' && Array.isArray(v) ? (v as Json[]).map((p) => (isObject(p) ? f(p) : p)) : mapParts(v, f);
  }
  return out;
}

async function* taskRows(
  db: Db,
  tenant: TenantId,
  settled?: { updatedBeforeMs: number },
): AsyncGenerator<TaskRow> {
  let after: { tenant: string; owner: string; id: string } | null = null;
  for (;;) {
    let q = (db as unknown as Kysely<TaskTables>)
      .selectFrom('tasks')
      .select(['tenant', 'owner', 'id', ...COLUMNS])
      .where((eb) => tenantsTask(eb, tenant))
      .orderBy('tenant')
      .orderBy('owner')
      .orderBy('id')
      .limit(PAGE_ROWS);
    if (settled !== undefined) {
      // A task still being worked on is saved again from the SDK's memory: only settled ones.
      q = q
        .where('status_last_updated', '<', settled.updatedBeforeMs)
        .where('status_state', 'in', [...SETTLED_STATES]);
    }
    if (after !== null) {
      const a = after;
      q = q.where((eb) =>
        eb.or([
          eb('tenant', '>', a.tenant),
          eb.and([eb('tenant', '=', a.tenant), eb('owner', '>', a.owner)]),
          eb.and([eb('tenant', '=', a.tenant), eb('owner', '=', a.owner), eb('id', '>', a.id)]),
        ]),
      );
    }
    const rows: TaskRow[] = await q.execute();
    yield* rows;
    if (rows.length < PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = { tenant: last.tenant, owner: last.owner, id: last.id };
  }
}

async function write(
  db: Db,
  row: TaskRow,
  next: Partial<Record<(typeof COLUMNS)[number], string | null>>,
): Promise<void> {
  await db
    .updateTable('tasks')
    .set(next)
    .where('tenant', '=', row.tenant)
    .where('owner', '=', row.owner)
    .where('id', '=', row.id)
    .execute();
}

export interface TaskErasure {
  /** Tasks whose stored JSON changed. */
  readonly tasks: number;
  /** Parts whose bytes held the identifier and were dropped. */
  readonly partsDropped: number;
}

/**
 * §14: takes `identifier` out of every task of `tenant`: a part whose content holds it (plain,
 * base64 at any alignment, quoted-printable) loses its content; every other string (keys
 * included) has it replaced by "[erased]".
 */
export async function eraseFromTasks(
  db: Db,
  tenant: TenantId,
  identifier: string,
  at: string,
): Promise<TaskErasure> {
  let tasks = 0;
  let partsDropped = 0;
  for await (const row of taskRows(db, tenant)) {
    const next: Partial<Record<(typeof COLUMNS)[number], string | null>> = {};
    const parsedColumns = COLUMNS.map(
      (c) => [c, row[c] === null ? null : (JSON.parse(row[c]) as Json)] as const,
    );
    const outside = await taskMailBytes(
      db,
      tenant,
      row.id,
      parsedColumns.flatMap(([, v]) => refsIn(v)),
    );
    const droppedOutside: string[] = [];
    for (const [column, parsed] of parsedColumns) {
      const text = row[column];
      if (text === null) continue;
      let dropped = 0;
      const withoutBytes = mapParts(parsed, (part) => {
        if (isIncinerated(part)) return part;
        const content = contentOf(part, outside);
        if (content === null) return part;
        // A text or data part is scrubbed in place below, unless the identifier also hides encoded in it.
        const ref = mailRefOf(part.metadata);
        const rest =
          part.raw === undefined && ref === null ? scrubText(content.text, identifier) : content.text;
        if (!mentionsEncoded(rest, identifier)) return part;
        dropped++;
        if (ref !== null) droppedOutside.push(ref.sha256);
        return incinerated(part, ref ?? summaryOf(content.bytes), 'erased', at);
      });
      const scrubbed = JSON.stringify(scrubJson(withoutBytes, identifier));
      if (scrubbed !== text) next[column] = scrubbed;
      partsDropped += dropped;
    }
    if (Object.keys(next).length === 0) continue;
    await write(db, row, next);
    // The row no longer refers to them: the bytes go after it (a crash between leaves bytes unread, never a dangling reference).
    await dropTaskMail(db, tenant, row.id, droppedOutside);
    tasks++;
  }
  return { tasks, partsDropped };
}

/**
 * Raw-mail retention (§14): drops the content of the first user message of every task of `tenant`
 * last updated before `updatedBeforeMs` (the mail it was given, by file, text or data part),
 * keeping each part's name, type, size and hash. A recheck's reference is not mail and stays.
 * Returns how many tasks lost their mail.
 */
export async function incinerateTaskMail(
  db: Db,
  tenant: TenantId,
  updatedBeforeMs: number,
  at: string,
): Promise<number> {
  let n = 0;
  for await (const row of taskRows(db, tenant, { updatedBeforeMs })) {
    if (row.history === null) continue;
    const history = JSON.parse(row.history) as Json;
    if (!Array.isArray(history)) continue;
    const first = history.findIndex((m) => isObject(m) && m.role === 'ROLE_USER');
    const message = history[first] as Json;
    if (first < 0 || !isObject(message) || !Array.isArray(message.parts)) continue;
    const parts = message.parts.filter(isObject);
    if (parts.length === 0 || parts.every(isIncinerated)) continue;
    if (parts.some((p) => isObject(p.data) && 'recheck' in p.data)) continue;
    const outsideRefs = parts.flatMap((p) => {
      const ref = isIncinerated(p) ? null : mailRefOf(p.metadata);
      return ref === null ? [] : [ref.sha256];
    });
    const next = parts.map((p) => {
      if (isIncinerated(p)) return p;
      const ref = mailRefOf(p.metadata);
      if (ref !== null) return incinerated(p, ref, 'retention', at);
      const content = contentOf(p, NOTHING_OUTSIDE);
      return content === null ? p : incinerated(p, summaryOf(content.bytes), 'retention', at);
    });
    const rewritten: Json[] = [...(history as Json[])];
    rewritten[first] = { ...message, parts: next };
    await write(db, row, { history: JSON.stringify(rewritten) });
    await dropTaskMail(db, tenant, row.id, outsideRefs);
    n++;
  }
  return n;
}

/** The tenants this file serves (those with tokens or kept messages): the retention sweep visits each in turn. */
export async function knownTenants(db: Db): Promise<TenantId[]> {
  const rows = (await db
    .selectFrom('tokens')
    .select('tenant')
    .union(db.selectFrom('corpus_messages').select('tenant'))
    .execute()) as { tenant: TenantId }[];
  return rows.map((r) => r.tenant);
}
