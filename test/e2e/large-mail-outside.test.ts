// Invariant (issue 41, §14): a large mail is written once, outside the SDK's task row, and the task
// reads it back whole over A2A while parked and after it is answered; an erase of an identifier in
// it drops those bytes with the part (after a stop the identifier is in no file of the data
// directory), and retention drops them with the mail (its text is in no file either).
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Role, TaskState, type Task } from '@a2a-js/sdk';
import { DATABASE_FILE } from '../../src/main.ts';
import { BLOB_MIN_BYTES } from '../../src/store/task-mail-blobs.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { startInProcess, tempDataDir, type Host } from './host.ts';

const PERSON = 'marta.voss@lowland.example';
const BODY_MARK = 'HAWB 176-55509876 (12 pcs) RTM-ORD';
const FILLER = 'Packing list line: carton, 40 x 30 x 20 cm, 8.5 kg, stackable, keep dry.\r\n';
const EML = [
  'From: Lowland Freight <ops@lowland.example>',
  'To: imports@warehouse.example',
  'Subject: Pre-alert LF-9',
  'Message-ID: <lf-9@lowland.example>',
  'Date: Tue, 01 Dec 2026 08:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  `Dear team, ${BODY_MARK}. Questions to ${PERSON}.`,
  FILLER.repeat(Math.ceil((2 * BLOB_MIN_BYTES) / FILLER.length)),
].join('\r\n');

const hosts: Host[] = [];
let data = tempDataDir();
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
  data.remove();
  data = tempDataDir();
});
async function start(env: Record<string, string> = {}): Promise<Host> {
  const h = await startInProcess(env, data.dir);
  hosts.push(h);
  return h;
}

/** What the database file holds for the task: its row's history length and its mail rows. */
function stored(taskId: string): { historyChars: number; mailRows: number; mailBytes: number } {
  const db = new Database(join(data.dir, DATABASE_FILE), { readonly: true });
  try {
    const row = db.prepare('select history from tasks where id = ?').get(taskId) as { history: string };
    const mail = db.prepare('select bytes from task_mail where task_id = ?').all(taskId) as {
      bytes: Buffer;
    }[];
    return {
      historyChars: row.history.length,
      mailRows: mail.length,
      mailBytes: mail.reduce((n, m) => n + m.bytes.length, 0),
    };
  } finally {
    db.close();
  }
}

function inDataDir(text: string): string[] {
  const needles = [Buffer.from(text), Buffer.from(Buffer.from(text).toString('base64').slice(0, 24))];
  return readdirSync(data.dir).filter((f) =>
    needles.some((n) => readFileSync(join(data.dir, f)).includes(n)),
  );
}

const mailPartOf = (t: Task) => t.history.find((m) => m.role === Role.ROLE_USER)!.parts[0]!;

async function authority(host: Host, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${host.url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function parkLargeMail(host: Host) {
  const { client, opts } = await sdkClient(host.url, host.token!);
  const parked = await send(client, opts, {
    parts: [{ raw: Buffer.from(EML).toString('base64'), mediaType: 'message/rfc822', filename: 'lf-9.eml' }],
  });
  expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return { client, opts, parked };
}

describe('a large mail outside the task row (issue 41)', () => {
  it('is written once, read back whole while parked and once answered, and an erase drops its bytes (§14)', async () => {
    const host = await start();
    const { client, opts, parked } = await parkLargeMail(host);
    const first = stored(parked.id);
    expect(first).toMatchObject({ mailRows: 1, mailBytes: Buffer.byteLength(EML) });
    expect(first.historyChars).toBeLessThan(4_000);

    const read = await client.getTask({ id: parked.id, historyLength: 10 } as any, opts);
    expect(Buffer.from(mailPartOf(read).content!.value as Uint8Array).toString()).toBe(EML);

    const answered = await send(client, opts, {
      taskId: parked.id,
      contextId: parked.contextId,
      parts: [{ text: 'northgate' }],
    });
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stored(parked.id)).toMatchObject({ mailRows: 1, mailBytes: Buffer.byteLength(EML) });
    const after = await client.getTask({ id: parked.id, historyLength: 10 } as any, opts);
    expect(Buffer.from(mailPartOf(after).content!.value as Uint8Array).toString()).toBe(EML);

    const erased = await authority(host, '/erase', {
      identifier: PERSON,
      taughtBy: 'sam@warehouse.example',
      reason: 'erasure request',
    });
    const changed = new Map(
      (erased.stores as { store: string; changed: number }[]).map((s) => [s.store, s.changed]),
    );
    expect(changed.get('task message parts whose bytes were dropped')).toBeGreaterThanOrEqual(1);
    expect(stored(parked.id).mailRows).toBe(0);
    const gone = await client.getTask({ id: parked.id, historyLength: 10 } as any, opts);
    expect((mailPartOf(gone).content as any).value.incinerated).toMatchObject({
      why: 'erased',
      filename: 'lf-9.eml',
      bytes: Buffer.byteLength(EML),
      sha256: createHash('sha256').update(EML).digest('hex'),
    });
    await hosts.pop()!.close();
    expect(inDataDir(PERSON)).toEqual([]);
  }, 60_000);

  it('is dropped by raw-mail retention with the part it belonged to', async () => {
    const first = await start();
    const { parked } = await parkLargeMail(first);
    expect(stored(parked.id).mailRows).toBe(1);
    await hosts.pop()!.close();
    await new Promise((r) => setTimeout(r, 2_100));
    const second = await start({ RAW_MAIL_RETENTION_DAYS: '0' });
    const { client, opts } = await sdkClient(second.url, first.token!);
    const read = await client.getTask({ id: parked.id, historyLength: 10 } as any, opts);
    expect((mailPartOf(read).content as any).value.incinerated).toMatchObject({
      why: 'retention',
      bytes: Buffer.byteLength(EML),
      sha256: createHash('sha256').update(EML).digest('hex'),
    });
    expect(stored(parked.id).mailRows).toBe(0);
    await hosts.pop()!.close();
    expect(inDataDir(BODY_MARK)).toEqual([]);
  }, 60_000);
});
