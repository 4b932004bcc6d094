/**
 * Postmark inbound webhook (JSON) → raw RFC 822. With "Include raw email content" switched on, Postmark
 * sends `RawEmail` and it is used as is; otherwise the message is rebuilt from `Headers[]`, the address
 * fields, `TextBody`, `HtmlBody` and `Attachments[]` (base64 `Content`).
 * https://postmarkapp.com/developer/webhooks/inbound-webhook
 */
import { z } from 'zod';
import { composeRaw } from './compose.ts';
import { WebhookRefusal } from './refusal.ts';

const PostmarkInbound = z.object({
  From: z.string().optional(),
  FromName: z.string().optional(),
  FromFull: z.object({ Email: z.string(), Name: z.string().optional() }).optional(),
  To: z.string().optional(),
  Cc: z.string().optional(),
  Subject: z.string().optional(),
  Date: z.string().optional(),
  MessageID: z.string().optional(),
  TextBody: z.string().optional(),
  HtmlBody: z.string().optional(),
  Headers: z.array(z.object({ Name: z.string(), Value: z.string() })).default([]),
  Attachments: z
    .array(
      z.object({
        Name: z.string(),
        // Decoded leniently (line breaks, missing padding): refusing would lose the mail for good (403).
        Content: z.string().regex(/^[A-Za-z0-9+/=\s]*$/, 'must be base64'),
        ContentType: z.string().default('application/octet-stream'),
        ContentID: z.string().optional(),
      }),
    )
    .default([]),
  RawEmail: z.string().optional(),
});

export async function postmarkToRaw(body: unknown): Promise<Buffer> {
  const parsed = PostmarkInbound.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    throw new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      `This is not a Postmark inbound payload (${where}). Point a Postmark inbound stream's webhook here.`,
    );
  }
  const p = parsed.data;
  if (p.RawEmail !== undefined && p.RawEmail.trim() !== '') return Buffer.from(p.RawEmail, 'utf8');
  if (p.From === undefined && p.FromFull === undefined && p.Headers.length === 0) {
    throw new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      'This Postmark payload has no From, FromFull, Headers or RawEmail: there is no message in it.',
    );
  }
  const from =
    p.FromFull !== undefined
      ? p.FromFull.Name
        ? `"${p.FromFull.Name.replace(/["\\]/g, '')}" <${p.FromFull.Email}>`
        : p.FromFull.Email
      : p.From;
  const headers = p.Headers.map((h) => [h.Name, h.Value] as const);
  const hasMessageId = headers.some(([n]) => n.toLowerCase() === 'message-id');
  return composeRaw({
    provider: 'postmark',
    // Postmark's MessageID is its own id, stable across its retries: a Message-ID for mail that had none.
    headers:
      hasMessageId || p.MessageID === undefined
        ? headers
        : [...headers, ['Message-ID', `<${p.MessageID}@postmark.inbound.invalid>`] as const],
    from,
    to: p.To,
    cc: p.Cc,
    subject: p.Subject,
    date: p.Date,
    text: p.TextBody,
    html: p.HtmlBody,
    attachments: p.Attachments.map((a) => ({
      filename: a.Name,
      contentType: a.ContentType,
      content: Buffer.from(a.Content, 'base64'),
      ...(a.ContentID === undefined || a.ContentID === '' ? {} : { contentId: a.ContentID }),
    })),
  });
}
