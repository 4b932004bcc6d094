// Invariant: the corpus keeps each message once per tenant, never shows one tenant another's mail, and purges by age (§13.1, §13.2).
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { SqliteCorpusStore } from './sqlite-corpus-store.ts';
import { sql } from 'kysely';
import { corpusKey, scanCorpus, type ReadingSummary } from '../domain/triage/index.ts';
import type { MailMessage } from '../domain/mail/index.ts';
import { tenantId } from '../domain/tenant.ts';

const demo = tenantId('demo');
const other = tenantId('other');

function mail(over: Partial<MailMessage> = {}): MailMessage {
  return {
    messageId: 'm1@origin.example',
    contentHash: 'a'.repeat(64),
    from: { address: 'billing@origin.example', name: 'Billing' },
    replyTo: [],
    to: [],
    cc: [],
    subject: 'Pre-alert PA-2026-0901',
    date: null,
    body: 'Please find the details.',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
    ...over,
  };
}

describe.each(STORE_ENGINES)('$name corpus store', ({ name }) => {
  const engine = useStoreEngine(name);
  let db: Kysely<unknown>;
  let store: SqliteCorpusStore;
  beforeEach(async () => {
    db = await engine.fresh();
    store = new SqliteCorpusStore(db);
  });

  it('keeps what each collection settled on by collection, a collection named "__proto__" included', async () => {
    const m = mail();
    const decided = new Map([
      ['customers', 'northgate'],
      ['__proto__', 'urgent'],
    ]);
    const lastReading: ReadingSummary = { versionId: 'sha256:x', definitionVersion: 3, decided };
    await store.remember(demo, { key: corpusKey(m), message: m, seenAt: 'now', taskId: null, lastReading });
    const got = await store.get(demo, corpusKey(m));
    expect([...got!.lastReading!.decided]).toEqual([...decided]);
  });

  it('reads a reading kept before readings were kept by collection ({ customer, kind })', async () => {
    const m = mail();
    await store.remember(demo, {
      key: corpusKey(m),
      message: m,
      seenAt: 'now',
      taskId: null,
      lastReading: null,
    });
    const old = JSON.stringify({
      versionId: 'sha256:old',
      definitionVersion: 4,
      customer: 'northgate',
      kind: null,
    });
    await sql`UPDATE corpus_messages SET reading = ${old} WHERE key = ${corpusKey(m)}`.execute(db);
    const got = await store.get(demo, corpusKey(m));
    expect(got?.lastReading).toEqual({
      versionId: 'sha256:old',
      definitionVersion: 4,
      decided: new Map([['customers', 'northgate']]),
    });
  });

  it('keeps a message once per key and updates its task and reading (§13.1)', async () => {
    const m = mail();
    const key = corpusKey(m);
    expect(key).toBe('mid:m1@origin.example');
    await store.remember(demo, {
      key,
      message: m,
      seenAt: '2026-09-01T00:00:00.000Z',
      taskId: 't1',
      lastReading: null,
    });
    const reading: ReadingSummary = {
      versionId: 'sha256:x',
      definitionVersion: 2,
      decided: new Map([['customers', 'northgate']]),
    };
    await store.remember(demo, {
      key,
      message: m,
      seenAt: '2026-09-02T00:00:00.000Z',
      taskId: 't2',
      lastReading: reading,
    });
    expect(await store.count(demo)).toBe(1);
    const got = await store.get(demo, key);
    expect(got?.seenAt).toBe('2026-09-01T00:00:00.000Z');
    expect(got?.taskId).toBe('t2');
    expect(got?.lastReading).toEqual(reading);
    expect(got?.message).toEqual(m);
    expect((await store.findByMessageId(demo, '<m1@origin.example>'))?.key).toBe(key);
    expect((await store.findByTaskId(demo, 't2'))?.key).toBe(key);
  });

  it('keys a message without a Message-ID by its content hash', () => {
    expect(corpusKey(mail({ messageId: null }))).toBe(`sha256:${'a'.repeat(64)}`);
  });

  it('never shows one tenant the corpus of another (§13.2)', async () => {
    const m = mail();
    await store.remember(demo, {
      key: corpusKey(m),
      message: m,
      seenAt: '2026-09-01T00:00:00.000Z',
      taskId: 't1',
      lastReading: null,
    });
    expect(await store.count(other)).toBe(0);
    expect(await store.get(other, corpusKey(m))).toBeNull();
    expect(await store.findByMessageId(other, 'm1@origin.example')).toBeNull();
    expect((await store.list(other)).records).toEqual([]);
    expect(await store.purge(other, '2030-01-01T00:00:00.000Z')).toBe(0);
    expect(await store.count(demo)).toBe(1);
  });

  it('pages oldest first and filters by text and sender', async () => {
    for (let i = 0; i < 7; i++) {
      const m = mail({
        messageId: `m${i}@x`,
        subject: i % 2 === 0 ? `Pre-alert PA-2026-090${i}` : 'Invoice',
        from: { address: i < 3 ? 'a@x.example' : 'b@x.example', name: '' },
      });
      await store.remember(demo, {
        key: corpusKey(m),
        message: m,
        seenAt: `2026-09-0${i + 1}T00:00:00.000Z`,
        taskId: null,
        lastReading: null,
      });
    }
    const first = await store.list(demo, { limit: 3 });
    expect(first.records.map((r) => r.messageId)).toEqual(['m0@x', 'm1@x', 'm2@x']);
    expect(first.next).not.toBeNull();
    const all = [];
    for await (const r of scanCorpus(store, demo, { limit: 2 })) all.push(r.messageId);
    expect(all).toHaveLength(7);
    const hits = [];
    for await (const r of scanCorpus(store, demo, { containing: 'PA-2026' })) hits.push(r.messageId);
    expect(hits).toEqual(['m0@x', 'm2@x', 'm4@x', 'm6@x']);
    expect((await store.list(demo, { fromAddress: 'A@x.example' })).records).toHaveLength(3);
  });

  it('purges messages first seen before the retention limit (§13.1)', async () => {
    for (let i = 0; i < 4; i++) {
      const m = mail({ messageId: `m${i}@x` });
      await store.remember(demo, {
        key: corpusKey(m),
        message: m,
        seenAt: `2026-09-0${i + 1}T00:00:00.000Z`,
        taskId: null,
        lastReading: null,
      });
    }
    expect(await store.purge(demo, '2026-09-03T00:00:00.000Z')).toBe(2);
    expect(await store.count(demo)).toBe(2);
  });
});
