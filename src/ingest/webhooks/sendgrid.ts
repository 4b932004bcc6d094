/**
 * SendGrid Inbound Parse (multipart/form-data) → raw RFC 822. In raw mode ("POST the raw, full MIME
 * message") the `email` field is the message; in parsed mode it is rebuilt from `headers` (the raw header
 * block), `text`, `html` and the attachment files described by `attachment-info`.
 * https://www.twilio.com/docs/sendgrid/for-developers/parsing-email/setting-up-the-inbound-parse-webhook
 */
import { composeRaw, parseHeaderBlock } from './compose.ts';
import type { FormBody } from './form.ts';
import { WebhookRefusal } from './refusal.ts';

export async function sendgridToRaw(form: FormBody): Promise<Buffer> {
  const email = form.fields.get('email') ?? form.files.find((f) => f.field === 'email')?.content;
  if (email !== undefined && email.length > 0)
    return typeof email === 'string' ? Buffer.from(email, 'utf8') : email;

  const headerBlock = form.fields.get('headers');
  const from = form.fields.get('from');
  if (headerBlock === undefined && from === undefined) {
    throw new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      'This SendGrid Inbound Parse post has neither an email field (raw mode) nor headers/from (parsed mode).',
    );
  }
  let info: Record<string, { filename?: string; name?: string; type?: string; 'content-id'?: string }> = {};
  const rawInfo = form.fields.get('attachment-info');
  if (rawInfo !== undefined) {
    try {
      info = JSON.parse(rawInfo) as typeof info;
    } catch {
      throw new WebhookRefusal(
        'malformed',
        'REQUEST_MALFORMED',
        'The SendGrid field attachment-info is not JSON.',
      );
    }
  }
  return composeRaw({
    provider: 'sendgrid',
    headers: headerBlock === undefined ? [] : parseHeaderBlock(headerBlock),
    from,
    to: form.fields.get('to'),
    cc: form.fields.get('cc'),
    subject: form.fields.get('subject'),
    text: form.fields.get('text'),
    html: form.fields.get('html'),
    attachments: form.files
      .filter((f) => /^attachment\d+$/.test(f.field))
      .map((f) => {
        const meta = info[f.field] ?? {};
        const contentId = meta['content-id'];
        return {
          filename: meta.filename ?? meta.name ?? f.filename,
          contentType: meta.type ?? f.contentType,
          content: f.content,
          ...(contentId === undefined ? {} : { contentId }),
        };
      }),
  });
}
