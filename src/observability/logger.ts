/**
 * The process's structured log: pino, one JSON object per line on stderr, at LOG_LEVEL. Owns what a
 * line may never carry (§14, house rules): pino's `redact` removes secrets, tokens, Authorization
 * headers and any field that could hold a lesson value or mail text, and every line, whatever wrote
 * it, passes through `redactText` last, so an address never reaches the log in clear.
 *
 * Does not own: what to log (each adapter decides), or the request line (http-log.ts).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { redactForLog, redactText } from '../domain/log-redaction.ts';

export type { Logger } from 'pino';

/** The levels LOG_LEVEL accepts (config.ts validates against this list). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fields removed from every line, at the top level and one level down: credentials (a token, a
 * password, a signing key, the Authorization and Cookie headers) and what could hold a lesson value
 * or a message's text (`value`, `lesson`, `body`, `text`, `html`, `raw`, `subject`).
 */
const SECRET_FIELDS = ['authorization', 'cookie', 'token', 'password', 'secret', 'signingKey', 'apiKey'];
const CONTENT_FIELDS = ['value', 'lesson', 'body', 'text', 'html', 'raw', 'subject'];
export const REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...[...SECRET_FIELDS, ...CONTENT_FIELDS].flatMap((f) => [f, `*.${f}`]),
];

export const REDACTED = '[redacted]';

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Where lines go. Default: stderr, written synchronously (a fatal line is not lost on exit). */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      // §14: the last step of every line, whatever field an address hides in (a Message-ID, a URL).
      hooks: { streamWrite: (line) => redactText(line) },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** A FaultLog (src/http/errors.ts's shape) writing an error line with its cause, redacted. */
export function faultLogOf(logger: Logger): (message: string, cause: unknown) => void {
  return (message, cause) => logger.error({ err: redactForLog(cause) }, message);
}
