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
}

export interface CorpusEntry {
  readonly key: string;
  readonly message: MailMessage;
  readonly seenAt: string;
  readonly taskId: string | null;
  readonly lastReading: ReadingSummary | null;
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
