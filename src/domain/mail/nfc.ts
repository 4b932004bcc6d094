/**
 * Mail text in Unicode NFC, so that a mark and the mail it should match compare as a person sees
 * them: "é" typed as one character and "é" sent as e + U+0301 are the same text. Patterns are put
 * in NFC when they are judged (learnables/pattern.ts); the ingest puts each MailMessage in NFC
 * where it builds it, so every path (file, text and data parts, IMAP, webhooks) agrees.
 *
 * Deliberately does not touch the Message-ID (an identifier looked up as sent) or the content hash
 * (of the bytes as received).
 */
import type { MailAddress, MailAttachment, MailMessage } from './mail-message.ts';

const nfc = (text: string): string => text.normalize('NFC');

const address = (a: MailAddress): MailAddress => ({ ...a, address: nfc(a.address), name: nfc(a.name) });

const attachment = (a: MailAttachment): MailAttachment => ({
  ...a,
  filename: nfc(a.filename),
  text: a.text === null ? null : nfc(a.text),
  table:
    a.table === null
      ? null
      : { headings: a.table.headings.map(nfc), rows: a.table.rows.map((r) => r.map(nfc)) },
});

/** The message with every text a mark can look in (and every address) in NFC. */
export function messageInNfc(message: MailMessage): MailMessage {
  return {
    ...message,
    from: message.from === null ? null : address(message.from),
    replyTo: message.replyTo.map(address),
    to: message.to.map(address),
    cc: message.cc.map(address),
    subject: nfc(message.subject),
    body: nfc(message.body),
    attachments: message.attachments.map(attachment),
  };
}
