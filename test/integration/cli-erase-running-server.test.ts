// Invariant (§14, issue 12 gap 3): an erase made with the CLI on the data directory of a running server reaches that server too: the CLI says in words what it cannot reach, and the server notices the erase on its next read (the erase count in the database moved) and forgets everything it holds in memory, once; its own erases through the API are not taken for another process's.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { loadConfig } from '../../src/config/config.ts';
import { compose, DATABASE_FILE, type Composition } from '../../src/main.ts';
import { openDatabase } from '../../src/store/database.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { tempDataDir } from '../e2e/host.ts';

const ID = 'billing@origin.example';
const data = tempDataDir();
let composition: Composition;
let url: string;
let forgotten = 0;

beforeAll(async () => {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: data.dir, LOG_LEVEL: 'silent' });
  composition = await compose(config, { announce: () => {}, onMemoryForgotten: () => forgotten++ });
  url = (await composition.server.listen(0, '127.0.0.1')).localUrl;
}, 30_000);
afterAll(async () => {
  await composition?.close();
  data.remove();
});

async function authority(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${composition.demoToken!}` },
    body: JSON.stringify(body),
  });
  const json: any = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const mail = (n: number) => ({
  parts: [
    { data: { from: `Origin Billing <${ID}>`, subject: `Pre-alert PA-${n}`, body: 'Manifest attached.' } },
  ],
});

describe('a CLI erase and a running server (§14)', () => {
  it('is noticed by the server on its next read, which then forgets its memory once', async () => {
    const { client, opts } = await sdkClient(url, composition.demoToken!);
    await authority('/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
    });
    // The server compiles the version whose mark names the identifier, and remembers it.
    const before = await send(client, opts, mail(1));
    expect(before.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'erase',
        '--identifier',
        ID,
        '--by',
        'sam@warehouse.example',
        '--as',
        'ops@warehouse.example',
        '--data-dir',
        data.dir,
      ],
      { env: { ...process.env, DATA_DIR: data.dir } },
    );
    // The CLI says, in words, what it does not reach and when the server does.
    expect(stdout).toMatch(
      /A server running on this data directory .* notices this erase and forgets all of it/,
    );
    expect(forgotten).toBe(0);

    // The next read: noticed, memory forgotten, and the erased lesson no longer decides the mail.
    const after = await send(client, opts, mail(2));
    expect(forgotten).toBe(1);
    expect(after.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await send(client, opts, mail(3));
    expect(forgotten).toBe(1);

    // The server's own erase is its own: counted, and not taken for another process's.
    await authority('/erase', { identifier: 'ops@gulftrade.example', taughtBy: 'sam@warehouse.example' });
    await send(client, opts, mail(4));
    expect(forgotten).toBe(1);
    // Both erases are counted, per tenant, so any other process on this file notices each one.
    const db = await openDatabase({ file: join(data.dir, DATABASE_FILE) });
    try {
      const rows = await sql<{ tenant: string; generation: number }>`select * from erase_generations`.execute(
        db,
      );
      expect(rows.rows).toEqual([{ tenant: 'demo', generation: 2 }]);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
