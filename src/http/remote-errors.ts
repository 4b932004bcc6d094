/**
 * The authority's error answers, as this process raises them (§12.1). Answers about versions pass
 * through as themselves (a tombstoned version stays 410's code); any other answer to the agent's
 * own token is a fault of the deployment, not of the agent's caller. An answer to a caller's own
 * token (a forwarded erase, §14, or lesson) is the caller's, as it stands, with what to
 * do when the token was not the authority's; a write forwarded without a bearer token is refused
 * here first (`callerBearer`).
 *
 * Does not own: calling the authority (remote-authority.ts).
 */
import { DomainError, ERROR_CODES, type ErrorCode } from '../domain/errors.ts';
import { isPlainObject } from '../domain/json.ts';

const PASS_THROUGH = [
  'DEFINITION_VERSION_NOT_FOUND',
  'DEFINITION_VERSION_TOMBSTONED',
  'TENANT_UNKNOWN',
] as const satisfies readonly ErrorCode[];

/** The authority's error body becomes the same DomainError here (e.g. a tombstoned version stays 410's code). */
export function remoteError(status: number, body: unknown, path: string): Error {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : null;
  const code = error !== null && typeof error.code === 'string' ? error.code : null;
  const message =
    error !== null && typeof error.message === 'string'
      ? error.message
      : `The authority answered ${status} to GET ${path}.`;
  // Only answers about versions pass through as themselves; a 401/403 means this agent's own
  // AUTHORITY_TOKEN is wrong, which is a fault of the deployment, not of the agent's caller.
  if (code !== null && (PASS_THROUGH as readonly string[]).includes(code)) {
    const details = isPlainObject(error?.details) ? error.details : undefined;
    return new DomainError(code as ErrorCode, message, details === undefined ? undefined : { details });
  }
  return new Error(`The authority answered ${status} to GET ${path}: ${message}`);
}

/**
 * The authority's refusal of a caller's own request (an erase forwarded for them), as the same
 * DomainError: its code and its words, with what to do when the token was not the authority's.
 */
export function callerError(status: number, body: unknown, url: string): Error {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : null;
  const code = error !== null && typeof error.code === 'string' ? error.code : null;
  const message = error !== null && typeof error.message === 'string' ? error.message : null;
  if (code === 'UNAUTHENTICATED') {
    return new DomainError(
      'UNAUTHENTICATED',
      `The authority at ${url} did not accept this token (${message ?? status}). An erase is the authority's to do (§14): send the authority's admin token (the one lessons are posted with); this agent forwards the erase and then erases its own copies.`,
    );
  }
  if (code !== null && message !== null && (ERROR_CODES as readonly string[]).includes(code)) {
    const details = isPlainObject(error?.details) ? error.details : undefined;
    return new DomainError(code as ErrorCode, message, details === undefined ? undefined : { details });
  }
  return new Error(`The authority at ${url} answered ${status} to a forwarded erase.`);
}

/**
 * The caller's Authorization header for a write this agent forwards with it (an erase, a lesson),
 * or UNAUTHENTICATED saying `need` (what token the write needs and how to send it).
 */
export function callerBearer(authorization: string | undefined, need: string): string {
  if (authorization === undefined || !/^bearer\s+\S/i.test(authorization)) {
    throw new DomainError('UNAUTHENTICATED', need);
  }
  return authorization;
}
