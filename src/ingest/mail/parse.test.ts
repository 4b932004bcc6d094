// parseMail turns raw RFC 822 into the one normalised MailMessage: addresses, ids, dates, text, attachments, manifests and flags.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../domain/errors.ts';
import { parseMail } from './parse.ts';

const crlf = (lines: string[]): string => lines.join('\r\n');

describe('parseMail', () => {
  it('reads sender, recipients, subject, Message-ID without brackets, date and body', async () => {
    const raw = crlf([
      'From: "Whitfield, James" <J.Whitfield@NorthgateMotors.example>',
      'Reply-To: Logistics <logistics@northgatemotors.example>',
      'To: imports@warehouse.example, Team: a@warehouse.example, b@warehouse.example;',
      'Cc: Dana <dana@warehouse.example>',
      'Subject: =?utf-8?Q?Pre-alert_=E2=80=93_NGM-PO-48213?=',
      'Message-ID: <abc.123@northgatemotors.example>',
      'Date: Mon, 02 Mar 2026 09:14:00 +0100 (CET)',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Hello,\r\nthree pallets.',
      '',
    ]);
    const m = await parseMail(raw);
    expect(m.from).toEqual({ address: 'j.whitfield@northgatemotors.example', name: 'Whitfield, James' });
    expect(m.replyTo).toEqual([{ address: 'logistics@northgatemotors.example', name: 'Logistics' }]);
    expect(m.to.map((a) => a.address)).toEqual([
      'imports@warehouse.example',
      'a@warehouse.example',
      'b@warehouse.example',
    ]);
    expect(m.cc).toEqual([{ address: 'dana@warehouse.example', name: 'Dana' }]);
    expect(m.subject).toBe('Pre-alert – NGM-PO-48213');
    expect(m.messageId).toBe('abc.123@northgatemotors.example');
    expect(m.date).toBe('2026-03-02T08:14:00.000Z');
    expect(m.body).toBe('Hello,\nthree pallets.');
    expect(m.isReply).toBe(false);
    expect(m.isForward).toBe(false);
    expect(m.isAutomated).toBe(false);
  });

  it('hashes the raw bytes (sha256 hex)', async () => {
    const raw = Buffer.from('From: a@b.example\r\nSubject: x\r\n\r\nbody\r\n');
    expect((await parseMail(raw)).contentHash).toBe(createHash('sha256').update(raw).digest('hex'));
  });

  it('gives null for a missing or unreadable date and a missing Message-ID (never "now")', async () => {
    const m = await parseMail('From: a@b.example\r\nDate: Febtember 31st\r\n\r\nx');
    expect(m.date).toBeNull();
    expect(m.messageId).toBeNull();
    expect((await parseMail('From: a@b.example\r\n\r\nx')).date).toBeNull();
  });

  it('converts an HTML-only body to text without wrapping lines and keeps table cells apart', async () => {
    const long = 'Northgate Motors Ltd '.repeat(10).trim();
    const m = await parseMail(
      crlf([
        'From: a@b.example',
        'Content-Type: text/html; charset=utf-8',
        '',
        `<p>${long}</p><table><tr><td>AWB</td><td>176-44021865</td></tr></table><img src="cid:x">`,
      ]),
    );
    expect(m.body).toContain(long);
    expect(m.body).toMatch(/AWB\s+176-44021865/);
  });

  it('prefers the text part of a multipart/alternative', async () => {
    const m = await parseMail(
      crlf([
        'From: a@b.example',
        'Content-Type: multipart/alternative; boundary="x"',
        '',
        '--x',
        'Content-Type: text/plain',
        '',
        'plain version',
        '--x',
        'Content-Type: text/html',
        '',
        '<p>html version</p>',
        '--x--',
      ]),
    );
    expect(m.body).toBe('plain version');
  });

  it('reads text-like attachments in their charset, parses CSV manifests, and keeps binary ones without text', async () => {
    const csv = Buffer.from('AWB;Ref\r\n123;Caf\xe9\r\n', 'latin1').toString('base64');
    const m = await parseMail(
      crlf([
        'From: a@b.example',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'see attached',
        '--b',
        'Content-Type: text/csv; charset=iso-8859-1; name="m.csv"',
        'Content-Disposition: attachment; filename="m.csv"',
        'Content-Transfer-Encoding: base64',
        '',
        csv,
        '--b',
        'Content-Type: application/json; name="d.json"',
        'Content-Disposition: attachment; filename="d.json"',
        '',
        '{"awb":"176-1"}',
        '--b',
        'Content-Type: application/pdf; name="POD.pdf"',
        'Content-Disposition: attachment; filename="POD.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF-1.4 binary').toString('base64'),
        '--b--',
      ]),
    );
    expect(m.attachments).toEqual([
      {
        filename: 'm.csv',
        contentType: 'text/csv',
        sizeBytes: 19,
        text: 'AWB;Ref\n123;Café\n',
        table: { headings: ['AWB', 'Ref'], rows: [['123', 'Café']] },
      },
      {
        filename: 'd.json',
        contentType: 'application/json',
        sizeBytes: 15,
        text: '{"awb":"176-1"}',
        table: null,
      },
      // a PDF is now opened (attachments/): these bytes are no PDF, so it is kept by name with a note
      {
        filename: 'POD.pdf',
        contentType: 'application/pdf',
        sizeBytes: 15,
        text: null,
        table: null,
        note: 'The PDF POD.pdf cannot be read (it is not a valid PDF); its text was not read.',
      },
    ]);
  });

  it('keeps an attached message as one attachment named after its subject, with its text, followed by its own attachments', async () => {
    const inner = crlf([
      'From: Export <export@kansai.example>',
      'Subject: Pre-alert NGM-PO-48355',
      'Content-Type: multipart/mixed; boundary="i"',
      '',
      '--i',
      'Content-Type: text/plain',
      '',
      'inner body',
      '--i',
      'Content-Type: text/csv; name="manifest.csv"',
      'Content-Disposition: attachment; filename="manifest.csv"',
      '',
      'AWB,Pieces',
      '160-1,3',
      '--i--',
    ]);
    const m = await parseMail(
      crlf([
        'From: a@b.example',
        'Subject: FW: see attached',
        'Content-Type: multipart/mixed; boundary="o"',
        '',
        '--o',
        'Content-Type: text/plain',
        '',
        'outer',
        '--o',
        'Content-Type: message/rfc822',
        '',
        inner,
        '--o--',
      ]),
    );
    expect(m.body).toBe('outer');
    expect(m.attachments.map((a) => a.filename)).toEqual(['Pre-alert NGM-PO-48355.eml', 'manifest.csv']);
    expect(m.attachments[0]!.text).toContain('From: Export <export@kansai.example>');
    expect(m.attachments[0]!.text).toContain('inner body');
    expect(m.attachments[1]!.table).toEqual({ headings: ['AWB', 'Pieces'], rows: [['160-1', '3']] });
    expect(m.isForward).toBe(true);
  });

  it('flags replies by In-Reply-To or References', async () => {
    expect((await parseMail('From: a@b.example\r\nIn-Reply-To: <x@y>\r\n\r\nx')).isReply).toBe(true);
    expect((await parseMail('From: a@b.example\r\nReferences: <x@y> <z@y>\r\n\r\nx')).isReply).toBe(true);
  });

  it('flags forwards by subject prefix or forwarded block', async () => {
    expect((await parseMail('From: a@b.example\r\nSubject: WG: Voravis\r\n\r\nx')).isForward).toBe(true);
    expect(
      (
        await parseMail(
          'From: a@b.example\r\nSubject: x\r\n\r\nhi\r\n\r\nBegin forwarded message:\r\n\r\nFrom: c',
        )
      ).isForward,
    ).toBe(true);
  });

  it('flags machine-sent mail', async () => {
    expect((await parseMail('From: noreply@portal.example\r\n\r\nx')).isAutomated).toBe(true);
    expect((await parseMail('From: a@b.example\r\nAuto-Submitted: auto-replied\r\n\r\nx')).isAutomated).toBe(
      true,
    );
    expect((await parseMail('From: a@b.example\r\nList-Id: <l.example>\r\n\r\nx')).isAutomated).toBe(true);
    expect((await parseMail('From: a@b.example\r\nAuto-Submitted: no\r\n\r\nx')).isAutomated).toBe(false);
  });

  it('re-reads an 8-bit body and subject with no declared charset as latin1 instead of replacement characters', async () => {
    const m = await parseMail(
      Buffer.from('From: a@b.example\r\nSubject: caf\xe9\r\n\r\nCo\xfbt 5 \x80\r\n', 'latin1'),
    );
    expect(m.subject).toBe('café');
    expect(m.body).toBe('Coût 5 €');
  });

  it('reads text without any header block as the body', async () => {
    const m = await parseMail('AWB 176-44021865, 3 pallets\nthanks');
    expect(m.from).toBeNull();
    expect(m.body).toBe('AWB 176-44021865, 3 pallets\nthanks');
  });

  it('refuses a message over maxMessageBytes before parsing it', async () => {
    const err = await parseMail('From: a@b.example\r\n\r\n' + 'x'.repeat(2000), {
      maxMessageBytes: 1000,
    }).catch((e: unknown) => e);
    expect(isDomainError(err, 'MESSAGE_TOO_LARGE')).toBe(true);
    expect((err as Error).message).toContain('(maxMessageBytes)');
  });
});
