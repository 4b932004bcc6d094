/**
 * A raw RFC 822 mail carrying attachments (base64, with their content types and names), for tests
 * of documents attached to mail: the fixtures in fixtures/attachments/ go in as they would from a
 * mail client. Owns nothing but the MIME framing.
 */
import { readFileSync } from 'node:fs';

export interface Attached {
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** A fixture from fixtures/attachments/, with the content type a mail client would give it. */
export function attachmentFixture(name: string, contentType?: string): Attached {
  const type =
    contentType ??
    (name.endsWith('.pdf')
      ? 'application/pdf'
      : name.endsWith('.xlsx')
        ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
        : 'application/octet-stream');
  const bytes = readFileSync(new URL(`../../fixtures/attachments/${name}`, import.meta.url));
  return { filename: name, contentType: type, bytes };
}

export function mailWith(
  fields: { from: string; subject: string; messageId: string; body: string },
  attachments: readonly Attached[],
): string {
  const boundary = '=_attached_boundary_7f3a';
  const lines = [
    `From: ${fields.from}`,
    'To: imports@warehouse.example',
    `Subject: ${fields.subject}`,
    `Message-ID: <${fields.messageId}>`,
    'Date: Fri, 14 Aug 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    fields.body,
  ];
  for (const a of attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${a.filename}"`,
      '',
      ...(a.bytes.toString('base64').match(/.{1,76}/g) ?? []),
    );
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}
