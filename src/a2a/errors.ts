/**
 * The one place where errors become JSON-RPC errors on the A2A endpoint (house style: one wire
 * mapping per transport). SDK errors keep the SDK's own codes; a DomainError keeps its message,
 * written for a person, and its code travels as a google.rpc.ErrorInfo `reason`; anything else is a
 * fault: an internal error with no internals, the cause logged.
 */
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import { A2AError } from '@a2a-js/sdk/errors';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import { EXTENSION_URI } from '../domain/extension.ts';
import { storageFault } from '../domain/storage-fault.ts';

export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: readonly Record<string, unknown>[];
}

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * The JSON-RPC code of every domain error code; the ErrorInfo `reason` carries the exact code. Total
 * like `HTTP_STATUS` (src/http/errors.ts): a new ErrorCode does not compile until it is given one here.
 * Problems with what was sent are INVALID_PARAMS; faults are INTERNAL_ERROR (message withheld, logged).
 */
export const JSON_RPC_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  LESSON_MALFORMED: INVALID_PARAMS,
  COLLECTION_UNKNOWN: INVALID_PARAMS,
  ENTRY_UNKNOWN: INVALID_PARAMS,
  LESSON_REFUSED: INVALID_PARAMS,
  TAUGHT_BY_NOT_A_PERSON: INVALID_PARAMS,
  DEFINITION_VERSION_NOT_FOUND: -32044,
  DEFINITION_VERSION_TOMBSTONED: -32050,
  ACTIVATION_NOT_FOUND: -32044,
  NOTHING_TO_REVERT: -32049,
  TENANT_UNKNOWN: -32044,
  IMPORT_MALFORMED: INVALID_PARAMS,
  MESSAGE_TOO_LARGE: INVALID_PARAMS,
  MESSAGE_UNREADABLE: INVALID_PARAMS,
  MESSAGE_NOT_FOUND: -32044,
  INPUT_NOT_ACCEPTED: INVALID_PARAMS,
  ANSWER_NOT_UNDERSTOOD: INVALID_PARAMS,
  UNAUTHENTICATED: -32040,
  FORBIDDEN: -32043,
  NOT_FOUND: -32044,
  MESSAGE_TEXT_DISCARDED: -32050,
  CONFLICT: -32049,
  REQUEST_MALFORMED: INVALID_PARAMS,
  REQUEST_TOO_LARGE: INVALID_PARAMS,
  SERVER_BUSY: -32053,
  STORAGE_FULL: -32053,
  STORAGE_READ_ONLY: -32053,
  AUTHORITY_UNAVAILABLE: -32053,
  AUTH_THROTTLED: -32040,
  CONFIG_INVALID: INTERNAL_ERROR,
  INTERNAL: INTERNAL_ERROR,
});

const INTERNAL_MESSAGE =
  'Something went wrong on our side. The request was not completed; try again, and if it keeps failing tell the operator.';

export function toJsonRpcError(
  thrown: unknown,
  log: (message: string, cause: unknown) => void,
): JsonRpcError {
  // A write the disk refused is worded for the caller (domain/storage-fault.ts), not a fault.
  const e = storageFault(thrown) ?? thrown;
  if (e instanceof DomainError) {
    const code = JSON_RPC_CODE[e.code];
    if (code === INTERNAL_ERROR) {
      log(`${e.code}: ${e.message}`, e);
      return { code, message: INTERNAL_MESSAGE, data: [errorInfo('INTERNAL', undefined)] };
    }
    return { code, message: e.message, data: [errorInfo(e.code, e.details)] };
  }
  if (e instanceof A2AError) return JsonRpcTransportHandler.mapToJSONRPCError(e);
  log('unexpected error in a JSON-RPC method', e);
  return { code: INTERNAL_ERROR, message: INTERNAL_MESSAGE, data: [errorInfo('INTERNAL', undefined)] };
}

function errorInfo(
  code: string,
  details: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(details ?? {}))
    metadata[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: code,
    domain: EXTENSION_URI,
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
  };
}
