/**
 * Rebuilds a raw RFC 822 message from a provider's parsed fields (Postmark without RawEmail, Mailgun's
 * parsed routes, SendGrid's parsed mode), so every webhook goes through the same parseMail as IMAP and
 * `message/rfc822` posts: one path. Built with nodemailer's MailComposer.
 *
 * The build is deterministic (boundary and, when the sender gave none, the Message-ID derive from the
 * payload), so a retried webhook yields the same message and the same dedupe key.
 * Deliberately not here: reading HTTP, verifying signatures, choosing status codes.
 */
import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';

export interface ComposedAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  readonly contentId?: string;
}

export interface ComposedMail {
  /** The original header lines, in order (name, value); structural MIME headers are dropped. */
  readonly headers: readonly (readonly [string, string])[];
  /** Used when the headers carry no such field. */
  readonly from?: string;
  readonly to?: string;
  readonly cc?: string;
  readonly subject?: string;
  readonly date?: string;
  readonly text?: string;
  readonly html?: string;
  readonly attachments: readonly ComposedAttachment[];
  /** Names the provider in a synthesised Message-ID (`<sha256@provider.inbound.invalid>`). */
  readonly provider: string;
}

/** Headers the composer writes itself from the parts. */
const STRUCTURAL = new Set([
  'content-type',
  'content-transfer-encoding',
  'mime-version',
  'content-disposition',
]);
/** Headers the composer sets from named options (so they are encoded once, correctly). */
const NAMED: Readonly<Record<string, keyof Mail.Options>> = {
  from: 'from',
  to: 'to',
  cc: 'cc',
  'reply-to': 'replyTo',
  subject: 'subject',
  'message-id': 'messageId',
  date: 'date',
  'in-reply-to': 'inReplyTo',
  references: 'references',
  sender: 'sender',
};

export async function composeRaw(mail: ComposedMail): Promise<Buffer> {
  const fingerprint = createHash('sha256');
  const feed = (s: string | Buffer | undefined): void => {
    fingerprint.update(s ?? '');
    fingerprint.update('\0');
  };
  for (const [n, v] of mail.headers) {
    feed(n);
    feed(v);
  }
  for (const s of [mail.from, mail.to, mail.cc, mail.subject, mail.date, mail.text, mail.html]) feed(s);
  for (const a of mail.attachments) {
    feed(a.filename);
    feed(a.contentType);
    feed(a.content);
  }
  const digest = fingerprint.digest('hex');

  const named: Record<string, string> = {};
  const custom: { key: string; value: string }[] = [];
  for (const [name, value] of mail.headers) {
    const lower = name.toLowerCase();
    if (STRUCTURAL.has(lower)) continue;
    const option = NAMED[lower];
    if (option !== undefined) {
      if (named[option] === undefined) named[option] = value;
    } else {
      custom.push({ key: name, value });
    }
  }

  const options: Mail.Options & { baseBoundary: string } = {
    headers: custom,
    from: named.from ?? mail.from,
    sender: named.sender,
    to: named.to ?? mail.to,
    cc: named.cc ?? mail.cc,
    replyTo: named.replyTo,
    subject: named.subject ?? mail.subject ?? '',
    messageId: named.messageId ?? `<${digest}@${mail.provider}.inbound.invalid>`,
    date: named.date ?? mail.date,
    inReplyTo: named.inReplyTo,
    references: named.references,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      ...(a.contentId === undefined ? {} : { cid: a.contentId.replace(/^<|>$/g, '') }),
    })),
    baseBoundary: digest.slice(0, 16),
  };
  // Dropping undefined keys: MailComposer treats a present-but-undefined key as set.
  for (const k of Object.keys(options) as (keyof typeof options)[])
    if (options[k] === undefined) delete options[k];
  if (options.date === undefined) options.date = new Date(0); // deterministic; a message without Date is rare
  return new MailComposer(options).compile().build();
}

/** Splits a raw header block ("Name: value\r\n continued\r\n…") into (name, unfolded value) pairs. */
export function parseHeaderBlock(block: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of block.replace(/\r\n/g, '\n').split('\n')) {
    if (line === '') continue;
    if (/^[ \t]/.test(line) && out.length > 0) {
      const last = out[out.length - 1]!;
      last[1] = `${last[1]} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return out;
}
