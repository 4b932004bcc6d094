/** The text of each part a mark can look in. One definition, used by matching, dry-run and suggestions. */
import type { MailAddress, MailMessage, MailPart } from './mail-message.ts';
import { mailTextOf } from './new-text.ts';

export function partText(message: MailMessage, part: MailPart): string {
  switch (part) {
    case 'from':
      return message.from === null ? '' : fromLine(message.from);
    case 'subject':
      return message.subject;
    case 'body':
      // only what the sender wrote in this message (new-text.ts)
      return mailTextOf(message).newText;
    case 'attachments':
      return message.attachments
        .map((a) => (a.text === null ? a.filename : `${a.filename}\n${a.text}`))
        .join('\n');
    case 'quoted': {
      const { signature, quoted } = mailTextOf(message);
      return signature === '' ? quoted : quoted === '' ? signature : `${signature}\n${quoted}`;
    }
  }
}

/**
 * The parts a mark on `parts` is looked for in: a mark on the body is looked for in the quoted part
 * too, so that a reading can say it was found there only and set aside (a hit in `quoted` counts
 * only for a mark taught for it). Both matchers (match-parts.ts, naive-matcher.ts) use this.
 */
export function scannedParts(parts: readonly MailPart[]): readonly MailPart[] {
  return parts.includes('body') && !parts.includes('quoted') ? [...parts, 'quoted'] : parts;
}

/**
 * The from part as marks see it: `Name <address>`, or the bare address. The display name is what
 * a sender chooses to show, so it can never pass for the address: its `<`, `>` and `@`
 * become spaces. Then the only `<` opens the address and the only `>` ends the part, so a from-line
 * mark bounded by `<`/`>` or the part's ends (an address, `(?:^|<)…(?:>|$)`; a domain, `@…(?:>|$)`)
 * and any mark that looks for an `@` can only meet the address, on every ingress path. Every path
 * gives an address without `<`, `>` or spaces (ingest/mail/parse.ts, from-fields.ts).
 */
export function fromLine(from: MailAddress): string {
  const name = from.name.replace(/[<>@]/gu, ' ').replace(/\s+/gu, ' ').trim();
  return name === '' ? from.address : `${name} <${from.address}>`;
}
