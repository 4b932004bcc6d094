/**
 * What the §14 erase e2e tests search a data directory with: every file under it (the database, its
 * WAL and SHM included), for an identifier as typed, upper-cased, in UTF-16 and in base64 at each
 * of the three alignments; and the pre-alert mail that carries the identifier in every place a
 * mail can (From, Message-ID, body, a base64 attachment), sent by each A2A part and as a signed
 * Mailgun form.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { send } from './sdk-client.ts';

/** A pre-alert from the identifier, naming it in the body and in a base64-encoded attachment. */
export function eml(n: number, ID: string): string {
  const note = Buffer.from(`Questions to ${ID}, please.\r\n`).toString('base64');
  return [
    `From: Origin Billing <${ID}>`,
    'To: imports@warehouse.example',
    `Subject: Pre-alert PA-${n}`,
    // A Message-ID holding the address, as many mailers write them: it reaches the ingest ledger.
    `Message-ID: <2026120100${n}.${ID}>`,
    'Date: Tue, 01 Dec 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `HAWB 176-1234567${n}. Reply to ${ID}.`,
    '--b1',
    'Content-Type: text/plain; name="note.txt"',
    'Content-Disposition: attachment; filename="note.txt"',
    'Content-Transfer-Encoding: base64',
    '',
    note,
    '--b1--',
    '',
  ].join('\r\n');
}

/** Every way the identifier can sit in a file: as typed, lower- and upper-cased, base64 at the three alignments. */
export function forms(id: string): { name: string; bytes: Buffer }[] {
  const out = [
    { name: 'plain', bytes: Buffer.from(id) },
    { name: 'upper', bytes: Buffer.from(id.toUpperCase()) },
    { name: 'utf-16le', bytes: Buffer.from(id, 'utf16le') },
  ];
  for (let shift = 0; shift < 3; shift++) {
    // Encode with `shift` bytes before it and keep the characters its own bytes alone decide.
    const b64 = Buffer.concat([Buffer.alloc(shift, 0x41), Buffer.from(id)]).toString('base64');
    const from = Math.ceil((shift * 8) / 6);
    const to = Math.floor(((shift + id.length) * 8) / 6);
    out.push({ name: `base64+${shift}`, bytes: Buffer.from(b64.slice(from, to)) });
  }
  return out;
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export function count(haystack: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

export function hitsIn(dir: string, id: string): string[] {
  const hits: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    for (const f of forms(id)) {
      const n = count(bytes, f.bytes);
      if (n > 0) hits.push(`${file.slice(dir.length + 1)}: ${n}× ${f.name}`);
    }
  }
  return hits;
}

/** Mails 1, 2 and 3 by A2A: as a file part, a text part and a data part; returns the file part's task. */
export async function sendByEveryPart(
  client: Client,
  opts: object,
  id: string,
  mail: (n: number) => string,
): Promise<Task> {
  const byFile = await send(client, opts, {
    parts: [
      { raw: Buffer.from(mail(1)).toString('base64'), mediaType: 'message/rfc822', filename: 'pa1.eml' },
    ],
  });
  await send(client, opts, { parts: [{ text: mail(2) }] });
  await send(client, opts, {
    parts: [{ data: { from: `Origin Billing <${id}>`, subject: 'Pre-alert PA-3', body: `Reply to ${id}.` } }],
  });
  return byFile;
}

/** A Mailgun form post of `raw`, signed now with `signingKey` (a fresh token). */
export function signedMailgunForm(raw: string, signingKey: string): string {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = randomBytes(16).toString('hex');
  const signature = createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest('hex');
  return new URLSearchParams({ 'body-mime': raw, timestamp, token, signature }).toString();
}
