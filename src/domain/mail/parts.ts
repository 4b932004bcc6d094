/** The text of each part a mark can look in. One definition, used by matching, dry-run and suggestions. */
import type { MailMessage, MailPart } from './mail-message.ts';

export function partText(message: MailMessage, part: MailPart): string {
  switch (part) {
    case 'from':
      if (message.from === null) return '';
      return message.from.name === ''
        ? message.from.address
        : `${message.from.name} <${message.from.address}>`;
    case 'subject':
      return message.subject;
    case 'body':
      return message.body;
    case 'attachments':
      return message.attachments
        .map((a) => (a.text === null ? a.filename : `${a.filename}\n${a.text}`))
        .join('\n');
  }
}
