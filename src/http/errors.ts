/**
 * The one place where errors become HTTP (house style: wire mapping happens in exactly one module
 * per transport). A DomainError keeps its code and its message, which is written for a person; its
 * HTTP status comes from HTTP_STATUS below, which the type system forces to cover every ErrorCode.
 * A write the disk refused (full, read-only) is worded too (domain/storage-fault.ts).
 * Anything else is a fault: the client gets a 500 with no internals, and the cause goes to the log.
 *
 * Deliberately does not: decide what is an error (the domain does), or log expected outcomes.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import { redactForLog, redactText } from '../domain/log-redaction.ts';
import { storageFault } from '../domain/storage-fault.ts';

/** HTTP status for every error code; docs/errors.md repeats this table (a test keeps them equal). */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  LESSON_MALFORMED: 400,
  COLLECTION_UNKNOWN: 422,
  ENTRY_UNKNOWN: 422,
  LESSON_REFUSED: 422,
  TAUGHT_BY_NOT_A_PERSON: 422,
  DEFINITION_VERSION_NOT_FOUND: 404,
  DEFINITION_VERSION_TOMBSTONED: 410,
  ACTIVATION_NOT_FOUND: 404,
  NOTHING_TO_REVERT: 409,
  TENANT_UNKNOWN: 404,
  IMPORT_MALFORMED: 400,
  MESSAGE_TOO_LARGE: 413,
  MESSAGE_UNREADABLE: 422,
  MESSAGE_NOT_FOUND: 404,
  MESSAGE_TEXT_DISCARDED: 410,
  INPUT_NOT_ACCEPTED: 415,
  ANSWER_NOT_UNDERSTOOD: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_MALFORMED: 400,
  REQUEST_TOO_LARGE: 413,
  SERVER_BUSY: 503,
  STORAGE_FULL: 507,
  STORAGE_READ_ONLY: 503,
  AUTHORITY_UNAVAILABLE: 503,
  AUTH_THROTTLED: 429,
  CONFIG_INVALID: 500,
  INTERNAL: 500,
});

/** The body of every error response: `{ error: { code, message, details? } }`. */
export interface ErrorBody {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly details?: Readonly<Record<string, unknown>>;
  };
}

/** Where unexpected errors are reported (the cause is logged, never sent). */
export type FaultLog = (message: string, cause: unknown) => void;

/** §14: to stderr, with every address redacted (src/domain/log-redaction.ts). */
export const consoleFaultLog: FaultLog = (message, cause) => {
  console.error(redactText(message), redactForLog(cause));
};

const INTERNAL_MESSAGE =
  'Something went wrong on our side. The request was not completed; try again, and if it keeps failing tell the operator.';

/** Translate any thrown value into a status and a body; faults are logged through `log`. */
export function toHttpError(e: unknown, log: FaultLog): { status: number; body: ErrorBody } {
  const domain = asDomainError(e);
  if (domain !== null) {
    const status = HTTP_STATUS[domain.code];
    if (status >= 500) log(`${domain.code}: ${domain.message}`, domain);
    // A 500 is ours and says nothing; a 503/507 (storage, the authority) is worded for the caller.
    const error =
      status === 500
        ? { code: domain.code, message: INTERNAL_MESSAGE }
        : domain.details === undefined
          ? { code: domain.code, message: domain.message }
          : { code: domain.code, message: domain.message, details: domain.details };
    return { status, body: { error } };
  }
  log('unexpected error while serving a request', e);
  return { status: 500, body: { error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } } };
}

export function sendError(res: Response, e: unknown, log: FaultLog): void {
  const { status, body } = toHttpError(e, log);
  res.status(status).json(body);
}

/** Express error middleware: the last handler of a router. */
export function errorHandler(log: FaultLog = consoleFaultLog): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    sendError(res, err, log);
  };
}

/** 404 for any path the router does not serve, in the same JSON shape. */
export function notFoundHandler(): RequestHandler {
  return (req, res) => {
    const { status, body } = toHttpError(
      new DomainError(
        'NOT_FOUND',
        `There is nothing at ${req.method} ${req.originalUrl}. See the README and docs/ for the endpoints this server has (GET /authority/v1/openapi.json lists them).`,
      ),
      consoleFaultLog,
    );
    res.status(status).json(body);
  };
}

/**
 * DomainErrors pass through; the body parser's own errors (bad JSON, too large) become the codes a
 * person can act on. Everything else is a fault (null).
 */
function asDomainError(e: unknown): DomainError | null {
  if (e instanceof DomainError) return e;
  const storage = storageFault(e);
  if (storage !== null) return storage;
  if (isBodyParserError(e)) {
    if (e.type === 'entity.too.large') {
      return new DomainError(
        'REQUEST_TOO_LARGE',
        `The request body is larger than this server accepts (${e.limit ?? 'the limit'} bytes). Send a smaller body.`,
      );
    }
    if (e.type === 'entity.parse.failed') {
      return new DomainError(
        'REQUEST_MALFORMED',
        'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.',
      );
    }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return new DomainError(
        'REQUEST_MALFORMED',
        'The request body uses an encoding this server does not read. Send UTF-8 JSON.',
      );
    }
  }
  return null;
}

function isBodyParserError(e: unknown): e is { type: string; limit?: number } {
  return (
    e instanceof Error &&
    typeof (e as { type?: unknown }).type === 'string' &&
    typeof (e as { status?: unknown }).status === 'number'
  );
}
