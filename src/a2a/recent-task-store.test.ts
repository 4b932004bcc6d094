// Invariant: the recent-task store writes every save through to the durable store before it returns, serves only copies of what this process saved in the last ttlMs to the scope that saved it, and never a copy of a save the durable store refused.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import { tenantId } from '../domain/tenant.ts';
import { copyTask, recentTaskStore } from './recent-task-store.ts';
import { PrincipalUser, tenantOwnerResolver } from './user.ts';

function contextOf(tenant: string): ServerCallContext {
  return new ServerCallContext({
    user: new PrincipalUser({ id: 'dana', kind: 'person', tenant: tenantId(tenant), roles: ['read'] }),
  });
}

function task(id: string, state: TaskState, text: string): Task {
  return Task.fromJSON({
    id,
    contextId: 'c1',
    status: { state: TaskState[state], timestamp: '2026-09-07T09:00:00.000Z' },
    history: [
      { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ raw: Buffer.from(text).toString('base64') }] },
    ],
    metadata: { note: text },
  });
}

describe('recent-task store', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;
  let durable: TaskStore;
  let now: number;
  let store: TaskStore;
  const demo = contextOf('demo');
  beforeEach(async () => {
    // The SDK's tasks table (the same DDL as migration 003), on a real SQLite database.
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    await sql
      .raw(
        `create table "tasks" ("tenant" varchar(255) not null, "owner" varchar(255) not null, "id" varchar(36) not null, "context_id" varchar(36) not null, "status_last_updated" bigint not null, "status_state" varchar(255), "status" text, "artifacts" text, "history" text, "metadata" text, "protocol_version" varchar(255), constraint "tasks_pkey" primary key ("tenant", "owner", "id"))`,
      )
      .execute(db);
    durable = new DatabaseTaskStore(db, { ownerResolver: tenantOwnerResolver });
    now = 0;
    store = recentTaskStore(durable, { ownerResolver: tenantOwnerResolver, ttlMs: 1000, nowMs: () => now });
  });
  afterEach(async () => {
    await db.destroy();
  });

  it('writes every save to the durable store before returning (a crash loses nothing it acknowledged)', async () => {
    await store.save(task('t1', TaskState.TASK_STATE_SUBMITTED, 'one'), demo);
    expect((await durable.load('t1', demo))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    await store.save(task('t1', TaskState.TASK_STATE_COMPLETED, 'two'), demo);
    expect((await durable.load('t1', demo))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('serves what it saved as a fresh copy equal to the durable row, which the caller may mutate', async () => {
    const saved = task('t1', TaskState.TASK_STATE_COMPLETED, 'one');
    await store.save(saved, demo);
    saved.metadata = { note: 'changed after save' };
    const a = await store.load('t1', demo);
    expect(Task.toJSON(a!)).toEqual(Task.toJSON((await durable.load('t1', demo))!));
    a!.metadata = { note: 'mutated' };
    a!.history.push(a!.history[0]!);
    const b = await store.load('t1', demo);
    expect(b).not.toBe(a);
    expect(b!.metadata).toEqual({ note: 'one' });
    expect(b!.history).toHaveLength(1);
  });

  it('serves a copy only to the scope that saved it: another tenant does not find the task (§13.2)', async () => {
    await store.save(task('t1', TaskState.TASK_STATE_COMPLETED, 'one'), demo);
    expect(await store.load('t1', contextOf('acme'))).toBeUndefined();
  });

  it('reads the durable store once a copy is older than ttlMs (another process may have written the row)', async () => {
    await store.save(task('t1', TaskState.TASK_STATE_INPUT_REQUIRED, 'one'), demo);
    await durable.save(task('t1', TaskState.TASK_STATE_COMPLETED, 'elsewhere'), demo);
    now = 1000;
    expect((await store.load('t1', demo))?.metadata).toEqual({ note: 'one' });
    now = 1001;
    expect((await store.load('t1', demo))?.metadata).toEqual({ note: 'elsewhere' });
  });

  it('never serves a save the durable store refused', async () => {
    await store.save(task('t1', TaskState.TASK_STATE_SUBMITTED, 'one'), demo);
    const failing = recentTaskStore(
      {
        save: () => Promise.reject(new Error('disk full')),
        load: (id, c) => durable.load(id, c),
        list: (p, c) => durable.list(p, c),
      },
      { ownerResolver: tenantOwnerResolver, nowMs: () => now },
    );
    await expect(failing.save(task('t2', TaskState.TASK_STATE_COMPLETED, 'lost'), demo)).rejects.toThrow(
      'disk full',
    );
    expect(await failing.load('t2', demo)).toBeUndefined();
  });

  it('answers "not found" for a new task id without asking the durable store, and never hides a saved task', async () => {
    let asked = 0;
    const counting = recentTaskStore(
      {
        save: (t, c) => durable.save(t, c),
        load: (id, c) => (asked++, durable.load(id, c)),
        list: (p, c) => durable.list(p, c),
      },
      { ownerResolver: tenantOwnerResolver, nowMs: () => now },
    );
    counting.expectNew('t-new', demo);
    expect(await counting.load('t-new', demo)).toBeUndefined();
    expect(asked).toBe(0);
    await counting.save(task('t-new', TaskState.TASK_STATE_SUBMITTED, 'one'), demo);
    expect((await counting.load('t-new', demo))?.metadata).toEqual({ note: 'one' });
    counting.expectNew('t-new', demo);
    expect((await counting.load('t-new', demo))?.metadata).toEqual({ note: 'one' });
    expect(await counting.load('t-new', contextOf('acme'))).toBeUndefined();
    expect(asked).toBe(1); // only the other tenant's read reached the durable store
  });

  it('with rows other processes write (replicas), serves a saved copy only to the call that saved it, and answers a new task id "not found" from memory (issues 41, 51)', async () => {
    let asked = 0;
    const shared = recentTaskStore(
      {
        save: (t, c) => durable.save(t, c),
        load: (id, c) => (asked++, durable.load(id, c)),
        list: (p, c) => durable.list(p, c),
      },
      { ownerResolver: tenantOwnerResolver, nowMs: () => now, shared: true },
    );
    shared.expectNew('t-new', demo);
    expect(await shared.load('t-new', demo)).toBeUndefined();
    expect(asked).toBe(0);
    await shared.save(task('t-new', TaskState.TASK_STATE_SUBMITTED, 'one'), demo);
    // The saving call reads back what it saved (the SDK does, to answer) without a round trip.
    expect((await shared.load('t-new', demo))?.metadata).toEqual({ note: 'one' });
    expect(asked).toBe(0);
    // Another replica writes the row: a later call sees its write, not this process's save.
    await durable.save(task('t-new', TaskState.TASK_STATE_COMPLETED, 'two'), demo);
    expect((await shared.load('t-new', contextOf('demo')))?.metadata).toEqual({ note: 'two' });
    expect(asked).toBe(1);
    expect(shared.heldCopies()).toBe(0);
  });

  it('keeps at most maxTasks copies, asking the durable store for the others', async () => {
    const small = recentTaskStore(durable, {
      ownerResolver: tenantOwnerResolver,
      maxTasks: 1,
      nowMs: () => now,
    });
    await small.save(task('t1', TaskState.TASK_STATE_SUBMITTED, 'one'), demo);
    await small.save(task('t2', TaskState.TASK_STATE_SUBMITTED, 'two'), demo);
    await durable.save(task('t1', TaskState.TASK_STATE_COMPLETED, 'elsewhere'), demo);
    expect((await small.load('t1', demo))?.metadata).toEqual({ note: 'elsewhere' });
    expect((await small.load('t2', demo))?.metadata).toEqual({ note: 'two' });
  });
  it('drops a copy once it is past ttlMs, on the next call or when the store falls idle (issue 16: no raw mail held after a burst)', async () => {
    const sweeps: (() => void)[] = [];
    const idle = recentTaskStore(durable, {
      ownerResolver: tenantOwnerResolver,
      ttlMs: 1000,
      nowMs: () => now,
      later: (sweep) => void sweeps.push(sweep),
    });
    await idle.save(task('t1', TaskState.TASK_STATE_INPUT_REQUIRED, 'a large mail'), demo);
    await idle.save(task('t2', TaskState.TASK_STATE_INPUT_REQUIRED, 'another'), demo);
    expect(idle.heldCopies()).toBe(2);
    expect(sweeps).toHaveLength(1); // one sweep pending, however many saves
    now = 1001;
    // nothing else is asked of the store: only the idle sweep can let the copies go
    sweeps.shift()!();
    expect(idle.heldCopies()).toBe(0);
    expect(sweeps).toHaveLength(0); // nothing left to sweep: no timer keeps running
    // the durable rows are untouched
    expect((await idle.load('t1', demo))?.metadata).toEqual({ note: 'a large mail' });
    // a busy store drops the expired copies on its own calls too
    await idle.save(task('t3', TaskState.TASK_STATE_COMPLETED, 'three'), demo);
    now = 2500;
    await idle.save(task('t4', TaskState.TASK_STATE_COMPLETED, 'four'), demo);
    expect(idle.heldCopies()).toBe(1);
  });
});

describe('copyTask', () => {
  it('copies a task as structuredClone would, sharing only the bytes of raw parts, which nobody writes into (issue 16: a 25 MB mail is not copied on every save and read)', () => {
    const t = task('t1', TaskState.TASK_STATE_COMPLETED, 'raw bytes');
    t.artifacts = [
      {
        artifactId: 'a1',
        name: 'reading',
        description: '',
        parts: [
          {
            content: { $case: 'data', value: { nested: { list: [1, 'two', null] } } },
            mediaType: '',
            filename: '',
            metadata: undefined,
          },
        ],
        metadata: undefined,
        extensions: [],
      },
    ];
    const copy = copyTask(t);
    expect(Task.toJSON(copy)).toEqual(Task.toJSON(structuredClone(t)));
    expect(Object.keys(copy.status!)).toEqual(Object.keys(t.status!)); // undefined fields kept
    const raw = t.history[0]!.parts[0]!.content;
    const copiedRaw = copy.history[0]!.parts[0]!.content;
    expect(copiedRaw).not.toBe(raw);
    if (raw?.$case !== 'raw' || copiedRaw?.$case !== 'raw') throw new Error('expected raw parts');
    expect(copiedRaw.value).toBe(raw.value); // the same bytes, held once
    copy.history[0]!.parts[0]!.content = { $case: 'text', value: 'replaced' };
    expect(t.history[0]!.parts[0]!.content?.$case).toBe('raw'); // the part around them is the copy's own
    const data = copy.artifacts[0]!.parts[0]!.content;
    if (data?.$case !== 'data') throw new Error('expected a data part');
    (data.value as { nested: { list: unknown[] } }).nested.list.push('more');
    const original = t.artifacts[0]!.parts[0]!.content;
    expect(original?.$case === 'data' && original.value).toEqual({ nested: { list: [1, 'two', null] } });
  });

  it('falls back to structuredClone for anything that is not plain data', () => {
    const t = task('t1', TaskState.TASK_STATE_COMPLETED, 'x');
    t.metadata = { when: new Date(0), seen: new Map([['a', 1]]) };
    const copy = copyTask(t);
    expect(copy.metadata).toEqual({ when: new Date(0), seen: new Map([['a', 1]]) });
    expect(copy.metadata!.when).not.toBe(t.metadata.when);
  });
});
