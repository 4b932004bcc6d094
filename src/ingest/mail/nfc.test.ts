// Invariant: every MailMessage the ingest builds holds its text in Unicode NFC, whichever way it
// arrived (raw RFC 822 or a data part), so it compares with NFC patterns as a person sees it.
import { describe, expect, it } from 'vitest';
import { messageFromFields } from './from-fields.ts';
import { parseMail } from './parse.ts';

const decomposed = 'Soci\u0065\u0301t\u0065\u0301 G\u0065\u0301ne\u0301rale';
const composed = 'Soci\u00e9t\u00e9 G\u00e9n\u00e9rale';

describe('mail text in NFC', () => {
  it('parseMail puts subject, body, display names and attachment text in NFC; the hash is of the bytes as sent', async () => {
    const raw = [
      `From: ${decomposed} <billing@sg.example>`,
      'To: imports@warehouse.example',
      `Subject: Pre-alert ${decomposed}`,
      'Message-ID: <nfc-1@sg.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Shipment for ${decomposed}.`,
      '--b',
      'Content-Type: text/csv; charset=utf-8; name="m.csv"',
      'Content-Disposition: attachment; filename="m.csv"',
      '',
      `consignee,ref\r\n${decomposed},PA-1`,
      '--b--',
      '',
    ].join('\r\n');
    const m = await parseMail(Buffer.from(raw, 'utf8'));
    expect(m.subject).toBe(`Pre-alert ${composed}`);
    expect(m.body).toContain(composed);
    expect(m.from?.name).toBe(composed);
    expect(m.attachments[0]?.text).toContain(composed);
    expect(m.attachments[0]?.table?.rows[0]?.[0]).toBe(composed);
    expect(JSON.stringify(m)).not.toContain('\u0301');
    expect(m.messageId).toBe('nfc-1@sg.example');
  });

  it('messageFromFields does the same for a data part', () => {
    const m = messageFromFields({
      from: `${decomposed} <billing@sg.example>`,
      subject: decomposed,
      body: `For ${decomposed}`,
      attachments: [{ filename: `${decomposed}.txt`, contentType: 'text/plain', text: decomposed }],
    });
    expect(m.subject).toBe(composed);
    expect(m.body).toBe(`For ${composed}`);
    expect(m.from?.name).toBe(composed);
    expect(m.attachments[0]?.filename).toBe(`${composed}.txt`);
    expect(m.attachments[0]?.text).toBe(composed);
  });
});
