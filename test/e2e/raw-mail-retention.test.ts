// Invariant (§14, §10.3): raw mail is kept only RAW_MAIL_RETENTION_DAYS; once incinerated, a task keeps only the part's name, size and hash, the mail's text is in no file of the data directory, show-back and a dry run say in words that the message cannot be read again, and a task parked in input-required is still answered and completes on its pinned version.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Role, TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { startInProcess, tempDataDir, type Host } from './host.ts';

/** A line only the mail's body holds. */
const BODY_MARK = 'HAWB 176-55501234 (7 pcs) AMS-JFK';
const EML = [
  'From: Lowland Freight <ops@lowland.example>',
  'To: imports@warehouse.example',
  'Subject: Pre-alert LF-1',
  'Message-ID: <lf-1@lowland.example>',
  'Date: Tue, 01 Dec 2026 08:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  `Dear team, ${BODY_MARK}.`,
  '',
].join('\r\n');

function inDataDir(dir: string, text: string): string[] {
  const needles = [Buffer.from(text), Buffer.from(Buffer.from(text).toString('base64').slice(0, 24))];
  return readdirSync(dir).filter((f) => {
    const bytes = readFileSync(join(dir, f));
    return needles.some((n) => bytes.includes(n));
  });
}

const hosts: Host[] = [];
const data = tempDataDir();
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
  data.remove();
});

async function start(env: Record<string, string>): Promise<Host> {
  const h = await startInProcess(env, data.dir);
  hosts.push(h);
  return h;
}

async function authority(host: Host, token: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${host.url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return res.json();
}

const textOf = (t: Task): string =>
  t.status?.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('') ?? '';

describe('raw mail retention (§14)', () => {
  it('incinerates the mail past RAW_MAIL_RETENTION_DAYS, says so on show-back and dry run, and still answers the parked task on its pin', async () => {
    // Read and parked under the default retention (30 days): the mail is kept.
    const first = await start({});
    const token = first.token!;
    let { client, opts } = await sdkClient(first.url, token);
    const parked = await send(client, opts, {
      parts: [
        { raw: Buffer.from(EML).toString('base64'), mediaType: 'message/rfc822', filename: 'lf-1.eml' },
      ],
    });
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const pin = (parked.metadata as any)[EXTENSION_URI].pin;
    // A lesson after it parked: the task must still finish on the version it was pinned to.
    const taught = await authority(first, token, '/lessons', {
      collection: 'customers',
      entry: 'brandt',
      value: { pattern: 'lowland\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
    });
    expect(taught.definitionVersion).toBeGreaterThan(pin.definitionVersion);
    await hosts.pop()!.close();
    expect(inDataDir(data.dir, BODY_MARK).length).toBeGreaterThan(0);

    // Restarted with retention 0 ("drop once read"): the sweep at start incinerates it.
    await new Promise((r) => setTimeout(r, 2_100));
    const second = await start({ RAW_MAIL_RETENTION_DAYS: '0' });
    ({ client, opts } = await sdkClient(second.url, token));

    const stored = await client.getTask({ id: parked.id, historyLength: 10 } as any, opts);
    const mailPart = stored.history.find((m) => m.role === Role.ROLE_USER)!.parts[0]!;
    expect(mailPart.content?.$case).toBe('data');
    const kept = (mailPart.content as any).value.incinerated;
    expect(kept).toMatchObject({
      why: 'retention',
      filename: 'lf-1.eml',
      mediaType: 'message/rfc822',
      bytes: Buffer.byteLength(EML),
      sha256: createHash('sha256').update(EML).digest('hex'),
    });

    // Show-back by task and by Message-ID says in words why it cannot read the message again.
    for (const recheck of [{ taskId: parked.id }, { messageId: 'lf-1@lowland.example' }]) {
      const shown = await send(client, opts, { parts: [{ data: { recheck } }] });
      expect(shown.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
      expect(textOf(shown)).toMatch(
        /^The message <lf-1@lowland\.example> was read on \d{4}-\d\d-\d\d; its text was discarded once it was read \(RAW_MAIL_RETENTION_DAYS=0\), so it cannot be read again\.$/,
      );
    }
    const dry = await authority(second, token, '/lessons:dry-run', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'ops@lowland\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
    });
    expect(dry.discarded).toBe(1);
    expect(dry.discardedNote).toMatch(/<lf-1@lowland\.example> was read on .*cannot be read again/);

    // The parked task is answered from the reading it kept, on its pinned version.
    const answered = await send(client, opts, {
      taskId: parked.id,
      contextId: parked.contextId,
      parts: [{ text: 'northgate' }],
    });
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const report = (answered.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')!.content as any)
      .value;
    expect(report.pin).toEqual({ definitionVersion: pin.definitionVersion, versionId: pin.versionId });
    expect(report.customer).toMatchObject({ winner: 'northgate', decidedBy: 'person' });

    await hosts.pop()!.close();
    expect(inDataDir(data.dir, BODY_MARK)).toEqual([]);
  }, 60_000);
});
