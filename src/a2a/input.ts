/**
 * What a client sent to the agent, classified: one e-mail (raw RFC 822 bytes from a file part or a
 * text part, or a data part with message fields), a show-back request, or something not accepted,
 * with a reason naming what is accepted.
 */
import type { Part } from '@a2a-js/sdk';
import { isPlainObject } from '../domain/json.ts';

export type MailInput =
  | { readonly kind: 'raw'; readonly bytes: Buffer }
  | { readonly kind: 'fields'; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly kind: 'recheck'; readonly taskId?: string; readonly messageId?: string }
  | { readonly kind: 'rejected'; readonly reason: string }
  /** §14: the mail a stored task was given, incinerated (retention or erase); only its hash and size remain. */
  | { readonly kind: 'discarded' };

export const ACCEPTED_INPUT =
  'I read one e-mail per task. Send it as a file part with mediaType "message/rfc822" (the raw bytes of the .eml), ' +
  'as the raw RFC 822 text in a text part (header lines such as "From:" and "Subject:", a blank line, then the body), ' +
  'or as a data part with the message fields ({"from": "...", "subject": "...", "body": "..."}). ' +
  'To show back a message I have read, send a data part {"recheck": {"taskId": "<task id>"}} or {"recheck": {"messageId": "<Message-ID>"}}.';

const RFC822_MEDIA_TYPES = new Set(['message/rfc822', 'message/global']);
const HEADER_LINE = /^[!-9;-~]+:[ \t]?/;
const KEY_HEADERS = /^(from|subject|message-id|to|date|received|mime-version|return-path):/i;

export function classifyInput(parts: readonly Part[]): MailInput {
  const seen: string[] = [];
  for (const p of parts) {
    const c = p.content;
    // Written by src/store/sqlite-task-mail.ts in place of a part whose content was dropped.
    if (c?.$case === 'data' && isPlainObject(c.value) && 'incinerated' in c.value)
      return { kind: 'discarded' };
    if (c?.$case === 'data' && isPlainObject(c.value) && 'recheck' in c.value) {
      const r: unknown = c.value.recheck;
      if (isPlainObject(r) && typeof r.taskId === 'string' && r.taskId.trim() !== '')
        return { kind: 'recheck', taskId: r.taskId.trim() };
      if (isPlainObject(r) && typeof r.messageId === 'string' && r.messageId.trim() !== '')
        return { kind: 'recheck', messageId: r.messageId.trim() };
      return {
        kind: 'rejected',
        reason:
          'A recheck names the message to show back: {"recheck": {"taskId": "<the triage_inbound task that read it>"}} or {"recheck": {"messageId": "<its Message-ID>"}}.',
      };
    }
  }
  // One e-mail per task: every part that is a mail counts, so a second one is refused by name
  // instead of silently ignored.
  const mails: { readonly label: string; readonly input: MailInput }[] = [];
  for (const p of parts) {
    const c = p.content;
    if (c === undefined) continue;
    switch (c.$case) {
      case 'raw': {
        const type = p.mediaType.split(';')[0]!.trim().toLowerCase();
        const label = `the file part${p.filename === '' ? '' : ` "${p.filename}"`} (${p.mediaType || 'no media type'}, ${c.value.length} bytes)`;
        if (RFC822_MEDIA_TYPES.has(type) || /\.eml$/i.test(p.filename)) {
          const notMail = notAMail(c.value);
          if (notMail !== null) seen.push(`${label}, which ${notMail}`);
          // a view of the part's bytes, not a copy: a 25 MB mail is held once
          else mails.push({ label, input: { kind: 'raw', bytes: bytesView(c.value) } });
          break;
        }
        seen.push(`a file part of type "${p.mediaType || 'unspecified'}"`);
        break;
      }
      case 'url':
        seen.push('a file part by URL (I do not fetch URLs: send the bytes)');
        break;
      case 'text':
        if (looksLikeRfc822(c.value))
          mails.push({
            label: 'a text part with an RFC 822 message',
            input: { kind: 'raw', bytes: Buffer.from(c.value, 'utf8') },
          });
        else seen.push('a text part that is not an RFC 822 message');
        break;
      case 'data':
        if (isPlainObject(c.value))
          mails.push({
            label: 'a data part with message fields',
            input: { kind: 'fields', fields: c.value },
          });
        else seen.push('a data part that is not a JSON object');
        break;
    }
  }
  if (mails.length === 1) return mails[0]!.input;
  if (mails.length > 1) {
    return {
      kind: 'rejected',
      reason:
        `This message has ${mails.length} e-mails in it: ${mails.map((m, i) => `${i + 1}. ${m.label}`).join('; ')}. ` +
        'I read one e-mail per task, so none of them was read. Send each e-mail in a message of its own (one task each).',
    };
  }
  const got = seen.length === 0 ? 'an empty message' : seen.join(', ');
  return { kind: 'rejected', reason: `${ACCEPTED_INPUT} I got ${got}.` };
}

/**
 * Why bytes sent as a mail file are not one, or null: empty, or not starting with a header field
 * ("Name: value") or an mbox "From " line (so "hello world", or base64 that decoded to noise, is
 * refused as not-a-mail rather than read as a body with no sender and turned into a question).
 */
function notAMail(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'is empty: attach the .eml file itself, not an empty file';
  const head = Buffer.from(bytes.subarray(0, 1000))
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  const first = head.split(/\r?\n|\r/, 1)[0] ?? '';
  if (/^[!-9;-~]+[ \t]*:/.test(first) || first.startsWith('From ')) return null;
  return 'is not an e-mail: it does not begin with header lines such as "From:" and "Subject:" (were the bytes base64-encoded twice, or is it another kind of file?). Send the .eml file as the mail program saved it';
}

/** Header lines up to the first blank line, at least one of them a header every mail has. */
export function looksLikeRfc822(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = head.split(/\r?\n/);
  if (lines.length === 0 || !HEADER_LINE.test(lines[0] ?? '')) return false;
  const allHeaders = lines.every((l) => HEADER_LINE.test(l) || /^[ \t]/.test(l));
  return allHeaders && lines.some((l) => KEY_HEADERS.test(l));
}

/** The same bytes as a Buffer, without copying them (parsing only reads them). */
function bytesView(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
