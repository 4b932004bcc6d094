/**
 * 013: `sender_records`, the track record of senders (issue 38; src/store/sender-records.ts): per
 * (tenant, sender, collection, entry), how many messages from that sender (an address, or `@` and a
 * domain) were last read or answered as that entry, and when the last of them was first seen. Kept
 * incrementally by the corpus store; filled here from the corpus already kept. The same table on
 * SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sender_records')
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('messages', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sender_records_pk', ['tenant', 'sender', 'collection', 'entry'])
    .execute();
  await fill(db);
}

/** What the corpus already kept, counted (rows of the older `{customer, kind}` shape are left out). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function fill(db: Kysely<any>): Promise<void> {
  const counts = new Map<
    string,
    { tenant: string; sender: string; collection: string; entry: string; messages: number; last_at: string }
  >();
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom('corpus_messages')
      .select(['seq', 'tenant', 'from_address', 'reading', 'seen_at'])
      .where('seq', '>', after)
      .where('from_address', 'is not', null)
      .orderBy('seq')
      .limit(1000)
      .execute()) as {
      seq: number;
      tenant: string;
      from_address: string;
      reading: string | null;
      seen_at: string;
    }[];
    for (const row of rows) {
      const decided = decidedOf(row.reading);
      const at = row.from_address.lastIndexOf('@');
      const senders = at < 0 ? [row.from_address] : [row.from_address, row.from_address.slice(at)];
      for (const [collection, entry] of decided) {
        for (const sender of senders) {
          const k = JSON.stringify([row.tenant, sender, collection, entry]);
          const c = counts.get(k) ?? {
            tenant: row.tenant,
            sender,
            collection,
            entry,
            messages: 0,
            last_at: row.seen_at,
          };
          counts.set(k, {
            ...c,
            messages: c.messages + 1,
            last_at: c.last_at > row.seen_at ? c.last_at : row.seen_at,
          });
        }
      }
    }
    if (rows.length < 1000) break;
    after = Number(rows[rows.length - 1]!.seq);
  }
  const all = [...counts.values()];
  for (let i = 0; i < all.length; i += 500)
    await db
      .insertInto('sender_records')
      .values(all.slice(i, i + 500))
      .execute();
}

function decidedOf(reading: string | null): [string, string][] {
  if (reading === null) return [];
  const row = JSON.parse(reading) as { decided?: unknown };
  if (typeof row.decided !== 'object' || row.decided === null) return [];
  return Object.entries(row.decided).filter((e): e is [string, string] => typeof e[1] === 'string');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sender_records').execute();
}
