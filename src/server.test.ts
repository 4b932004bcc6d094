// Invariant: an A2A request may carry any message the mail limits accept, on JSON-RPC and REST alike, a body past that limit is refused only after the token check (§13.2); and every task the server answered for survives the process being killed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/config.ts';
import { compose, DATABASE_FILE, DEMO_TOKEN_FILE, type Composition } from './main.ts';
import { sql } from 'kysely';
import { ANALYSER_VERSION } from './domain/matching/index.ts';
import { openDatabase } from './store/database.ts';
import { startChild } from '../test/e2e/host.ts';

const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

function bigMail(bytes: number): string {
  const head =
    'From: ops@big.example\r\nTo: imports@warehouse.example\r\nSubject: Manifest\r\nMessage-ID: <big-' +
    `${bytes}@big.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n`;
  const line = 'Line of a long manifest: 12 pieces, 340 kg, ref PA-2026-0901.\r\n';
  return head + line.repeat(Math.ceil((bytes - head.length) / line.length));
}

function rawPart(mail: string): Record<string, unknown> {
  return { raw: Buffer.from(mail).toString('base64'), mediaType: 'message/rfc822', filename: 'big.eml' };
}

describe('A2A body limit', () => {
  let dir: string;
  let composition: Composition;
  let url: string;
  let token: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lt-server-'));
    composition = await compose(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dir,
        LOG_LEVEL: 'error',
        MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES),
        MAX_TEXT_CHARS: String(MAX_MESSAGE_BYTES),
      }),
      { announce: () => {} },
    );
    url = (await composition.server.listen(0, '127.0.0.1')).localUrl;
    token = readFileSync(join(dir, DEMO_TOKEN_FILE), 'utf8').trim();
  });
  afterAll(async () => {
    await composition.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = (): Record<string, string> => ({
    'content-type': 'application/json',
    'a2a-version': '1.0',
    authorization: `Bearer ${token}`,
  });

  it('takes a 1.5 MB message over JSON-RPC and over REST (past the SDK parsers’ own 1 MB and 100 KB caps)', async () => {
    const message = { messageId: 'big-1', role: 'ROLE_USER', parts: [rawPart(bigMail(1_500_000))] };
    const rpc = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }),
    });
    expect(rpc.status).toBe(200);
    const rpcBody = (await rpc.json()) as { result?: { task?: { status?: { state?: string } } } };
    expect(rpcBody.result?.task?.status?.state).toMatch(/TASK_STATE_(COMPLETED|INPUT_REQUIRED)/);
    const rest = await fetch(`${url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ message: { ...message, messageId: 'big-2' } }),
    });
    expect(rest.status).toBe(200);
    const restBody = (await rest.json()) as { task?: { status?: { state?: string } } };
    expect(restBody.task?.status?.state).toMatch(/TASK_STATE_(COMPLETED|INPUT_REQUIRED)/);
  });

  it("refuses a body past the limit with JSON-RPC -32600 (issue 16: the transport's own shape), and without a token with 401 first", async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'SendMessage',
      params: {
        message: { messageId: 'huge', role: 'ROLE_USER', parts: [rawPart(bigMail(MAX_MESSAGE_BYTES * 2))] },
      },
    });
    const anonymous = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body,
    });
    expect(anonymous.status).toBe(401);
    const tooBig = await fetch(`${url}/a2a/jsonrpc`, { method: 'POST', headers: headers(), body });
    expect(tooBig.status).toBe(200); // the SDK's JSON-RPC convention for a caller's mistake
    const answer = (await tooBig.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toContain('MAX_MESSAGE_BYTES');
  });
});

describe('tasks the server answered for', () => {
  it('are all in the database after the process is killed (SIGKILL) right after answering', async () => {
    const host = await startChild({ LOG_LEVEL: 'error' });
    try {
      const { url, dataDir: dir, token } = host;
      expect(token).not.toBeNull();
      const answered: { id: string; state: string }[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = 0; i < 15; i++) {
            const mail = `From: ops${lane}-${i}@origin.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert ${lane}-${i}\r\nMessage-ID: <kill-${lane}-${i}@origin.example>\r\n\r\nShipment.\r\n`;
            const res = await fetch(`${url}/a2a/jsonrpc`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'a2a-version': '1.0',
                authorization: `Bearer ${token!}`,
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: i,
                method: 'SendMessage',
                params: {
                  message: { messageId: `kill-${lane}-${i}`, role: 'ROLE_USER', parts: [rawPart(mail)] },
                },
              }),
            });
            const body = (await res.json()) as {
              result: { task: { id: string; status: { state: string } } };
            };
            answered.push({ id: body.result.task.id, state: body.result.task.status.state });
          }
        }),
      );
      await host.crash();
      const db = await openDatabase({ file: join(dir, DATABASE_FILE) });
      const rows = (await db.selectFrom('tasks').select(['id', 'status_state']).execute()) as {
        id: string;
        status_state: string;
      }[];
      const stored = new Map(rows.map((r) => [r.id, r.status_state]));
      await db.destroy();
      expect(answered).toHaveLength(60);
      for (const a of answered) expect(stored.get(a.id)).toBe(a.state);
    } finally {
      await host.close();
    }
  });
});

describe('regex analyses the server keeps (issue 3: compile time)', () => {
  async function triageOne(url: string, token: string, n: number): Promise<string> {
    const mail = `From: ops@northgatemotors.example\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert NGM-PO-1234${n}\r\nMessage-ID: <keep-${n}@northgatemotors.example>\r\n\r\nShipment.\r\n`;
    const res = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'SendMessage',
        params: { message: { messageId: `keep-${n}`, role: 'ROLE_USER', parts: [rawPart(mail)] } },
      }),
    });
    const body = (await res.json()) as { result: { task: { status: { state: string } } } };
    return body.result.task.status.state;
  }

  it('are written by the first compile and read by the next process, which analyses only a damaged row again', async () => {
    const first = await startChild({ LOG_LEVEL: 'error' });
    let second: Awaited<ReturnType<typeof startChild>> | null = null;
    try {
      const state = await triageOne(first.url, first.token!, 1);
      await first.crash();
      const file = join(first.dataDir, DATABASE_FILE);
      let db = await openDatabase({ file });
      const rows = (await db
        .selectFrom('mark_analyses')
        .select(['tenant', 'analyser', 'source', 'analysis'])
        .execute()) as { tenant: string; analyser: string; source: string; analysis: string }[];
      // The demo directory's regex marks, and no plain literal (those need no analysis).
      expect(rows.map((r) => r.source)).toContain('NGM-PO-\\d{5}');
      expect(rows.map((r) => r.source)).not.toContain('Gulftrade');
      expect(new Set(rows.map((r) => `${r.tenant} ${r.analyser}`))).toEqual(
        new Set([`demo ${ANALYSER_VERSION}`]),
      );
      const kept = rows.find((r) => r.source === 'NGM-PO-\\d{5}')!.analysis;
      // Damage one row, and count what the next process writes.
      await sql`update mark_analyses set analysis = '[' where source = ${'NGM-PO-\\d{5}'}`.execute(db);
      await sql`create table written (source text)`.execute(db);
      await sql`create trigger count_insert after insert on mark_analyses begin insert into written values (new.source); end`.execute(
        db,
      );
      await sql`create trigger count_update after update on mark_analyses begin insert into written values (new.source); end`.execute(
        db,
      );
      await db.destroy();

      second = await startChild({ LOG_LEVEL: 'error', DATA_DIR: first.dataDir });
      expect(await triageOne(second.url, first.token!, 2)).toBe(state);
      await second.crash();
      db = await openDatabase({ file });
      const written = (await sql<{ source: string }>`select source from written`.execute(db)).rows;
      const repaired = (await db
        .selectFrom('mark_analyses')
        .select('analysis')
        .where('source', '=', 'NGM-PO-\\d{5}')
        .executeTakeFirst()) as { analysis: string };
      await db.destroy();
      expect(written.map((w) => w.source)).toEqual(['NGM-PO-\\d{5}']);
      expect(repaired.analysis).toBe(kept);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
