/**
 * What a message's headers and wording say about how it was sent: a forward (the sender passes on
 * somebody else's mail), or a machine (a platform, a list, an auto-reply). These flags feed the
 * suggestion rule "a sender address is evidence about the sender, not always about the customer".
 * It does not decide anything about customers.
 */
import { isForwardSeparator, subjectPrefixes } from '../../domain/mail/index.ts';
import { localPartOf } from '../../domain/mail/index.ts';

/** Whether the subject's leading chain of Re:/Fwd:-style prefixes contains a forward prefix (the prefixes: domain/mail/subject-prefix.ts). */
export function hasForwardPrefix(subject: string): boolean {
  return subjectPrefixes(subject).forwardInChain;
}

/** Whether a line of the body, quoted or not, is a forwarded-message separator (domain/mail/reply-markers.ts). */
export function hasForwardBlock(body: string): boolean {
  return body.split('\n').some((line) => isForwardSeparator(line.replace(/^[\s>]+/, '')));
}

export function isForward(subject: string, body: string): boolean {
  return hasForwardPrefix(subject) || hasForwardBlock(body);
}

/** A no-reply style local part: noreply@, no-reply@, do-not-reply@, noreply-bookings@ … */
const NO_REPLY_LOCAL = /^(?:no[-_.]?reply|do[-_.]?not[-_.]?reply|mailer-daemon)(?:$|[-_.+])/i;

export function isNoReplyAddress(address: string): boolean {
  return NO_REPLY_LOCAL.test(localPartOf(address));
}

/** Header values by lower-cased name (first occurrence), as plain strings. */
export type HeaderLookup = (name: string) => string | undefined;

/** RFC 3834 Auto-Submitted other than "no", Precedence bulk/list/junk, a List-Id, or a no-reply sender. */
export function isAutomated(header: HeaderLookup, fromAddress: string | null): boolean {
  const autoSubmitted = header('auto-submitted')
    ?.trim()
    .toLowerCase()
    .split(/[\s;(]/)[0];
  if (autoSubmitted !== undefined && autoSubmitted !== '' && autoSubmitted !== 'no') return true;
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence === 'bulk' || precedence === 'list' || precedence === 'junk') return true;
  if (header('list-id') !== undefined) return true;
  return fromAddress !== null && isNoReplyAddress(fromAddress);
}
