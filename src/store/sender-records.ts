/**
 * The track record of senders (docs/learning.md, "Trust a sender only as far as it has earned"): per tenant, sender
 * (an address, and `@` and its domain) and collection, how many messages were last read or
 * answered as each entry. Migration 013's trigger keeps it in the statement that keeps the
 * message's reading (a message counts once, under what it is now: −1 under what it was), so asking
 * costs one indexed read, never a scan. Both engines, one query text here. Erased with §14;
 * raw-mail retention and corpus retention leave it (it holds no text of the mail, only who wrote
 * for whom).
 *
 * Owns: the table's rows. Does not own: what a record means (the customers reader's objections).
 */
import type { Kysely } from 'kysely';
import type { Carried, SenderRecord } from '../domain/learnables/index.ts';
import type { SenderRow } from '../domain/triage/index.ts';
import { textMentions } from '../domain/definitions/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { domainOf, localPartOf } from '../domain/mail/index.ts';

export interface SenderRecordTables {
  sender_records: {
    tenant: string;
    sender: string;
    collection: string;
    entry: string;
    messages: number;
    last_at: string;
  };
}

/** Any Kysely over a schema holding `sender_records` (the corpus store's, or its transaction). */
type Db = Kysely<SenderRecordTables>;

/** The senders mail from `address` counts under: the address and `@` + its domain (lower-cased). */
function sendersOf(address: string): string[] {
  const a = address.toLowerCase();
  return localPartOf(a) === '' || !a.includes('@') ? [a] : [a, `@${domainOf(a)}`];
}

/**
 * The record of `address`, its domain and `keys` (the message's other record keys, each in the one
 * collection that weighs it), less `own` (what the message being read was decided as): one indexed
 * read.
 */
export async function readSenderRecord(
  db: Db,
  tenant: TenantId,
  address: string,
  own: ReadonlyMap<string, string>,
  keys: ReadonlyMap<string, string>,
): Promise<SenderRecord> {
  const query = recordQuery(db, tenant, address, keys);
  return recordOf(address, query === null ? [] : await query.execute(), own);
}

type RecordRow = SenderRecordTables['sender_records'];

/**
 * The union of index ranges that reads the record of `address`, its domain and `keys`, or null for
 * an address with nothing to read. One index range per sender and per (key, collection): an OR
 * across them would scan the tenant.
 */
export function recordQuery(db: Db, tenant: TenantId, address: string, keys: ReadonlyMap<string, string>) {
  const [mine, domain] = sendersOf(address);
  if (mine === undefined) return null;
  const of = (senders: readonly string[], collection?: string) => {
    let q = db
      .selectFrom('sender_records')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('sender', 'in', senders)
      .where('messages', '>', 0);
    if (collection !== undefined) q = q.where('collection', '=', collection);
    return q;
  };
  let query = of([mine, ...(domain === undefined ? [] : [domain])]);
  for (const [key, collection] of keys) query = query.unionAll(of([key], collection));
  return query;
}

/** The record from its rows, less `own` (what the message being read was decided as). */
export function recordOf(
  address: string,
  rows: readonly RecordRow[],
  own: ReadonlyMap<string, string>,
): SenderRecord {
  const [mine, domain] = sendersOf(address);
  const byAddress = new Map<string, Map<string, Carried>>();
  const byDomain = new Map<string, Map<string, Carried>>();
  const byKey = new Map<string, Map<string, Map<string, Carried>>>();
  if (mine === undefined) return { address, byAddress, byDomain, byKey };
  for (const row of rows) {
    const messages = Number(row.messages) - (own.get(row.collection) === row.entry ? 1 : 0);
    if (messages <= 0) continue;
    let into = row.sender === mine ? byAddress : byDomain;
    if (row.sender !== mine && row.sender !== domain) {
      into = byKey.get(row.sender) ?? new Map<string, Map<string, Carried>>();
      byKey.set(row.sender, into);
    }
    const entries = into.get(row.collection) ?? new Map<string, Carried>();
    into.set(row.collection, entries);
    entries.set(row.entry, { messages, lastAt: row.last_at });
  }
  return { address: mine, byAddress, byDomain, byKey };
}

/** Every sender's record in one collection, most messages first, at most `limit` senders. */
export async function listSenders(
  db: Db,
  tenant: TenantId,
  collection: string,
  limit: number,
): Promise<SenderRow[]> {
  const rows = await db
    .selectFrom('sender_records')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('collection', '=', collection)
    .where('messages', '>', 0)
    // Senders only (an address, or @ and a domain): other record keys (families) hold no @.
    .where('sender', 'like', '%@%')
    .execute();
  const bySender = new Map<string, Map<string, Carried>>();
  for (const row of rows) {
    const entries = bySender.get(row.sender) ?? new Map<string, Carried>();
    bySender.set(row.sender, entries);
    entries.set(row.entry, { messages: Number(row.messages), lastAt: row.last_at });
  }
  const total = (m: ReadonlyMap<string, Carried>): number =>
    [...m.values()].reduce((n, c) => n + c.messages, 0);
  return [...bySender]
    .map(([sender, entries]) => ({ sender, entries }))
    .sort((a, b) => total(b.entries) - total(a.entries) || (a.sender < b.sender ? -1 : 1))
    .slice(0, limit);
}

/** §14: delete every row whose sender or entry mentions `identifier`; returns how many. */
export async function eraseSenderRecords(db: Db, tenant: TenantId, identifier: string): Promise<number> {
  const rows = await db
    .selectFrom('sender_records')
    .select(['sender', 'collection', 'entry'])
    .where('tenant', '=', tenant)
    .execute();
  let n = 0;
  for (const row of rows) {
    if (!textMentions(row.sender, identifier) && !textMentions(row.entry, identifier)) continue;
    await db
      .deleteFrom('sender_records')
      .where('tenant', '=', tenant)
      .where('sender', '=', row.sender)
      .where('collection', '=', row.collection)
      .where('entry', '=', row.entry)
      .execute();
    n++;
  }
  return n;
}
