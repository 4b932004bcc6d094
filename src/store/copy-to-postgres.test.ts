// Invariant: copying a SQLite store into PostgreSQL keeps every row as it was, numbers new rows after the copied ones, and refuses a target that already holds data without writing to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import { corpusKey } from '../domain/triage/index.ts';
import type { MailMessage } from '../domain/mail/index.ts';
import { tenantId } from '../domain/tenant.ts';
import { copySqliteToPostgres } from './copy-to-postgres.ts';
import { openDatabase } from './database.ts';
import { openPostgres } from './postgres-database.ts';
import { SqliteCorpusStore } from './sqlite-corpus-store.ts';
import { createSqliteTokenStore } from './sqlite-token-store.ts';

const demo = tenantId('demo');

function mail(n: number): MailMessage {
  return {
    messageId: `m${n}@origin.example`,
    contentHash: String(n).repeat(64).slice(0, 64),
    from: { address: 'billing@origin.example', name: 'Billing' },
    replyTo: [],
    to: [],
    cc: [],
    subject: `Pre-alert ${n}`,
    date: null,
    body: 'Please find the details.',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
  };
}

describe('copySqliteToPostgres', () => {
  let dir: string;
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let from: Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let to: Kysely<any>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lt-copy-'));
    database = await createTestDatabase();
    from = await openDatabase({ file: join(dir, 'x.sqlite') });
    to = await openPostgres({ url: database.url, poolSize: 2 });
  });
  afterAll(async () => {
    await from.destroy();
    await to.destroy();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row, and the corpus numbers on after the copied rows', async () => {
    const sqliteCorpus = new SqliteCorpusStore(from);
    for (let n = 1; n <= 450; n++) {
      const m = mail(n);
      await sqliteCorpus.remember(demo, {
        key: corpusKey(m),
        message: m,
        seenAt: `t${n}`,
        taskId: `task-${n}`,
        // Issue 38: every third one decided, so the senders' record has something to rebuild.
        lastReading:
          n % 3 === 0
            ? { versionId: 'sha256:x', definitionVersion: 1, decided: new Map([['customers', `c${n % 2}`]]) }
            : null,
      });
    }
    const { token } = await createSqliteTokenStore(from).create({
      tenant: demo,
      principal: 'dana@warehouse.example',
      kind: 'person',
      roles: ['read'],
    });
    const report = await copySqliteToPostgres(from, to);
    expect(report.tables.get('corpus_messages')).toBe(450); // more than two batches
    expect(report.tables.get('tokens')).toBe(1);
    const pgCorpus = new SqliteCorpusStore(to);
    // The senders' track record is rebuilt on PostgreSQL from the copied corpus, equal to SQLite's.
    expect(await pgCorpus.senders(demo, 'customers', 500)).toEqual(
      await sqliteCorpus.senders(demo, 'customers', 500),
    );
    expect((await pgCorpus.senders(demo, 'customers', 500)).length).toBeGreaterThan(0);
    const page = await pgCorpus.list(demo, { limit: 1000 });
    const sqlitePage = await sqliteCorpus.list(demo, { limit: 1000 });
    expect(page.records).toEqual(sqlitePage.records);
    expect(await createSqliteTokenStore(to).verify(token)).toMatchObject({ id: 'dana@warehouse.example' });
    // A message read after the move is a new row, numbered after the copied ones.
    const m = mail(451);
    await pgCorpus.remember(demo, {
      key: corpusKey(m),
      message: m,
      seenAt: 't451',
      taskId: null,
      lastReading: null,
    });
    expect(await pgCorpus.count(demo)).toBe(451);
  });

  it('refuses a target that already holds data, naming the table, and writes nothing', async () => {
    const before = await new SqliteCorpusStore(to).count(demo);
    await expect(copySqliteToPostgres(from, to)).rejects.toThrow(
      /already holds data \(\d+ row\(s\) in "\w+"\)/,
    );
    expect(await new SqliteCorpusStore(to).count(demo)).toBe(before);
  });
});
