/**
 * Mailgun routes (forward to URL) → raw RFC 822, after verifying the signature: `signature` is the
 * hex HMAC-SHA256 of `timestamp` + `token` under the webhook signing key, sent in the body (not a header).
 * A URL ending in `mime` gets `body-mime` (the raw message); otherwise the message is rebuilt from
 * `message-headers` (JSON pairs), `body-plain`, `body-html` and `attachment-N` files.
 * https://documentation.mailgun.com/docs/mailgun/user-manual/receive-forward-store/receive-http
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { composeRaw } from './compose.ts';
import type { FormBody } from './form.ts';
import { WebhookRefusal } from './refusal.ts';

export interface MailgunVerification {
  readonly signingKey: string;
  /** Oldest accepted `timestamp`, seconds before now. */
  readonly maxAgeSeconds: number;
  readonly nowMs: number;
}

export function verifyMailgun(form: FormBody, v: MailgunVerification): void {
  const timestamp = form.fields.get('timestamp');
  const token = form.fields.get('token');
  const signature = form.fields.get('signature');
  if (timestamp === undefined || token === undefined || signature === undefined) {
    throw new WebhookRefusal(
      'forged',
      'UNAUTHENTICATED',
      'The Mailgun signature fields timestamp, token and signature are missing: this request is not from Mailgun.',
    );
  }
  const expected = createHmac('sha256', v.signingKey)
    .update(timestamp + token)
    .digest();
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookRefusal(
      'forged',
      'UNAUTHENTICATED',
      'The Mailgun signature does not match timestamp+token under the configured signing key. Check that the endpoint is configured with the HTTP webhook signing key of this Mailgun domain.',
    );
  }
  const ageSeconds = v.nowMs / 1000 - Number(timestamp);
  if (!Number.isFinite(ageSeconds) || Math.abs(ageSeconds) > v.maxAgeSeconds) {
    throw new WebhookRefusal(
      'forged',
      'UNAUTHENTICATED',
      `The Mailgun timestamp ${timestamp} is more than ${v.maxAgeSeconds} s from now: a replayed request, or a clock that is off.`,
    );
  }
}

export async function mailgunToRaw(form: FormBody): Promise<Buffer> {
  const mime = form.fields.get('body-mime') ?? form.files.find((f) => f.field === 'body-mime')?.content;
  if (mime !== undefined && mime.length > 0)
    return typeof mime === 'string' ? Buffer.from(mime, 'utf8') : mime;

  let headers: [string, string][] = [];
  const rawHeaders = form.fields.get('message-headers');
  if (rawHeaders !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawHeaders);
      if (!Array.isArray(parsed)) throw new Error('not an array');
      headers = parsed
        .filter(
          (h): h is [string, string] =>
            Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string',
        )
        .map(([n, v]) => [n, v]);
    } catch (e) {
      throw new WebhookRefusal(
        'malformed',
        'REQUEST_MALFORMED',
        `The Mailgun field message-headers is not a JSON list of [name, value] pairs (${(e as Error).message}).`,
      );
    }
  }
  const from = form.fields.get('from') ?? form.fields.get('sender');
  if (from === undefined && headers.length === 0) {
    throw new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      'This Mailgun post has neither body-mime nor from/message-headers: there is no message in it.',
    );
  }
  return composeRaw({
    provider: 'mailgun',
    headers,
    from,
    to: form.fields.get('To') ?? form.fields.get('recipient'),
    subject: form.fields.get('subject'),
    text: form.fields.get('body-plain'),
    html: form.fields.get('body-html'),
    attachments: form.files
      .filter((f) => /^attachment-\d+$/.test(f.field))
      .map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
  });
}
