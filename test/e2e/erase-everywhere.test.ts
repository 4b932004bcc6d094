// Invariant (§14): after an erase and a stop, a personal identifier that reached the server by every path (A2A file, text and data parts, IMAP, each inbound webhook, a lesson, a reason, a CLI import, show-back) is in no file of the data directory, WAL and SHM included, in plain text or in base64 at any alignment; the erase reports what it changed per store; and no log line of the run carries it.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { waitFor } from '../support/ingest.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { mailPipelineEnv, startInProcess, tempDataDir, type Host } from './host.ts';
import { eml as emlOf, hitsIn, sendByEveryPart, signedMailgunForm } from '../support/data-grep.ts';

const ID = 'billing@origin.example';
const TOKEN = 'e2e-inbound-token-erase-7c1d';
const MG_KEY = 'key-erase-e2e-4b1f9a';

const eml = (n: number): string => emlOf(n, ID);
const data = tempDataDir();
const importDir = tempDataDir();
let closed = false;
const logged: string[] = [];
let dovecot: Dovecot;
let host: Host;
const restore: (() => void)[] = [];

/** Everything written to stdout, stderr and the console while the server runs, kept to search. */
function captureLogs(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = (chunk: unknown, ...rest: unknown[]) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    };
    restore.push(() => (stream.write = write));
  }
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      logged.push(
        args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : String(a))).join(' '),
      );
      original(...args);
    };
    restore.push(() => (console[level] = original));
  }
}

beforeAll(async () => {
  dovecot = await startDovecot();
  captureLogs();
  host = await startInProcess(
    mailPipelineEnv(dovecot, { mailbox: 'erase', inboundToken: TOKEN, mailgunSigningKey: MG_KEY }),
    data.dir,
  );
}, 60_000);
afterAll(async () => {
  for (const r of restore.splice(0)) r();
  if (!closed) await host?.close();
  await dovecot?.dispose();
  data.remove();
  importDir.remove();
});

async function authority(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${host.url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  });
  const json: any = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function inbound(provider: string, body: string | FormData, contentType?: string): Promise<any> {
  const res = await fetch(`${host.url}/inbound/v1/${provider}/${TOKEN}`, {
    method: 'POST',
    ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }),
    body,
  });
  const json: any = await res.json();
  expect(res.status, `${provider}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

describe('erase reaches every copy (§14)', () => {
  it('leaves the identifier in no file of the data directory and in no log line, and says what it changed per store', async () => {
    const { client, opts } = await sdkClient(host.url, host.token!);

    // A2A: file part, text part, data part (each parks or settles; each is stored in tasks.history).
    const byFile = await sendByEveryPart(client, opts, ID, eml);

    // Each inbound webhook format.
    await inbound('rfc822', eml(4), 'message/rfc822');
    await inbound('postmark', JSON.stringify({ RawEmail: eml(5) }), 'application/json');
    await inbound('mailgun', signedMailgunForm(eml(6), MG_KEY), 'application/x-www-form-urlencoded');
    const sendgrid = new FormData();
    sendgrid.set('email', eml(7));
    sendgrid.set('to', 'imports@warehouse.example');
    await inbound('sendgrid', sendgrid);

    // IMAP, through the real Dovecot.
    const imap = await dovecot.client();
    await imap.append('INBOX', eml(8));
    await imap.logout();
    await waitFor('the mailbox message to be triaged', async () => {
      const m = await dovecot.client();
      const s = await m.status('Processed', { messages: true });
      await m.logout();
      return s !== false && s.messages === 1;
    });

    // A lesson with a reason, a CLI import, and show-back (an artifact that names the sender).
    await authority('/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
      reason: `${ID} sends the pre-alerts`,
    });
    const directory = join(importDir.dir, 'directory.json');
    writeFileSync(
      directory,
      JSON.stringify({ collections: { customers: { brandt: [{ pattern: `cc:${ID}`, where: 'body' }] } } }),
    );
    await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'import',
        directory,
        '--as',
        'sam@warehouse.example',
        '--by',
        'sam@warehouse.example',
        '--data-dir',
        data.dir,
      ],
      { env: { ...process.env, DATA_DIR: data.dir } },
    );
    const shown = await send(client, opts, { parts: [{ data: { recheck: { taskId: byFile.id } } }] });
    expect(shown.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(shown.artifacts)).toContain(ID);
    expect(hitsIn(data.dir, ID).length).toBeGreaterThan(0);

    const erased = await authority('/erase', {
      identifier: ID,
      taughtBy: 'sam@warehouse.example',
      reason: `erasure request from ${ID}`,
    });
    const stores = erased.stores as { store: string; changed: number }[];
    const changed = new Map(stores.map((s) => [s.store, s.changed]));
    // Issue 12 gap 2: every store it changed is in the report, kept analyses included.
    expect(stores.map((s) => s.store)).toEqual([
      'definition versions tombstoned',
      'person handles',
      'kept regex analyses',
      'corpus messages',
      'tasks (history, status messages, artifacts)',
      'task message parts whose bytes were dropped',
      'ingest claims',
      'deliveries owed (push notifications, delivery webhooks)',
      'push configs and delivery webhooks naming it',
      'remembered regex analyses',
      'compiled matchers',
      'write-ahead log frames folded in and truncated',
    ]);
    expect(changed.get('kept regex analyses')).toBeGreaterThan(0);
    expect(changed.get('corpus messages')).toBeGreaterThanOrEqual(8);
    expect(changed.get('tasks (history, status messages, artifacts)')).toBeGreaterThanOrEqual(9);
    expect(changed.get('task message parts whose bytes were dropped')).toBeGreaterThanOrEqual(7);
    expect(changed.get('ingest claims')).toBe(5);
    expect(changed.get('compiled matchers')).toBeGreaterThan(0);
    expect(changed.get('write-ahead log frames folded in and truncated')).toBeGreaterThanOrEqual(0);

    // A dry run afterwards no longer prints it.
    const dry = await authority('/lessons:dry-run', {
      collection: 'customers',
      entry: 'gulftrade',
      value: { pattern: 'origin\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
    });
    expect(dry.total).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(dry).toLowerCase()).not.toContain(ID);

    closed = true;
    await host.close();
    expect(hitsIn(data.dir, ID)).toEqual([]);
    const log = logged.join('\n').toLowerCase();
    expect(log.split(ID).length - 1, 'times the identifier was logged').toBe(0);
  }, 120_000);
});
