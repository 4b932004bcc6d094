// Invariant (issue 38): the corpus store keeps each sender's track record (address and domain) as messages are read and answered, counting a message once under what it is now, per tenant, leaving out the message being read, and erased with §14; on SQLite and PostgreSQL alike.
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { SqliteCorpusStore } from './sqlite-corpus-store.ts';
import type { ReadingSummary } from '../domain/triage/index.ts';
import type { MailMessage } from '../domain/mail/index.ts';
import { tenantId } from '../domain/tenant.ts';

const demo = tenantId('demo');
const other = tenantId('other');

function mail(n: number, address: string): MailMessage {
  return {
    messageId: `m${n}@mail.example`,
    contentHash: String(n).padStart(64, '0'),
    from: { address, name: '' },
    replyTo: [],
    to: [],
    cc: [],
    subject: `Pre-alert ${n}`,
    date: null,
    body: '',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
  };
}

function summary(decided: Record<string, string>): ReadingSummary {
  return { versionId: 'sha256:x', definitionVersion: 1, decided: new Map(Object.entries(decided)) };
}

describe.each(STORE_ENGINES)('$name sender records', ({ name }) => {
  const engine = useStoreEngine(name);
  let db: Kysely<unknown>;
  let store: SqliteCorpusStore;
  beforeEach(async () => {
    db = await engine.fresh();
    store = new SqliteCorpusStore(db);
  });

  const keep = (
    n: number,
    address: string,
    decided: Record<string, string>,
    tenant = demo,
    day = '01',
    recordKeys: string[] = [],
  ) =>
    store.remember(tenant, {
      key: `k${n}`,
      message: mail(n, address),
      seenAt: `2026-10-${day}T09:00:00.000Z`,
      taskId: null,
      lastReading: summary(decided),
      recordKeys,
    });
  const counts = (m: ReadonlyMap<string, ReadonlyMap<string, { messages: number }>>, collection: string) =>
    Object.fromEntries(
      [...(m.get(collection) ?? new Map<string, { messages: number }>())].map(([e, c]) => [e, c.messages]),
    );

  it('counts what mail from an address and its domain was read or answered as, once per message', async () => {
    await keep(1, 'ops@fwd.example', { customers: 'northgate', kinds: 'pre-alert' });
    await keep(2, 'ops@fwd.example', { customers: 'northgate' }, demo, '03');
    await keep(3, 'docs@fwd.example', { customers: 'alhamra' }, demo, '02');
    await keep(4, 'ops@fwd.example', {}); // asked: counts nowhere yet
    await keep(4, 'ops@fwd.example', { customers: 'silkroad' }); // answered by a person
    await keep(2, 'ops@fwd.example', { customers: 'northgate' }); // read again, the same: no change
    const r = await store.senderRecord(demo, 'OPS@fwd.example', new Map(), new Map());
    expect(r.address).toBe('ops@fwd.example');
    expect(counts(r.byAddress, 'customers')).toEqual({ northgate: 2, silkroad: 1 });
    expect(counts(r.byAddress, 'kinds')).toEqual({ 'pre-alert': 1 });
    expect(counts(r.byDomain, 'customers')).toEqual({ northgate: 2, alhamra: 1, silkroad: 1 });
    expect(r.byAddress.get('customers')!.get('northgate')!.lastAt).toBe('2026-10-03T09:00:00.000Z');
  });

  it('moves a message from what it was to what it is, and leaves out the message being read', async () => {
    await keep(1, 'ops@fwd.example', { customers: 'northgate' });
    await keep(2, 'ops@fwd.example', { customers: 'northgate' });
    await keep(2, 'ops@fwd.example', { customers: 'alhamra' }); // re-filed
    expect(
      counts(
        (await store.senderRecord(demo, 'ops@fwd.example', new Map(), new Map())).byAddress,
        'customers',
      ),
    ).toEqual({
      northgate: 1,
      alhamra: 1,
    });
    expect(
      counts(
        (await store.senderRecord(demo, 'ops@fwd.example', new Map([['customers', 'alhamra']]), new Map()))
          .byAddress,
        'customers',
      ),
    ).toEqual({
      northgate: 1,
    });
  });

  it('reads the kept row and the record in one statement, as the two reads would (issue 51)', async () => {
    const family = 'family:AHT-####-####';
    await keep(1, 'ops@fwd.example', { customers: 'northgate', kinds: 'pre-alert' }, demo, '01', [family]);
    await keep(2, 'ops@fwd.example', { customers: 'alhamra' }, demo, '02', [family]);
    await keep(3, 'docs@fwd.example', { customers: 'northgate' }, demo, '03');
    await keep(4, 'ops@fwd.example', { customers: 'gulftrade' }, other);
    const keys = new Map([[family, 'customers']]);
    for (const [key, address] of [
      ['k2', 'ops@fwd.example'],
      ['k9', 'ops@fwd.example'], // not kept: no row, the whole record
      ['k3', 'nobody'], // no sender to read: the row alone
    ] as const) {
      const both = await store.getWithSenderRecord(demo, key, address, keys);
      const existing = await store.get(demo, key);
      expect(both.existing).toEqual(existing);
      const own = existing?.lastReading?.decided ?? new Map<string, string>();
      expect(both.record).toEqual(await store.senderRecord(demo, address, own, keys));
    }
    const r = (await store.getWithSenderRecord(demo, 'k2', 'ops@fwd.example', keys)).record;
    expect(counts(r.byAddress, 'customers')).toEqual({ northgate: 1 }); // k2 itself left out
    expect(counts(r.byDomain, 'customers')).toEqual({ northgate: 2 });
    expect(counts(r.byKey.get(family)!, 'customers')).toEqual({ northgate: 1 });
  });

  it('keeps tenants apart, lists senders most messages first, and forgets an erased address (§13.2, §14)', async () => {
    await keep(1, 'ops@fwd.example', { customers: 'northgate' });
    await keep(2, 'ops@fwd.example', { customers: 'alhamra' });
    await keep(3, 'lena@northgate.example', { customers: 'northgate' });
    await keep(4, 'ops@fwd.example', { customers: 'gulftrade' }, other);
    expect(
      counts(
        (await store.senderRecord(other, 'ops@fwd.example', new Map(), new Map())).byAddress,
        'customers',
      ),
    ).toEqual({
      gulftrade: 1,
    });
    const listed = await store.senders(demo, 'customers', 10);
    expect(listed.map((s) => s.sender)).toEqual([
      '@fwd.example',
      'ops@fwd.example',
      '@northgate.example',
      'lena@northgate.example',
    ]);
    await store.erase(demo, 'ops@fwd.example');
    expect((await store.senderRecord(demo, 'ops@fwd.example', new Map(), new Map())).byAddress.size).toBe(0);
    expect((await store.senders(demo, 'customers', 10)).map((s) => s.sender)).not.toContain(
      'ops@fwd.example',
    );
    expect((await store.senders(other, 'customers', 10)).map((s) => s.sender)).toContain('ops@fwd.example');
  });

  it("counts under the message's other record keys too (reference families), which are not senders", async () => {
    const family = 'family:AHT-####-####';
    await keep(1, 'ops@fwd.example', { customers: 'alhamra' }, demo, '01', [family]);
    await keep(2, 'lena@alhamra.example', { customers: 'alhamra' }, demo, '02', [family]);
    await keep(2, 'lena@alhamra.example', { customers: 'northgate' }, demo, '02', [family]); // re-filed
    const r = await store.senderRecord(
      demo,
      'nobody@else.example',
      new Map(),
      new Map([[family, 'customers']]),
    );
    expect(counts(r.byKey.get(family) ?? new Map(), 'customers')).toEqual({ alhamra: 1, northgate: 1 });
    expect((await store.senders(demo, 'customers', 10)).map((x) => x.sender)).not.toContain(family);
  });

  it("reads a key only under the collection that weighs it (issue 39: a kind's cue is counted under every collection)", async () => {
    const cue = 'cue:pod';
    await keep(1, 'ops@fwd.example', { customers: 'alhamra', kinds: 'pod' }, demo, '01', [cue]);
    await keep(2, 'lena@alhamra.example', { customers: 'northgate', kinds: 'pod' }, demo, '02', [cue]);
    const r = await store.senderRecord(demo, 'nobody@else.example', new Map(), new Map([[cue, 'kinds']]));
    expect([...(r.byKey.get(cue)?.keys() ?? [])]).toEqual(['kinds']);
    expect(counts(r.byKey.get(cue) ?? new Map(), 'kinds')).toEqual({ pod: 2 });
  });
});
