/**
 * Every limit on reading a message, in one place (house style: imapflow/mailparser keep theirs in one
 * module). The ingest adapters enforce them; this module owns the numbers, their defaults and the
 * sentences a person reads when one is exceeded. It does not parse anything.
 */
import { DomainError } from '../errors.ts';

export interface MailLimits {
  /** Largest raw message read, in bytes. Default 25 MiB. */
  readonly maxMessageBytes: number;
  /** Largest single attachment (decoded), in bytes. Default 10 MiB. */
  readonly maxAttachmentBytes: number;
  /** Largest header block of the message (or of any part), in bytes. Default 64 KiB. */
  readonly maxHeaderBytes: number;
  /** Most attachments in one message. Default 50. */
  readonly maxAttachments: number;
  /** Most characters of text in one part (the body, or one attachment's text). Default 1,000,000. */
  readonly maxTextChars: number;
  /** Longest a parse may take before it is given up, in milliseconds. Default 10,000. */
  readonly parseTimeoutMs: number;
  /** How deep message/rfc822 attachments are opened (a forward of a forward …). Default 3. */
  readonly maxNestingDepth: number;
}

export const DEFAULT_MAIL_LIMITS: MailLimits = Object.freeze({
  maxMessageBytes: 25 * 1024 * 1024,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxHeaderBytes: 64 * 1024,
  maxAttachments: 50,
  maxTextChars: 1_000_000,
  parseTimeoutMs: 10_000,
  maxNestingDepth: 3,
});

export type MailLimitName = keyof MailLimits;

/** The setting (environment variable) an operator raises to move each limit. */
const MAIL_LIMIT_SETTINGS: Readonly<Record<MailLimitName, string>> = Object.freeze({
  maxMessageBytes: 'MAX_MESSAGE_BYTES',
  maxAttachmentBytes: 'MAX_ATTACHMENT_BYTES',
  maxHeaderBytes: 'MAX_HEADER_BYTES',
  maxAttachments: 'MAX_ATTACHMENTS',
  maxTextChars: 'MAX_TEXT_CHARS',
  parseTimeoutMs: 'PARSE_TIMEOUT_MS',
  maxNestingDepth: 'MAX_NESTING_DEPTH',
});

/** Fills the limits a caller left out with the defaults, and refuses a limit that is not a positive whole number. */
export function resolveMailLimits(limits?: Partial<MailLimits>): MailLimits {
  const resolved = { ...DEFAULT_MAIL_LIMITS, ...(limits ?? {}) };
  for (const name of Object.keys(DEFAULT_MAIL_LIMITS) as MailLimitName[]) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new DomainError(
        'CONFIG_INVALID',
        `The mail limit ${name} must be a positive whole number, not ${String(value)}. Set ${MAIL_LIMIT_SETTINGS[name]} to e.g. ${formatNumber(DEFAULT_MAIL_LIMITS[name])}.`,
      );
    }
  }
  return Object.freeze(resolved);
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

const NOUNS: Readonly<Record<MailLimitName, { what: string; unit: string; action: string }>> = {
  maxMessageBytes: {
    what: 'This message is',
    unit: 'bytes',
    action: 'the largest message this agent reads is',
  },
  maxAttachmentBytes: {
    what: 'An attachment',
    unit: 'bytes',
    action: 'the largest attachment this agent reads is',
  },
  maxHeaderBytes: {
    what: 'The header block',
    unit: 'bytes',
    action: 'the largest header block this agent reads is',
  },
  maxAttachments: { what: 'This message has', unit: 'attachments', action: 'the most this agent reads is' },
  maxTextChars: {
    what: 'A text part',
    unit: 'characters',
    action: 'the longest text part this agent reads is',
  },
  parseTimeoutMs: {
    what: 'Reading this message took over',
    unit: 'ms',
    action: 'the longest this agent spends on one message is',
  },
  maxNestingDepth: {
    what: 'This message nests',
    unit: 'levels of attached messages',
    action: 'the deepest this agent opens is',
  },
};

/**
 * The refusal for an exceeded limit: names the limit, the value seen and the setting that moves it.
 * `subject` optionally names the part ("the attachment manifest.csv").
 */
export function limitExceeded(
  name: MailLimitName,
  value: number,
  limit: number,
  subject?: string,
): DomainError {
  const noun = NOUNS[name];
  const setting = MAIL_LIMIT_SETTINGS[name];
  const code =
    name === 'parseTimeoutMs' || name === 'maxNestingDepth' ? 'MESSAGE_UNREADABLE' : 'MESSAGE_TOO_LARGE';
  let first: string;
  switch (name) {
    case 'maxAttachmentBytes':
      first = `${subject === undefined ? 'An attachment' : `The attachment ${subject}`} is ${formatNumber(value)} bytes`;
      break;
    case 'maxHeaderBytes':
      first = `${subject === undefined ? 'The header block' : `The header block of ${subject}`} is at least ${formatNumber(value)} bytes`;
      break;
    case 'maxTextChars':
      first = `${subject === undefined ? 'A text part' : `The text of ${subject}`} is ${formatNumber(value)} characters`;
      break;
    case 'parseTimeoutMs':
      first = `Reading this message took over ${formatNumber(value)} ms`;
      break;
    default:
      first = `${noun.what} ${formatNumber(value)} ${noun.unit}`;
  }
  const smaller =
    name === 'parseTimeoutMs' || name === 'maxNestingDepth'
      ? 'Send the message in a simpler form'
      : 'Send a smaller message';
  return new DomainError(
    code,
    `${first}; ${noun.action} ${formatNumber(limit)} ${noun.unit} (${name}). ${smaller} or raise ${setting}.`,
    { details: { limit: name, value, max: limit } },
  );
}
