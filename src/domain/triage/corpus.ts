/**
 * The corpus port (§13.1): every message the agent has read, kept per tenant as parsed evidence (the
 * normalised MailMessage) with the last reading made of it, so a proposed lesson can be evaluated
 * against real traffic before it is accepted (dry-run), suggestions can be checked against it, and
 * show-back can re-read a message by its key or Message-ID (§11).
 *
 * Every method takes the tenant as an explicit argument (§13.2). Retention is a setting of whoever
 * calls `purge` (the triage service); the store only deletes what it is told to.
 * Deliberately not here: reading or matching (the store never interprets the evidence).
 */
import type { TenantId } from '../tenant.ts';
import type { MailMessage } from '../mail/index.ts';
import type { Carried, SenderRecord } from '../learnables/index.ts';

/**
 * What is kept of the last reading: the entry each collection settled on, by collection (a
 * collection unsettled, or deciding no single entry, is absent), so suggestions can ask what
 * messages were read as without reading them again.
 */
export interface ReadingSummary {
  readonly versionId: string;
  readonly definitionVersion: number;
  /** Collection -> the entry it settled on (or a person answered). Names are data: a Map. */
  readonly decided: ReadonlyMap<string, string>;
}

export interface CorpusRecord {
  /** `mid:<Message-ID>`, or `sha256:<content hash>` for a message without one. */
  readonly key: string;
  readonly messageId: string | null;
  readonly message: MailMessage;
  /** ISO-8601 time the message was first seen. */
  readonly seenAt: string;
  /** The task that last read it, when it was read inside a task. */
  readonly taskId: string | null;
  readonly lastReading: ReadingSummary | null;
  /**
   * When the message's text was discarded (RAW_MAIL_RETENTION_DAYS, §14), else null. `message`
   * then keeps only its Message-ID, content hash and date.
   */
  readonly textDiscardedAt: string | null;
  /** What a task parked on this message needs to be answered without its text (opaque here). */
  readonly outcome: unknown;
}

export interface CorpusEntry {
  readonly key: string;
  readonly message: MailMessage;
  readonly seenAt: string;
  readonly taskId: string | null;
  readonly lastReading: ReadingSummary | null;
  /** The message's track-record keys beyond its sender (`Learnable.recordKeys`). */
  readonly recordKeys?: readonly string[];
  /** Kept for a task parked in input-required (opaque to the store); undefined keeps what is there. */
  readonly outcome?: unknown;
}

export interface CorpusListOptions {
  /** Opaque cursor from a previous page's `next`. */
  readonly cursor?: string | null;
  /** Page size; default 500. */
  readonly limit?: number;
  /**
   * Only messages whose text (any part, case-folded) contains this string. A prefilter: callers
   * confirm with the real mark.
   */
  readonly containing?: string;
  /** Only messages from this sender address (case-insensitive). */
  readonly fromAddress?: string;
  /** Only messages from an address at this domain (case-insensitive, e.g. "origin.example"). */
  readonly fromDomain?: string;
}

export interface CorpusPage {
  readonly records: readonly CorpusRecord[];
  /** Cursor for the next page, null at the end. */
  readonly next: string | null;
}

export interface CorpusStore {
  /**
   * Keep a message (insert, or update the task and reading of one already kept; the first
   * `seenAt` stays).
   */
  remember(tenant: TenantId, entry: CorpusEntry): Promise<void>;
  get(tenant: TenantId, key: string): Promise<CorpusRecord | null>;
  findByMessageId(tenant: TenantId, messageId: string): Promise<CorpusRecord | null>;
  findByTaskId(tenant: TenantId, taskId: string): Promise<CorpusRecord | null>;
  /** Oldest first, in pages. */
  list(tenant: TenantId, options?: CorpusListOptions): Promise<CorpusPage>;
  count(tenant: TenantId): Promise<number>;
  /** Delete messages first seen before `olderThan` (ISO-8601); returns how many. */
  purge(tenant: TenantId, olderThan: string): Promise<number>;
  /**
   * Raw-mail retention (§14): discard the text of messages first seen before `olderThan`, keeping
   * the key, Message-ID, content hash, date, reading, task and kept outcome; returns how many.
   */
  discardText(tenant: TenantId, olderThan: string, at: string): Promise<number>;
  /** §14: replace `identifier` with "[erased]" in every kept message; returns how many changed. */
  erase(tenant: TenantId, identifier: string): Promise<number>;
  /**
   * The track record of `address` and its domain (what their mail was finally read or
   * answered as, by collection), leaving out `own`: what the message being read was last decided
   * as (empty for a message never kept), and the record of each of the message's other keys in the
   * one collection that weighs it (`keys`: key → collection; issue 39: a key is counted under
   * every collection, but read only under its own). Kept as messages are remembered, so asking costs
   * one indexed read, not a scan.
   */
  senderRecord(
    tenant: TenantId,
    address: string,
    own: ReadonlyMap<string, string>,
    keys: ReadonlyMap<string, string>,
  ): Promise<SenderRecord>;
  /**
   * `get` and `senderRecord` in one read (one round trip), the record leaving out what
   * the kept message was last decided as.
   */
  getWithSenderRecord(
    tenant: TenantId,
    key: string,
    address: string,
    keys: ReadonlyMap<string, string>,
  ): Promise<{ existing: CorpusRecord | null; record: SenderRecord }>;
  /** Every sender's record (the senders view), most messages first, at most `limit` senders. */
  senders(tenant: TenantId, collection: string, limit: number): Promise<readonly SenderRow[]>;
}

/** One sender (an address, or `@domain`) and what its mail was read or answered as in one collection. */
export interface SenderRow {
  /** The address, or `@` and a domain. */
  readonly sender: string;
  readonly entries: ReadonlyMap<string, Carried>;
}

/** What a message keeps once its text is discarded: enough to name it, nothing it said. */
export function discardedMessage(m: Pick<MailMessage, 'messageId' | 'contentHash' | 'date'>): MailMessage {
  return {
    messageId: m.messageId,
    contentHash: m.contentHash,
    from: null,
    replyTo: [],
    to: [],
    cc: [],
    subject: '',
    date: m.date,
    body: '',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
  };
}

/** The corpus key of a message: its Message-ID, else the hash of its content. */
export function corpusKey(message: Pick<MailMessage, 'messageId' | 'contentHash'>): string {
  return message.messageId !== null && message.messageId !== ''
    ? `mid:${message.messageId}`
    : `sha256:${message.contentHash}`;
}

/** Every page of the corpus (optionally filtered), oldest first. */
export async function* scanCorpus(
  store: CorpusStore,
  tenant: TenantId,
  options: Omit<CorpusListOptions, 'cursor'> = {},
): AsyncGenerator<CorpusRecord> {
  let cursor: string | null = null;
  do {
    const page: CorpusPage = await store.list(tenant, { ...options, cursor });
    yield* page.records;
    cursor = page.next;
  } while (cursor !== null);
}

/**
 * §14: what show-back and a dry run say of a message whose text was discarded under
 * RAW_MAIL_RETENTION_DAYS: when it was read, and why it cannot be read again.
 */
export function discardedSentence(
  record: Pick<CorpusRecord, 'key' | 'messageId' | 'seenAt'>,
  retentionDays: number | undefined,
): string {
  const name =
    record.messageId === null
      ? `with content hash ${record.key.replace(/^sha256:/, '')}`
      : `<${record.messageId}>`;
  const after =
    retentionDays === undefined
      ? 'after the raw-mail retention (RAW_MAIL_RETENTION_DAYS)'
      : retentionDays === 0
        ? 'once it was read (RAW_MAIL_RETENTION_DAYS=0)'
        : `after ${retentionDays} ${retentionDays === 1 ? 'day' : 'days'} (RAW_MAIL_RETENTION_DAYS)`;
  return `The message ${name} was read on ${record.seenAt.slice(0, 10)}; its text was discarded ${after}, so it cannot be read again.`;
}
