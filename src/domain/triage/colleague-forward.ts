/**
 * A colleague's forward is read as the message it forwards. Someone at the warehouse who
 * forwards mail to the shared mailbox ("FW: …, can you file this?") is never whose the mail is:
 * what says so sits in the forwarded message, its sender and its text, which a
 * forward from anyone else keeps set aside (docs/new-text.md).
 *
 * A colleague is a person the tenant knows (someone who has taught it: the handles of the people
 * behind `taughtBy`, the addresses among them), or anyone at such a person's own domain. A free-mail
 * or shared domain makes nobody a colleague but the person themself. A reply's quoted history stays
 * set aside, as for everyone.
 *
 * Owns: who is a colleague and what a colleague's forward is read as. Does not own: finding the
 * forwarded block (../mail/new-text.ts), or where the tenant's people are kept (the `Colleagues` port).
 */
import { isSharedDomain } from '../learnables/index.ts';
import { forwardedPart, subjectPrefixes, withMailText, type MailMessage } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { domainOf } from '../mail/index.ts';

/** The handles of the tenant's people (an address, or any other name a lesson was signed with). */
export type Colleagues = (tenant: TenantId) => Promise<readonly string[]>;

/** Whether `address` is one of `handles`, or at the own (not free-mail) domain of one. */
export function isColleague(address: string, handles: readonly string[]): boolean {
  const lower = address.toLowerCase();
  const domain = domainOf(lower);
  if (domain === '' || !lower.includes('@')) return false;
  for (const handle of handles) {
    const h = handle.trim().toLowerCase();
    if (h === lower) return true;
    if (!isSharedDomain(domain) && h.includes('@') && domainOf(h) === domain) return true;
  }
  return false;
}

/**
 * The message as the agent reads it: a colleague's forward becomes the message it passes on (its
 * sender, subject and text; the Message-ID, hash, date and attachments stay the forward's), anything
 * else stays as it is. The people are looked up only for a forward.
 */
export async function readAs(
  tenant: TenantId,
  message: MailMessage,
  colleagues: Colleagues | undefined,
): Promise<MailMessage> {
  if (colleagues === undefined || message.from === null || message.text?.forwardedFrom === null)
    return message;
  const part = forwardedPart(message.body, message.subject);
  if (part === null || !isColleague(message.from.address, await colleagues(tenant))) return message;
  const subject = part.subject ?? message.subject;
  return withMailText({
    ...message,
    from: part.from,
    replyTo: [],
    subject,
    body: part.body,
    isForward: false,
    isReply: subjectPrefixes(subject).outermost === 'reply',
  });
}
