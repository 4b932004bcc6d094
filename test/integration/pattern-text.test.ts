// Invariant: over HTTP, a pattern holding an invisible or bidirectional control character, or a
// word mixing look-alike scripts, is refused (422 LESSON_REFUSED) with a reason naming the code
// point and its position, and nothing is stored; a pattern and mail are matched in NFC, so a mark
// typed with a decomposed é reads mail sent with a composed one (§10.1, §13.1).
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { startInProcess, type Host } from '../e2e/host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});

async function call(
  host: Host,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${host.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function lesson(host: Host, pattern: string): Promise<{ status: number; body: any }> {
  // The demo token is an application's: it writes for the person it names (§9, §13.2).
  return call(host, 'POST', '/authority/v1/lessons', {
    collection: 'customers',
    entry: 'northgate',
    value: { pattern, where: 'body' },
    taughtBy: 'dana@warehouse.example',
    reason: 'pattern text test',
  });
}

describe('pattern text over HTTP (§10.1, §13.1)', () => {
  it('refuses a zero-width space, a right-to-left override and a Cyrillic look-alike with 422, naming each, and stores nothing', async () => {
    const host = await startInProcess();
    hosts.push(host);
    const before = (await call(host, 'GET', '/authority/v1/head')).body;
    const cases: [string, RegExp][] = [
      ['Northgate\u200b Motors', /U\+200B ZERO WIDTH SPACE, at position 10/],
      [
        'Northgate \u202eMotors',
        /bidirectional control character, U\+202E RIGHT-TO-LEFT OVERRIDE, at position 11/,
      ],
      [
        'Northgate D\u0435sk',
        /"D\u0435sk" mixes scripts: "\u0435" at position 12 is U\+0435, a Cyrillic letter among Latin ones/,
      ],
    ];
    for (const [pattern, reason] of cases) {
      const res = await lesson(host, pattern);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('LESSON_REFUSED');
      expect(res.body.error.message).toMatch(reason);
    }
    expect((await call(host, 'GET', '/authority/v1/head')).body).toEqual(before);
  });

  it('reads mail with a composed é and mail with a decomposed one under a mark taught decomposed', async () => {
    const host = await startInProcess();
    hosts.push(host);
    const taught = await lesson(host, 'Soci\u0065\u0301t\u0065\u0301 G\u0065\u0301ne\u0301rale Transit');
    expect(taught.status).toBe(200);
    expect(taught.body.learned).toBe(true);
    for (const consignee of [
      'Soci\u00e9t\u00e9 G\u00e9n\u00e9rale Transit', // composed: the pattern had to be put in NFC
      'Soci\u0065\u0301t\u0065\u0301 G\u0065\u0301ne\u0301rale Transit', // decomposed: so had the mail
    ]) {
      const mail = [
        'From: someone@unknown-sender.example',
        'To: imports@warehouse.example',
        'Subject: Pre-alert PA-2026-0955',
        `Message-ID: <${randomUUID()}@unknown-sender.example>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Consignee: ${consignee}, Dubai.`,
        '',
      ].join('\r\n');
      const res = await fetch(`${host.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          'a2a-extensions': EXTENSION_URI,
          authorization: `Bearer ${host.token!}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: randomUUID(),
              role: 'ROLE_USER',
              parts: [
                { raw: Buffer.from(mail).toString('base64'), mediaType: 'message/rfc822', filename: 'm.eml' },
              ],
            },
          },
        }),
      });
      const task = ((await res.json()) as any).result.task;
      const report = task.artifacts[0].parts.find((p: any) => p.data).data;
      expect(report.customer.winner).toBe('northgate');
      expect(report.customer.settled).toBe(true);
    }
  });
});
