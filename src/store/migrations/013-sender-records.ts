/**
 * 013: `sender_records`, the track record of senders (src/store/sender-records.ts): per
 * (tenant, sender, collection, entry), how many messages from that sender (an address, or `@` and a
 * domain) were last read or answered as that entry, and when the last of them was first seen.
 * Filled here from the corpus already kept; from then on a trigger on `corpus_messages` keeps it,
 * in the writing statement itself (exact and atomic, and no statement more for the agent to send):
 * a message counts once, under what its reading decides now (−1 under what it decided and no longer
 * does). A row whose sender changes (raw-mail retention, a §14 scrub) or that is deleted leaves the
 * record as it is; an erase deletes the record's own rows (store/sender-records.ts). The same table
 * on SQLite and PostgreSQL; the trigger in each one's language.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

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
  // The message's record keys beyond its sender (reference families), written by the agent.
  await db.schema.alterTable('corpus_messages').addColumn('record_keys', 'text').execute();
  await fill(db);
  if (engineOf(db) === 'postgres') await postgresTrigger(db);
  else await sqliteTriggers(db);
}

/**
 * SQLite: one trigger for a new message, one for a reading that changed under the same sender. A
 * row counts under its address, its `@domain` and its record keys (reference families).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  // The keys a row counts under: its address, its @domain and its record keys.
  const senders = (row: string): string =>
    `(select value from json_each(json_array(${row}.from_address, case when instr(${row}.from_address, '@') > 1 ` +
    `then substr(${row}.from_address, instr(${row}.from_address, '@')) end)) where type = 'text' ` +
    `union all select value from json_each(coalesce(${row}.record_keys, '[]')) where type = 'text')`;
  const count = (row: string, unlessIn: string | null): string =>
    `insert into sender_records (tenant, sender, collection, entry, messages, last_at)
     select ${row}.tenant, s.value, d.key, d.value, 1, ${row}.seen_at
     from json_each(${row}.reading, '$.decided') as d, ${senders(row)} as s
     where d.type = 'text'
     ${unlessIn === null ? '' : `and not exists (select 1 from json_each(${unlessIn}.reading, '$.decided') as o where o.key = d.key and o.value = d.value)`}
     on conflict (tenant, sender, collection, entry) do update set
       messages = messages + 1, last_at = max(last_at, excluded.last_at);`;
  await sql
    .raw(
      `create trigger sender_records_on_insert after insert on corpus_messages
       when new.from_address is not null and new.reading is not null
       begin ${count('new', null)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger sender_records_on_update after update of reading on corpus_messages
       when new.from_address is not null and old.from_address is new.from_address and old.reading is not new.reading
       begin
         update sender_records set messages = messages - 1
         where tenant = old.tenant
           and sender in ${senders('old')}
           and exists (select 1 from json_each(old.reading, '$.decided') as o
                       where o.key = sender_records.collection and o.value = sender_records.entry
                         and not exists (select 1 from json_each(new.reading, '$.decided') as n
                                         where n.key = o.key and n.value = o.value));
         ${count('new', 'old')}
       end`,
    )
    .execute(db);
}

/** PostgreSQL: the same rule in one plpgsql trigger function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function postgresTrigger(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function count_sender_outcome() returns trigger language plpgsql as $$
       declare
         senders text[];
         was jsonb := '{}'::jsonb;
         cur jsonb := coalesce(new.reading::jsonb -> 'decided', '{}'::jsonb);
       begin
         if new.from_address is null or new.reading is null then return null; end if;
         if tg_op = 'UPDATE' then
           if old.from_address is distinct from new.from_address or old.reading is not distinct from new.reading then
             return null;
           end if;
           was := coalesce(old.reading::jsonb -> 'decided', '{}'::jsonb);
         end if;
         senders := array[new.from_address];
         if strpos(new.from_address, '@') > 1 then
           senders := senders || substr(new.from_address, strpos(new.from_address, '@'));
         end if;
         if new.record_keys is not null then
           senders := senders || array(select jsonb_array_elements_text(new.record_keys::jsonb));
         end if;
         update sender_records r set messages = r.messages - 1
         from jsonb_each_text(was) o
         where r.tenant = new.tenant and r.sender = any(senders) and r.collection = o.key and r.entry = o.value
           and not (cur ? o.key and cur ->> o.key = o.value);
         insert into sender_records (tenant, sender, collection, entry, messages, last_at)
         select new.tenant, s, d.key, d.value, 1, new.seen_at
         from jsonb_each_text(cur) d, unnest(senders) s
         where not (was ? d.key and was ->> d.key = d.value)
         on conflict (tenant, sender, collection, entry) do update set
           messages = sender_records.messages + 1, last_at = greatest(sender_records.last_at, excluded.last_at);
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger corpus_messages_sender_records after insert or update of reading on corpus_messages
       for each row execute function count_sender_outcome()`,
    )
    .execute(db);
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
