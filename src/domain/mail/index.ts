/**
 * The public surface of src/domain/mail: the normalised message the rest of the domain sees, its parts, the mail limits, the ingest ledger port and the mailbox lease port. Code outside this folder imports
 * these names from here, never a file past it.
 */
export type {
  ClaimRequest,
  ClaimResult,
  IngestStore,
  MailSourceRef,
  MailboxState,
  SubmitResult,
  TaskFiling,
  SubmittedState,
  SpentTokenStore,
  TokenSpend,
} from './ingest-store.ts';
export type { MailboxLease, MailboxLeaseStore } from './mailbox-lease.ts';
export { DEFAULT_MAIL_LIMITS, formatNumber, limitExceeded, resolveMailLimits } from './limits.ts';
export type { MailLimits } from './limits.ts';
export { MAIL_PARTS } from './mail-message.ts';
export { domainOf, localPartOf } from './address.ts';
export type {
  MailAddress,
  MailAttachment,
  MailMessage,
  MailPart,
  MailText,
  ManifestTable,
} from './mail-message.ts';
export { fromLine, partText, scannedParts } from './parts.ts';
export { messageInNfc } from './nfc.ts';
export { forwardedPart, mailTextOf, splitMailText, withMailText } from './new-text.ts';
export type { ForwardedPart } from './new-text.ts';
export { isForwardSeparator } from './reply-markers.ts';
export { isInheritedSubject, subjectPrefixes, FORWARD_PREFIXES, REPLY_PREFIXES } from './subject-prefix.ts';
export type { SubjectPrefixes } from './subject-prefix.ts';
