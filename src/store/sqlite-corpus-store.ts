/**
 * CorpusStore over Kysely, on SQLite or PostgreSQL (one query text; the substring test from
 * dialect.ts). Keeps the parsed evidence as JSON, a case-folded haystack of the message's parts for
 * substring prefilters, and the sender address for sender history. Every query is scoped by tenant (§13.2).
 * Raw-mail retention and a §14 erase rewrite rows in place (`discardText`, `erase`).
 * Deliberately not here: matching, reading, deciding retention (the caller passes `olderThan`).
 */
import { sql, type Generated, type Kysely, type Selectable } from 'kysely';
import {
  discardedMessage,
  type CorpusEntry,
  type CorpusListOptions,
  type CorpusPage,
  type CorpusRecord,
  type CorpusStore,
  type ReadingSummary,
  type SenderRow,
} from '../domain/triage/index.ts';
import type { SenderRecord } from '../domain/learnables/index.ts';
import { erasedKey, scrubJson, scrubText, textMentions } from '../domain/definitions/index.ts';
import { MAIL_PARTS, partText, type MailMessage } from '../domain/mail/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { contains } from './dialect.ts';
import {
  eraseSenderRecords,
  listSenders,
  readSenderRecord,
  recordOf,
  recordQuery,
  type SenderRecordTables,
} from './sender-records.ts';

interface CorpusTables extends SenderRecordTables {
  corpus_messages: {
    seq: Generated<number>;
    tenant: string;
    key: string;
    message_id: string | null;
    from_address: string | null;
    seen_at: string;
    task_id: string | null;
    reading: string | null;
    evidence: string;
    haystack: string;
    text_discarded_at: string | null;
    outcome: string | null;
    /** The message's track-record keys beyond its sender, a JSON array (migration 013). */
    record_keys: string | null;
  };
}

type Row = Selectable<CorpusTables['corpus_messages']>;

/** The kept row's columns, in the order `getWithSenderRecord` reads them. */
const KEPT_COLUMNS = [
  'seq',
  'tenant',
  'key',
  'message_id',
  'from_address',
  'seen_at',
  'task_id',
  'reading',
  'evidence',
  'haystack',
  'text_discarded_at',
  'outcome',
  'record_keys',
] as const satisfies readonly (keyof Row)[];
/** The record's columns, read as `r_<column>` beside them. */
const RECORD_COLUMNS = ['sender', 'collection', 'entry', 'messages', 'last_at'] as const;
interface RecordColumns {
  r_sender: string | null;
  r_collection: string | null;
  r_entry: string | null;
  r_messages: number | string | null;
  r_last_at: string | null;
}

/** The corpus's connection (or transaction) as the track record's (sender-records.ts) schema sees it. */
function records(db: Kysely<CorpusTables>): Kysely<SenderRecordTables> {
  return db as unknown as Kysely<SenderRecordTables>;
}

const DEFAULT_PAGE = 500;
const MAX_PAGE = 5000;

export class SqliteCorpusStore implements CorpusStore {
  readonly #db: Kysely<CorpusTables>;

  constructor(db: Kysely<unknown>) {
    this.#db = db as Kysely<CorpusTables>;
  }

  /** The senders' track record follows in the same statement (migration 013's trigger). */
  async remember(tenant: TenantId, entry: CorpusEntry): Promise<void> {
    const db = this.#db;
    const reading = entry.lastReading === null ? null : encodeSummary(entry.lastReading);
    const evidence = JSON.stringify(entry.message);
    const outcome = entry.outcome === undefined ? undefined : JSON.stringify(entry.outcome);
    // None is the common case, kept as null (the trigger reads null as none).
    const keys =
      entry.recordKeys === undefined
        ? undefined
        : entry.recordKeys.length === 0
          ? null
          : JSON.stringify(entry.recordKeys);
    await db
      .insertInto('corpus_messages')
      .values({
        tenant,
        key: entry.key,
        message_id: entry.message.messageId,
        from_address: entry.message.from?.address.toLowerCase() ?? null,
        seen_at: entry.seenAt,
        task_id: entry.taskId,
        reading,
        evidence,
        haystack: haystackOf(entry.message),
        outcome: outcome ?? null,
        record_keys: keys ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['tenant', 'key']).doUpdateSet((eb) => ({
          task_id: entry.taskId === null ? eb.ref('corpus_messages.task_id') : eb.val(entry.taskId),
          reading: reading === null ? eb.ref('corpus_messages.reading') : eb.val(reading),
          evidence,
          haystack: haystackOf(entry.message),
          from_address: entry.message.from?.address.toLowerCase() ?? null,
          // The message was read again from its text: it is kept again from now on.
          text_discarded_at: null,
          outcome: outcome === undefined ? eb.ref('corpus_messages.outcome') : eb.val(outcome),
          record_keys: keys === undefined ? eb.ref('corpus_messages.record_keys') : eb.val(keys),
        })),
      )
      .execute();
  }

  async get(tenant: TenantId, key: string): Promise<CorpusRecord | null> {
    const row = await this.#select(tenant).where('key', '=', key).executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  }

  async findByMessageId(tenant: TenantId, messageId: string): Promise<CorpusRecord | null> {
    const id = messageId.trim().replace(/^<|>$/g, '');
    const row = await this.#select(tenant)
      .where('message_id', '=', id)
      .orderBy('seq', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  }

  async findByTaskId(tenant: TenantId, taskId: string): Promise<CorpusRecord | null> {
    const row = await this.#select(tenant)
      .where('task_id', '=', taskId)
      .orderBy('seq', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  }

  async list(tenant: TenantId, options: CorpusListOptions = {}): Promise<CorpusPage> {
    const limit = Math.max(1, Math.min(MAX_PAGE, options.limit ?? DEFAULT_PAGE));
    let q = this.#select(tenant);
    if (options.cursor !== undefined && options.cursor !== null) {
      const after = Number(options.cursor);
      if (!Number.isSafeInteger(after))
        throw new TypeError(`corpus cursor "${options.cursor}" is not one this store issued`);
      q = q.where('seq', '>', after);
    }
    if (options.containing !== undefined && options.containing !== '') {
      q = q.where(contains(this.#db, 'haystack', options.containing.toLowerCase()));
    }
    if (options.fromAddress !== undefined)
      q = q.where('from_address', '=', options.fromAddress.toLowerCase());
    if (options.fromDomain !== undefined) {
      const domain = options.fromDomain.toLowerCase().replace(/[\\%_]/g, '\\$&');
      q = q.where(sql<boolean>`from_address like ${`%@${domain}`} escape '\\'`);
    }
    const rows = await q
      .orderBy('seq', 'asc')
      .limit(limit + 1)
      .execute();
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    return { records: page.map(toRecord), next: more ? String(page[page.length - 1]!.seq) : null };
  }

  async count(tenant: TenantId): Promise<number> {
    const row = await this.#db
      .selectFrom('corpus_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant', '=', tenant)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async purge(tenant: TenantId, olderThan: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('corpus_messages')
      .where('tenant', '=', tenant)
      .where('seen_at', '<', olderThan)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async discardText(tenant: TenantId, olderThan: string, at: string): Promise<number> {
    let n = 0;
    for (;;) {
      const rows = await this.#select(tenant)
        .where('seen_at', '<', olderThan)
        .where('text_discarded_at', 'is', null)
        .orderBy('seq')
        .limit(DEFAULT_PAGE)
        .execute();
      for (const row of rows) {
        const kept = discardedMessage(JSON.parse(row.evidence) as MailMessage);
        await this.#db
          .updateTable('corpus_messages')
          .set({ evidence: JSON.stringify(kept), haystack: '', from_address: null, text_discarded_at: at })
          .where('tenant', '=', tenant)
          .where('seq', '=', row.seq)
          .execute();
      }
      n += rows.length;
      if (rows.length < DEFAULT_PAGE) return n;
    }
  }

  senderRecord(
    tenant: TenantId,
    address: string,
    own: ReadonlyMap<string, string>,
    keys: ReadonlyMap<string, string>,
  ): Promise<SenderRecord> {
    return readSenderRecord(records(this.#db), tenant, address, own, keys);
  }

  /**
   * `get` and `senderRecord` in one statement (one round trip, not two), the record less
   * what the kept message was last decided as. The kept row comes back padded with nulls where the
   * record's columns are, and the record's rows padded where the kept row's are.
   */
  async getWithSenderRecord(
    tenant: TenantId,
    key: string,
    address: string,
    keys: ReadonlyMap<string, string>,
  ): Promise<{ existing: CorpusRecord | null; record: SenderRecord }> {
    const ranges = recordQuery(records(this.#db), tenant, address, keys);
    if (ranges === null) {
      const existing = await this.get(tenant, key);
      return { existing, record: recordOf(address, [], existing?.lastReading?.decided ?? new Map()) };
    }
    const kept = sql.join(KEPT_COLUMNS.map((c) => sql.ref(`c.${c}`)));
    const none = (n: number) => sql.join(Array.from({ length: n }, () => sql`null`));
    const noRecord = sql.join(RECORD_COLUMNS.map((c) => sql`null as ${sql.ref(`r_${c}`)}`));
    const r = await sql<Row & RecordColumns>`select ${kept}, ${noRecord}
      from corpus_messages c where c.tenant = ${tenant} and c.key = ${key}
      union all
      select ${none(KEPT_COLUMNS.length)}, ${sql.join(RECORD_COLUMNS.map((c) => sql.ref(`r.${c}`)))}
      from (${ranges}) r`.execute(this.#db);
    const row = r.rows.find((x) => x.key !== null);
    const existing = row === undefined ? null : toRecord(row);
    const recordRows = r.rows
      .filter((x) => x.r_sender !== null)
      .map((x) => ({
        tenant,
        sender: x.r_sender!,
        collection: x.r_collection!,
        entry: x.r_entry!,
        messages: Number(x.r_messages),
        last_at: x.r_last_at!,
      }));
    return { existing, record: recordOf(address, recordRows, existing?.lastReading?.decided ?? new Map()) };
  }

  senders(tenant: TenantId, collection: string, limit: number): Promise<SenderRow[]> {
    return listSenders(records(this.#db), tenant, collection, limit);
  }

  async erase(tenant: TenantId, identifier: string): Promise<number> {
    // The senders' track record names addresses and entries too.
    await eraseSenderRecords(records(this.#db), tenant, identifier);
    let n = 0;
    let after = 0;
    for (;;) {
      const rows = await this.#select(tenant)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(DEFAULT_PAGE)
        .execute();
      for (const row of rows) {
        const texts = [
          row.key,
          row.message_id,
          row.from_address,
          row.reading,
          row.evidence,
          row.haystack,
          row.outcome,
        ];
        if (!texts.some((t) => t !== null && textMentions(t, identifier))) continue;
        const json = (t: string | null) =>
          t === null ? null : JSON.stringify(scrubJson(JSON.parse(t), identifier));
        await this.#db
          .updateTable('corpus_messages')
          .set({
            // The key must stay unique and is looked up again by Message-ID: a digest names the row.
            key: textMentions(row.key, identifier) ? erasedKey(row.key) : row.key,
            message_id: row.message_id === null ? null : scrubText(row.message_id, identifier),
            from_address: row.from_address === null ? null : scrubText(row.from_address, identifier),
            reading: json(row.reading),
            evidence: json(row.evidence)!,
            haystack: scrubText(row.haystack, identifier),
            outcome: json(row.outcome),
          })
          .where('tenant', '=', tenant)
          .where('seq', '=', row.seq)
          .execute();
        n++;
      }
      if (rows.length < DEFAULT_PAGE) return n;
      after = rows[rows.length - 1]!.seq;
    }
  }

  #select(tenant: TenantId) {
    return this.#db.selectFrom('corpus_messages').selectAll().where('tenant', '=', tenant);
  }
}

/** Every part's text, case-folded, one part per line: what `containing` searches. */
function haystackOf(message: MailMessage): string {
  return MAIL_PARTS.map((p) => partText(message, p))
    .join('\n')
    .toLowerCase();
}

function toRecord(row: Row): CorpusRecord {
  return {
    key: row.key,
    messageId: row.message_id,
    message: JSON.parse(row.evidence) as MailMessage,
    seenAt: row.seen_at,
    taskId: row.task_id,
    lastReading: row.reading === null ? null : decodeSummary(row.reading),
    textDiscardedAt: row.text_discarded_at,
    outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as unknown),
  };
}

/** A reading summary as stored: `{ versionId, definitionVersion, decided: { <collection>: <entry> } }`. */
export function encodeSummary(summary: ReadingSummary): string {
  return JSON.stringify({
    versionId: summary.versionId,
    definitionVersion: summary.definitionVersion,
    // fromEntries defines own properties: a collection named "__proto__" stays a name.
    decided: Object.fromEntries(summary.decided),
  });
}

/**
 * Rows written before readings were kept by collection hold `{ customer, kind }`: the two
 * collections this agent read then, under the names they had. Both shapes decode to one summary.
 */
const LEGACY_SUMMARY_KEYS: readonly (readonly [key: string, collection: string])[] = [
  ['customer', 'customers'],
  ['kind', 'kinds'],
];

export function decodeSummary(text: string): ReadingSummary {
  const row = JSON.parse(text) as Record<string, unknown>;
  const decided = new Map<string, string>();
  if (typeof row.decided === 'object' && row.decided !== null) {
    for (const [collection, entry] of Object.entries(row.decided)) {
      if (typeof entry === 'string') decided.set(collection, entry);
    }
  } else {
    for (const [key, collection] of LEGACY_SUMMARY_KEYS) {
      const entry = row[key];
      if (typeof entry === 'string') decided.set(collection, entry);
    }
  }
  return {
    versionId: typeof row.versionId === 'string' ? row.versionId : '',
    definitionVersion: typeof row.definitionVersion === 'number' ? row.definitionVersion : 0,
    decided,
  };
}
