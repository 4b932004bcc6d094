/**
 * Raw RFC 822 bytes → the one normalised MailMessage the domain reads (src/domain/mail/mail-message.ts).
 * Owns: driving mailparser inside the limits of src/domain/mail/limits.ts, the HTML-to-text fallback,
 * decoding text-like attachments, CSV manifests, opening attached messages to a bounded depth, and
 * the reply / forward / automated flags. A hostile or broken message gives a MailMessage or a
 * DomainError that names what was wrong (never a crash or a hang).
 * Deliberately not here: deciding whose message it is, or anything about lessons.
 */
import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { AddressObject, Attachment, EmailAddress, ParsedMail } from 'mailparser';
import { DomainError, isDomainError } from '../../domain/errors.ts';
import {
  limitExceeded,
  resolveMailLimits,
  messageInNfc,
  withMailText,
  type MailAddress,
  type MailAttachment,
  type MailMessage,
  type MailLimits,
} from '../../domain/mail/index.ts';
import { readDocument } from './attachments/index.ts';
import { decodeText } from './charset.ts';
import { looksLikeCsv, parseCsv } from './csv.ts';
import { htmlToText } from './html-text.ts';
import { isAutomated, isForward } from './signals.ts';
import type { HeaderLookup } from './signals.ts';

/**
 * Reads one raw message. `raw` as a string is taken as UTF-8 text. Limits left out take their defaults.
 * @throws DomainError MESSAGE_TOO_LARGE when a size limit is exceeded, MESSAGE_UNREADABLE when the
 *   bytes cannot be read as a message at all or reading them takes longer than parseTimeoutMs.
 */
export async function parseMail(raw: Buffer | string, limits?: Partial<MailLimits>): Promise<MailMessage> {
  const resolved = resolveMailLimits(limits);
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  if (bytes.length > resolved.maxMessageBytes) {
    throw limitExceeded('maxMessageBytes', bytes.length, resolved.maxMessageBytes);
  }
  const contentHash = createHash('sha256').update(bytes).digest('hex');
  const deadline = Date.now() + resolved.parseTimeoutMs;
  const parsed = await readMessage(normaliseFraming(bytes), resolved, deadline, 0);
  // what a mark matches is what a person saw; its new text split from what it quotes, once, here
  return withMailText(messageInNfc({ contentHash, ...parsed }));
}

type ParsedFields = Omit<MailMessage, 'contentHash'>;

/** A first line that is a header field ("Name: value", RFC 5322 field-name characters), or a Unix mbox "From " line. */
const HEADER_LINE = /^(?:[!-9;-~]+[ \t]*:|From )/;

/**
 * Framing repairs before mailparser sees the bytes (the content hash is of the bytes as received):
 * old Mac mail with bare CR line ends gets CRLF, and text with no header block at all (pasted into a
 * chat) gets an empty one so that it reads as the body instead of as a broken header.
 */
function normaliseFraming(bytes: Buffer): Buffer {
  let out = bytes;
  if (out.indexOf(0x0a) < 0 && out.indexOf(0x0d) >= 0) {
    out = Buffer.from(out.toString('latin1').replace(/\r/g, '\r\n'), 'latin1');
  }
  const firstLine = out.subarray(0, Math.min(out.length, 1000)).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  if (out.length > 0 && !HEADER_LINE.test(firstLine)) out = Buffer.concat([Buffer.from('\r\n'), out]);
  return out;
}

async function readMessage(
  bytes: Buffer,
  limits: MailLimits,
  deadline: number,
  depth: number,
): Promise<ParsedFields> {
  const headerBytes = headerBlockLength(bytes, limits.maxHeaderBytes);
  if (headerBytes > limits.maxHeaderBytes) {
    throw limitExceeded(
      'maxHeaderBytes',
      headerBytes,
      limits.maxHeaderBytes,
      depth === 0 ? undefined : 'an attached message',
    );
  }
  const mail = await parseWithDeadline(bytes, limits, deadline);
  const header = headerLookup(mail);

  const from = firstAddress(mail.from);
  const subject = clean(repairUndeclared(mail.subject ?? '', () => rawHeader(bytes, 'subject')));
  const body = bodyText(mail, limits, () => rawSinglePartBody(bytes, header));

  if (mail.attachments.length > limits.maxAttachments) {
    throw limitExceeded('maxAttachments', mail.attachments.length, limits.maxAttachments);
  }
  const attachments: MailAttachment[] = [];
  for (const attachment of mail.attachments) {
    // an attached message brings its own attachments along; the limit counts them all
    attachments.push(...(await readAttachment(attachment, limits, deadline, depth)));
    if (attachments.length > limits.maxAttachments) {
      throw limitExceeded('maxAttachments', attachments.length, limits.maxAttachments);
    }
  }

  return {
    messageId: messageIdOf(mail.messageId),
    from,
    replyTo: addresses(mail.replyTo),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject,
    date: dateOf(header('date')),
    body,
    attachments,
    isReply: header('in-reply-to') !== undefined || header('references') !== undefined,
    isForward: isForward(subject, body),
    isAutomated: isAutomated(header, from?.address ?? null),
  };
}

/**
 * Length of the header block: up to the first empty line, or the whole input when there is none.
 * Scans at most limit + 4 bytes, so an enormous header costs no more than the limit to detect.
 */
function headerBlockLength(bytes: Buffer, limit: number): number {
  const scan = bytes.subarray(0, Math.min(bytes.length, limit + 4));
  const crlf = scan.indexOf('\r\n\r\n');
  const lf = scan.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  if (ends.length > 0) return Math.min(...ends);
  return bytes.length > scan.length ? scan.length : bytes.length;
}

async function parseWithDeadline(bytes: Buffer, limits: MailLimits, deadline: number): Promise<ParsedMail> {
  const remainingMs = deadline - Date.now();
  if (remainingMs <= 0) throw limitExceeded('parseTimeoutMs', limits.parseTimeoutMs, limits.parseTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(limitExceeded('parseTimeoutMs', limits.parseTimeoutMs, limits.parseTimeoutMs)),
      remainingMs,
    );
  });
  try {
    return await Promise.race([
      simpleParser(bytes, {
        // our own HTML conversion below keeps table cells apart and never wraps lines (a wrapped line
        // would split a name a mark looks for)
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipTextLinks: true,
        skipImageLinks: true,
        // the header bound for every part (mailsplit counts each header line as at least 64 bytes)
        maxHeadSize: limits.maxHeaderBytes,
      } as Parameters<typeof simpleParser>[1]),
      timeout,
    ]);
  } catch (error) {
    if (isDomainError(error)) throw error;
    const e = error as { code?: string; message?: string };
    if (e.code === 'EMAXLEN' && /header/i.test(e.message ?? '')) {
      throw limitExceeded(
        'maxHeaderBytes',
        limits.maxHeaderBytes + 1,
        limits.maxHeaderBytes,
        'a part of the message',
      );
    }
    if (e.code === 'EMAXLEN' && /child nodes/i.test(e.message ?? '')) throw mimeBomb(error);
    throw new DomainError(
      'MESSAGE_UNREADABLE',
      `This message cannot be read as e-mail (${e.message ?? String(error)}). Send it again as a complete RFC 822 message (.eml).`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The most MIME parts mailparser's splitter opens in one message (mailsplit's MAX_CHILD_NODES). */
const MAX_MIME_PARTS = 1000;

/**
 * A message of more MIME parts than the parser opens, nested or side by side: a broken generator or
 * a nesting bomb built to exhaust readers. Sending it again cannot help, so the advice is the sender's.
 */
function mimeBomb(cause: unknown): DomainError {
  return new DomainError(
    'MESSAGE_UNREADABLE',
    `This message has more than ${MAX_MIME_PARTS.toLocaleString('en-US')} MIME parts, nested inside each other or side by side; the most this agent opens in one message is ${MAX_MIME_PARTS.toLocaleString('en-US')}. It was not read: a message built like this comes from a broken mail program or is made to exhaust mail readers. Ask the sender for the message as plain text with its attachments, or leave it to a person.`,
    { cause, details: { limit: 'mimeParts', max: MAX_MIME_PARTS } },
  );
}

/** Header values from the raw header lines (unfolded, first occurrence), so every header reads the same way. */
function headerLookup(mail: ParsedMail): HeaderLookup {
  const values = new Map<string, string>();
  for (const { key, line } of mail.headerLines ?? []) {
    const name = key.toLowerCase();
    if (name === '' || values.has(name)) continue;
    const colon = line.indexOf(':');
    values.set(
      name,
      colon < 0
        ? ''
        : line
            .slice(colon + 1)
            .replace(/\r?\n[ \t]+/g, ' ')
            .trim(),
    );
  }
  return (name) => values.get(name.toLowerCase());
}

/** Removes NUL and other C0 control characters a database or a display would choke on (keeps tab and newlines). */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

function flatten(list: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  if (list === undefined) return [];
  const objects = Array.isArray(list) ? list : [list];
  const out: EmailAddress[] = [];
  const walk = (entries: readonly EmailAddress[]): void => {
    for (const e of entries) {
      if (e.group !== undefined) walk(e.group);
      else out.push(e);
    }
  };
  for (const o of objects) walk(o.value);
  return out;
}

function toMailAddress(e: EmailAddress): MailAddress | null {
  const address = clean(e.address ?? '')
    .trim()
    .toLowerCase();
  // a header too broken to yield an address (quotes, brackets, several @) gives none rather than a garbage one
  if (!/^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+$/.test(address)) return null;
  return { address, name: clean(e.name ?? '').trim() };
}

function addresses(list: AddressObject | AddressObject[] | undefined): MailAddress[] {
  return flatten(list)
    .map(toMailAddress)
    .filter((a): a is MailAddress => a !== null);
}

function firstAddress(list: AddressObject | AddressObject[] | undefined): MailAddress | null {
  return addresses(list)[0] ?? null;
}

/** The Date header as ISO-8601; null when absent or unreadable (mailparser would substitute "now"). */
function dateOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const value = raw.replace(/\([^()]*\)/g, ' ').trim();
  if (value === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function messageIdOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const id = clean(raw)
    .trim()
    .replace(/^<+|>+$/g, '')
    .trim();
  return id === '' ? null : id;
}

function bodyText(mail: ParsedMail, limits: MailLimits, rawBody: () => string | null): string {
  let text = repairUndeclared(typeof mail.text === 'string' ? mail.text : '', rawBody);
  if (text.trim() === '' && typeof mail.html === 'string' && mail.html.trim() !== '') {
    text = htmlToText(mail.html, limits.maxTextChars * 4);
  }
  text = clean(text).trim();
  if (text.length > limits.maxTextChars) {
    throw limitExceeded('maxTextChars', text.length, limits.maxTextChars, 'the body');
  }
  return text;
}

/**
 * mailparser reads 8-bit text with no declared charset as UTF-8, turning latin1 bytes into U+FFFD.
 * When that happened and the raw bytes can be had, read them again with our fallback (UTF-8, else
 * windows-1252). Only for the message's own subject and a single-part body; parts of a multipart keep
 * mailparser's reading.
 */
function repairUndeclared(text: string, raw: () => string | null): string {
  if (!text.includes('\uFFFD')) return text;
  const again = raw();
  return again === null || again.includes('\uFFFD') ? text : again;
}

/** The raw bytes of the header block, up to the first empty line. */
function rawHeaderBlock(bytes: Buffer): Buffer {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  return bytes.subarray(0, ends.length > 0 ? Math.min(...ends) : bytes.length);
}

/** One top-level header, unfolded, decoded from raw bytes; null when absent or carrying RFC 2047 words (mailparser decoded those). */
function rawHeader(bytes: Buffer, name: string): string | null {
  const block = decodeText(rawHeaderBlock(bytes), null).replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(block);
  if (m === null || /=\?[^?]+\?[bq]\?/i.test(m[1]!)) return null;
  return m[1]!.trim();
}

/** The body of a single-part text/plain message sent 7bit/8bit with no charset, decoded with our fallback. */
function rawSinglePartBody(bytes: Buffer, header: HeaderLookup): string | null {
  const type = (header('content-type') ?? 'text/plain').toLowerCase();
  const encoding = (header('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  if (
    !type.startsWith('text/plain') ||
    /charset/.test(type) ||
    !['7bit', '8bit', 'binary'].includes(encoding)
  )
    return null;
  const head = rawHeaderBlock(bytes).length;
  const start = bytes[head] === 0x0d ? head + 4 : head + 2;
  return decodeText(bytes.subarray(Math.min(start, bytes.length)), null).replace(/\r\n?/g, '\n');
}

const TEXT_LIKE = /^(?:text\/|application\/(?:csv|json|xml|[\w.+-]+\+(?:json|xml))$)/i;

function contentTypeOf(attachment: Attachment): { type: string; charset: string | null } {
  const header = attachment.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const type = (attachment.contentType || header?.value || 'application/octet-stream').toLowerCase();
  return { type, charset: header?.params?.charset ?? null };
}

async function readAttachment(
  attachment: Attachment,
  limits: MailLimits,
  deadline: number,
  depth: number,
): Promise<MailAttachment[]> {
  const content = attachment.content;
  const sizeBytes = content.length;
  const { type, charset } = contentTypeOf(attachment);
  const filename = clean(attachment.filename ?? '').trim();
  if (sizeBytes > limits.maxAttachmentBytes) {
    throw limitExceeded(
      'maxAttachmentBytes',
      sizeBytes,
      limits.maxAttachmentBytes,
      filename === '' ? undefined : filename,
    );
  }

  if (type === 'message/rfc822' || type === 'message/global') {
    return readAttachedMessage(content, filename, type, limits, deadline, depth);
  }

  const document = await readDocument({ content, type, filename }, limits, deadline); // PDF, XLSX: attachments/
  if (document !== null) return [document];
  let text: string | null = null;
  let table = null;
  const csv = looksLikeCsv(type, filename);
  if (TEXT_LIKE.test(type) || csv) {
    text = decodeText(content, charset);
    if (type === 'text/html') text = htmlToText(text, limits.maxTextChars * 4);
    text = clean(text);
    if (text.length > limits.maxTextChars) {
      throw limitExceeded(
        'maxTextChars',
        text.length,
        limits.maxTextChars,
        filename === '' ? 'an attachment' : filename,
      );
    }
    if (csv) table = parseCsv(text);
  }
  return [{ filename, contentType: type, sizeBytes, text, table }];
}

/**
 * An attached message (a forward as attachment) stays one attachment, named after its subject, whose
 * text is its sender, subject and body; its own attachments follow it. Opened at most maxNestingDepth
 * levels deep; deeper ones are kept by name only. A broken attached message is kept without text.
 */
async function readAttachedMessage(
  content: Buffer,
  filename: string,
  type: string,
  limits: MailLimits,
  deadline: number,
  depth: number,
): Promise<MailAttachment[]> {
  const sizeBytes = content.length;
  const named = (subject: string): string =>
    filename !== ''
      ? filename
      : `${subject.trim() === '' ? 'attached message' : subject.trim().slice(0, 200)}.eml`;
  if (depth + 1 > limits.maxNestingDepth) {
    return [{ filename: named(''), contentType: type, sizeBytes, text: null, table: null }];
  }
  let inner: ParsedFields;
  try {
    inner = await readMessage(content, limits, deadline, depth + 1);
  } catch (error) {
    // limits hold for the whole message, however deep; anything else only spoils the attached message
    if (
      isDomainError(error, 'MESSAGE_TOO_LARGE') ||
      (isDomainError(error) && /parseTimeoutMs/.test(error.message))
    ) {
      throw error;
    }
    return [{ filename: named(''), contentType: type, sizeBytes, text: null, table: null }];
  }
  const lines = [
    inner.from === null
      ? null
      : `From: ${inner.from.name === '' ? inner.from.address : `${inner.from.name} <${inner.from.address}>`}`,
    inner.date === null ? null : `Date: ${inner.date}`,
    `Subject: ${inner.subject}`,
    '',
    inner.body,
  ].filter((l): l is string => l !== null);
  const text = lines.join('\n');
  if (text.length > limits.maxTextChars) {
    throw limitExceeded('maxTextChars', text.length, limits.maxTextChars, named(inner.subject));
  }
  return [
    { filename: named(inner.subject), contentType: type, sizeBytes, text, table: null },
    ...inner.attachments,
  ];
}
