// Invariant (issue 41): a task's large mail is written once, outside the SDK's task row, and read
// back whole: the row holds no bytes of it, a parked task's second save writes nothing again, a
// load or a list puts the bytes back, another tenant never reads them (§13.2), and a copy of the
// SQLite file into PostgreSQL carries them. On SQLite and PostgreSQL alike.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { createTestDatabase } from '../../test/support/postgres.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { tenantId, type TenantId } from '../domain/tenant.ts';
import { copySqliteToPostgres } from './copy-to-postgres.ts';
import { openDatabase } from './database.ts';
import { openPostgres } from './postgres-database.ts';
import { BLOB_MIN_BYTES, mailBlobTaskStore } from './task-mail-blobs.ts';

// A caller of a tenant, scoped by the SDK's own owner rule (its user name): the store layer knows no
// A2A principal, so the test needs none.
const contextOf = (tenant: string): ServerCallContext =>
  new ServerCallContext({ user: { isAuthenticated: true, userName: `${tenant}/dana` } });
const tenantOf = (c: ServerCallContext): TenantId => tenantId(c.user!.userName.split('/')[0]!);
const tenantOwnerResolver = (c: ServerCallContext): string => c.user?.userName ?? 'unknown';

function task(id: string, state: TaskState, mail: Buffer): Task {
  return Task.fromJSON({
    id,
    contextId: 'c1',
    status: { state: TaskState[state], timestamp: '2026-12-06T09:00:00.000Z' },
    history: [
      {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [
          { raw: mail.toString('base64'), mediaType: 'message/rfc822', filename: 'big.eml' },
          { text: 'and a note' },
        ],
      },
    ],
  });
}

describe.each(STORE_ENGINES)('$name task mail outside the row', ({ name }) => {
  const engine = useStoreEngine(name);

  it('writes a large mail once, outside the row, and reads it back whole to its own tenant only', async () => {
    const db = await engine.fresh();
    const store = mailBlobTaskStore(
      new DatabaseTaskStore(db, { ownerResolver: tenantOwnerResolver }),
      db,
      tenantOf,
    );
    const mail = randomBytes(BLOB_MIN_BYTES * 3);
    const demo = contextOf('demo');
    const parked = task('t1', TaskState.TASK_STATE_INPUT_REQUIRED, mail);
    await store.save(parked, demo);
    // The SDK saves the same task again when it ends: the same bytes, not written twice.
    await store.save(
      { ...parked, status: { ...parked.status!, state: TaskState.TASK_STATE_COMPLETED } },
      demo,
    );

    const row = await db
      .selectFrom('tasks')
      .select(['history'])
      .where('id', '=', 't1')
      .executeTakeFirstOrThrow();
    expect((row.history as string).length).toBeLessThan(2_000);
    expect(row.history as string).not.toContain(mail.subarray(0, 300).toString('base64').slice(0, 40));
    const blobs = await db.selectFrom('task_mail').select(['tenant', 'task_id', 'bytes']).execute();
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).toMatchObject({ tenant: 'demo', task_id: 't1' });
    expect(Buffer.compare(Buffer.from(blobs[0]!.bytes as Uint8Array), mail)).toBe(0);

    const loaded = (await store.load('t1', demo))!;
    expect(loaded.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [file, note] = loaded.history[0]!.parts;
    expect(file!.content?.$case).toBe('raw');
    expect(Buffer.compare(Buffer.from(file!.content!.value as Uint8Array), mail)).toBe(0);
    expect(file!.metadata).toBeUndefined();
    expect(file!.filename).toBe('big.eml');
    expect(note!.content).toEqual({ $case: 'text', value: 'and a note' });
    const listed = await store.list({ tenant: '', pageSize: 10, includeArtifacts: false } as never, demo);
    const listedFile = listed.tasks[0]!.history[0]!.parts[0]!;
    expect(Buffer.compare(Buffer.from(listedFile.content!.value as Uint8Array), mail)).toBe(0);

    expect(await store.load('t1', contextOf('acme'))).toBeUndefined();
  });

  it('keeps a small mail in the row, as before', async () => {
    const db = await engine.fresh();
    const store = mailBlobTaskStore(
      new DatabaseTaskStore(db, { ownerResolver: tenantOwnerResolver }),
      db,
      tenantOf,
    );
    const mail = Buffer.from('From: a@b.example\r\n\r\nsmall\r\n');
    await store.save(task('t2', TaskState.TASK_STATE_COMPLETED, mail), contextOf('demo'));
    expect(await db.selectFrom('task_mail').selectAll().execute()).toEqual([]);
    const loaded = (await store.load('t2', contextOf('demo')))!;
    expect(Buffer.from(loaded.history[0]!.parts[0]!.content!.value as Uint8Array).toString()).toBe(
      mail.toString(),
    );
  });
});

describe('task mail copied into PostgreSQL', () => {
  it('carries the bytes, and the copied task reads whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-task-mail-'));
    const database = await createTestDatabase();
    const from = await openDatabase({ file: join(dir, 'store.sqlite') });
    const to = await openPostgres({ url: database.url, poolSize: 2 });
    try {
      const mail = randomBytes(BLOB_MIN_BYTES + 5);
      const demo = contextOf('demo');
      const sdk = (db: typeof from) => new DatabaseTaskStore(db, { ownerResolver: tenantOwnerResolver });
      await mailBlobTaskStore(sdk(from), from, tenantOf).save(
        task('t3', TaskState.TASK_STATE_COMPLETED, mail),
        demo,
      );
      const report = await copySqliteToPostgres(from, to);
      expect(report.tables.get('task_mail')).toBe(1);
      const loaded = (await mailBlobTaskStore(sdk(to), to, tenantOf).load('t3', demo))!;
      expect(
        Buffer.compare(Buffer.from(loaded.history[0]!.parts[0]!.content!.value as Uint8Array), mail),
      ).toBe(0);
      const { rows } = await sql<{ n: number }>`select octet_length(bytes) as n from task_mail`.execute(to);
      expect(rows[0]!.n).toBe(mail.length);
    } finally {
      await from.destroy();
      await to.destroy();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
