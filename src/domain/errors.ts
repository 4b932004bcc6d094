/**
 * The one domain error base. Codes come from a closed set (docs/errors.md lists every one);
 * messages are written for the person who sent the value: they name it and say what to do next.
 * Wire mapping (HTTP status, JSON-RPC code) happens once per transport, never here.
 */
export const ERROR_CODES = [
  'LESSON_MALFORMED',
  'COLLECTION_UNKNOWN',
  'ENTRY_UNKNOWN',
  'LESSON_REFUSED',
  'TAUGHT_BY_NOT_A_PERSON',
  'DEFINITION_VERSION_NOT_FOUND',
  'DEFINITION_VERSION_TOMBSTONED',
  'ACTIVATION_NOT_FOUND',
  'NOTHING_TO_REVERT',
  'TENANT_UNKNOWN',
  'IMPORT_MALFORMED',
  'MESSAGE_TOO_LARGE',
  'MESSAGE_UNREADABLE',
  'MESSAGE_NOT_FOUND',
  'MESSAGE_TEXT_DISCARDED',
  'INPUT_NOT_ACCEPTED',
  'ANSWER_NOT_UNDERSTOOD',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'REQUEST_MALFORMED',
  'REQUEST_TOO_LARGE',
  'SERVER_BUSY',
  'STORAGE_FULL',
  'STORAGE_READ_ONLY',
  'AUTHORITY_UNAVAILABLE',
  'AUTH_THROTTLED',
  'CONFIG_INVALID',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  readonly code: ErrorCode;
  /** Extra, already-safe details for the wire (e.g. the list of declared collections). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.details = options?.details === undefined ? undefined : Object.freeze({ ...options.details });
  }
}

export function isDomainError(e: unknown, code?: ErrorCode): e is DomainError {
  return e instanceof DomainError && (code === undefined || e.code === code);
}
