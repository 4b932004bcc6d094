/**
 * The A2A "data part with the fields of a message" → MailMessage. A client that has already parsed a
 * mail (or never had one) sends { from, to?, subject?, body | text?, messageId?, date?, attachments? }.
 * Validated by hand so every refusal names the field and says what would do. The content hash is the
 * sha256 of the canonical JSON of the normalised fields, so the same fields always dedupe together.
 * Reply / forward / automated flags are read from the subject, body and sender, as for raw mail.
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../../domain/errors.ts';
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
import { canonicalJson } from '../../domain/json.ts';
import { looksLikeCsv, parseCsv } from './csv.ts';
import { isAutomated, isForward } from './signals.ts';

const KNOWN_FIELDS = [
  'from',
  'to',
  'cc',
  'replyTo',
  'subject',
  'body',
  'text',
  'messageId',
  'date',
  'attachments',
  'isReply',
];
const ADDRESS = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Problems {
  readonly list: string[] = [];
  add(field: string, problem: string): void {
    this.list.push(`${field} ${problem}`);
  }
}

/** "Name <addr>", a bare "addr", or { address, name? }. */
function readAddress(value: unknown, field: string, problems: Problems): MailAddress | null {
  let address: string;
  let name = '';
  if (typeof value === 'string') {
    const m = /^\s*(?:"?([^"<]*?)"?\s*)?<([^<>]+)>\s*$/.exec(value);
    if (m !== null) {
      name = (m[1] ?? '').trim();
      address = m[2]!.trim();
    } else {
      address = value.trim();
    }
  } else if (isObject(value) && typeof value.address === 'string') {
    address = value.address.trim();
    if (value.name !== undefined && typeof value.name !== 'string') {
      problems.add(`${field}.name`, 'must be text when given.');
      return null;
    }
    name = (value.name ?? '').trim();
  } else {
    problems.add(
      field,
      'must be an address: "Name <someone@example.com>", "someone@example.com" or { "address": …, "name": … }.',
    );
    return null;
  }
  address = address.toLowerCase();
  if (!ADDRESS.test(address)) {
    problems.add(
      field,
      `is not an e-mail address (${JSON.stringify(address)}); write it as "someone@example.com".`,
    );
    return null;
  }
  return { address, name };
}

function readAddressList(value: unknown, field: string, problems: Problems): MailAddress[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).filter((s) => s.trim() !== '')
      : [value];
  const out: MailAddress[] = [];
  items.forEach((item, i) => {
    const a = readAddress(item, Array.isArray(value) ? `${field}[${i}]` : field, problems);
    if (a !== null) out.push(a);
  });
  return out;
}

function optionalText(data: Record<string, unknown>, field: string, problems: Problems): string | undefined {
  const v = data[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    problems.add(field, `must be text, not ${Array.isArray(v) ? 'a list' : typeof v}.`);
    return undefined;
  }
  return v;
}

function readAttachments(value: unknown, limits: MailLimits, problems: Problems): MailAttachment[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.add('attachments', 'must be a list of { "filename": …, "contentType"?: …, "text"?: … }.');
    return [];
  }
  if (value.length > limits.maxAttachments)
    throw limitExceeded('maxAttachments', value.length, limits.maxAttachments);
  const out: MailAttachment[] = [];
  value.forEach((item: unknown, i) => {
    const field = `attachments[${i}]`;
    if (!isObject(item)) {
      problems.add(field, 'must be an object with a "filename".');
      return;
    }
    if (typeof item.filename !== 'string' || item.filename.trim() === '') {
      problems.add(`${field}.filename`, 'is required: the name of the attached file, e.g. "manifest.csv".');
      return;
    }
    if (item.contentType !== undefined && typeof item.contentType !== 'string') {
      problems.add(`${field}.contentType`, 'must be text, e.g. "text/csv".');
      return;
    }
    if (item.text !== undefined && item.text !== null && typeof item.text !== 'string') {
      problems.add(`${field}.text`, 'must be the text of the attachment.');
      return;
    }
    const filename = item.filename.trim();
    const text = typeof item.text === 'string' ? item.text.replace(/\r\n?/g, '\n') : null;
    if (text !== null && text.length > limits.maxTextChars) {
      throw limitExceeded('maxTextChars', text.length, limits.maxTextChars, filename);
    }
    const contentType = (
      typeof item.contentType === 'string' && item.contentType.trim() !== ''
        ? item.contentType.trim()
        : /\.csv$/i.test(filename)
          ? 'text/csv'
          : text !== null
            ? 'text/plain'
            : 'application/octet-stream'
    ).toLowerCase();
    out.push({
      filename,
      contentType,
      sizeBytes: text === null ? 0 : Buffer.byteLength(text, 'utf8'),
      text,
      table: text !== null && looksLikeCsv(contentType, filename) ? parseCsv(text) : null,
    });
  });
  return out;
}

/**
 * @throws DomainError MESSAGE_UNREADABLE naming every bad field, or MESSAGE_TOO_LARGE past a limit.
 */
export function messageFromFields(data: unknown, limits: Partial<MailLimits> = {}): MailMessage {
  const resolved = resolveMailLimits(limits);
  if (!isObject(data)) {
    throw new DomainError(
      'MESSAGE_UNREADABLE',
      `The fields of a message must be an object such as { "from": "Name <someone@example.com>", "subject": …, "body": … }, not ${Array.isArray(data) ? 'a list' : data === null ? 'null' : typeof data}.`,
    );
  }
  const problems = new Problems();
  const unknown = Object.keys(data).filter((k) => !KNOWN_FIELDS.includes(k));
  if (unknown.length > 0) {
    problems.add(
      unknown.map((k) => JSON.stringify(k)).join(', '),
      `${unknown.length === 1 ? 'is not a field' : 'are not fields'} of a message; the fields are ${KNOWN_FIELDS.join(', ')}.`,
    );
  }
  const from =
    data.from === undefined || data.from === null ? null : readAddress(data.from, 'from', problems);
  if (data.from === undefined || data.from === null)
    problems.add('from', 'is required: who sent the message, e.g. "Dana <dana@example.com>".');
  const to = readAddressList(data.to, 'to', problems);
  const cc = readAddressList(data.cc, 'cc', problems);
  const replyTo = readAddressList(data.replyTo, 'replyTo', problems);
  const subject = optionalText(data, 'subject', problems) ?? '';
  const bodyField = optionalText(data, 'body', problems);
  const textField = optionalText(data, 'text', problems);
  if (bodyField !== undefined && textField !== undefined && bodyField !== textField) {
    problems.add('body', 'and text were both given and differ; send the message text once, as body.');
  }
  const body = (bodyField ?? textField ?? '').replace(/\r\n?/g, '\n').trim();
  if (body.length > resolved.maxTextChars)
    throw limitExceeded('maxTextChars', body.length, resolved.maxTextChars, 'the body');
  const rawId = optionalText(data, 'messageId', problems);
  const messageId =
    rawId === undefined
      ? null
      : rawId
          .trim()
          .replace(/^<+|>+$/g, '')
          .trim() || null;
  const rawDate = optionalText(data, 'date', problems);
  let date: string | null = null;
  if (rawDate !== undefined && rawDate.trim() !== '') {
    const ms = Date.parse(rawDate);
    if (Number.isNaN(ms))
      problems.add(
        'date',
        `is not a date (${JSON.stringify(rawDate)}); use ISO-8601, e.g. "2026-03-02T08:14:00Z".`,
      );
    else date = new Date(ms).toISOString();
  }
  if (data.isReply !== undefined && typeof data.isReply !== 'boolean')
    problems.add('isReply', 'must be true or false.');
  const attachments = readAttachments(data.attachments, resolved, problems);

  if (problems.list.length > 0) {
    throw new DomainError(
      'MESSAGE_UNREADABLE',
      `These fields of the message cannot be read: ${problems.list.join(' ')}`,
      {
        details: { fields: problems.list },
      },
    );
  }

  const fields = {
    messageId,
    from,
    replyTo,
    to,
    cc,
    subject: subject.trim(),
    date,
    body,
    attachments: attachments.map(({ filename, contentType, text }) => ({ filename, contentType, text })),
  };
  const contentHash = createHash('sha256').update(canonicalJson(fields)).digest('hex');
  const header = (): undefined => undefined;
  // What a mark matches is what a person saw (NFC, learnables/pattern.ts); its new text split once, here.
  const message = messageInNfc({
    contentHash,
    messageId,
    from,
    replyTo,
    to,
    cc,
    subject: fields.subject,
    date,
    body,
    attachments,
    isReply: data.isReply === true || /^\s*(?:re|aw|sv|antw|res)\s*:/i.test(fields.subject),
    isForward: isForward(fields.subject, body),
    isAutomated: from !== null && isAutomated(header, from.address),
  });
  return withMailText(message);
}
