/**
 * What a log line or a metric needs to know about the call it happens in, without threading it
 * through every port: the request id (set by the HTTP request log) and the path a message arrived
 * by (A2A, IMAP, a webhook; set by the mail pipelines' submitter). AsyncLocalStorage carries it
 * through the SDK's request handler into the triage boundary (observed-triage.ts).
 *
 * Does not own: any domain state (the domain never reads it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface CallContext {
  /** The HTTP request's id (X-Request-Id), when the call came over HTTP. */
  readonly requestId?: string;
  /** How the message arrived: `a2a` (default), `imap`, `webhook:postmark`, … */
  readonly path?: string;
  /**
   * Adds fields to the HTTP request's one log line (http-log.ts); false once that line is written.
   * Absent outside an HTTP request (an IMAP sweep).
   */
  readonly addToLine?: (fields: Readonly<Record<string, unknown>>) => boolean;
}

const storage = new AsyncLocalStorage<CallContext>();

/** Runs `fn` with `context` added to the current one. */
export function withCallContext<T>(context: CallContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

export function currentCallContext(): CallContext {
  return storage.getStore() ?? {};
}

/**
 * Puts `fields` on the current HTTP request's log line (one line per request at info),
 * or, outside a request or once its line is written, writes them as a line of their own.
 */
export function logWithRequest(
  log: (fields: Record<string, unknown>, message: string) => void,
  fields: Readonly<Record<string, unknown>>,
  message: string,
): void {
  if (currentCallContext().addToLine?.(fields) !== true) log({ ...fields }, message);
}

/** A log of three levels, as the mail pipelines take one (ingest/ports.ts `IngestLog`). */
interface LevelLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * `log` with its `info` lines joining the current HTTP request's line (`logWithRequest`): what the
 * mail pipelines take in during a webhook's request is told on that request's one line. Warnings
 * and errors keep lines of their own.
 */
export function joiningRequestLine(log: LevelLog): LevelLog {
  return {
    info: (fields, message) => logWithRequest((f, m) => log.info(f, m), fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
  };
}
