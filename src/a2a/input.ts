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
  for (const p of parts) {
    const c = p.content;
    if (c === undefined) continue;
    switch (c.$case) {
      case 'raw': {
        const type = p.mediaType.split(';')[0]!.trim().toLowerCase();
        if (
          RFC822_MEDIA_TYPES.has(type) ||
          (type === '' && /\.eml$/i.test(p.filename)) ||
          /\.eml$/i.test(p.filename)
        ) {
          return { kind: 'raw', bytes: Buffer.from(c.value) };
        }
        seen.push(`a file part of type "${p.mediaType || 'unspecified'}"`);
        break;
      }
      case 'url':
        seen.push('a file part by URL (I do not fetch URLs: send the bytes)');
        break;
      case 'text':
        if (looksLikeRfc822(c.value)) return { kind: 'raw', bytes: Buffer.from(c.value, 'utf8') };
        seen.push('a text part that is not an RFC 822 message');
        break;
      case 'data':
        if (isPlainObject(c.value)) return { kind: 'fields', fields: c.value };
        seen.push('a data part that is not a JSON object');
        break;
    }
  }
  const got = seen.length === 0 ? 'an empty message' : seen.join(', ');
  return { kind: 'rejected', reason: `${ACCEPTED_INPUT} I got ${got}.` };
}

/** Header lines up to the first blank line, at least one of them a header every mail has. */
export function looksLikeRfc822(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = head.split(/\r?\n/);
  if (lines.length === 0 || !HEADER_LINE.test(lines[0] ?? '')) return false;
  const allHeaders = lines.every((l) => HEADER_LINE.test(l) || /^[ \t]/.test(l));
  return allHeaders && lines.some((l) => KEY_HEADERS.test(l));
}
