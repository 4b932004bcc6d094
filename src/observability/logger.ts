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
const CENSORED: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...CONTENT_FIELDS]);
/** Headers censored two levels down (`req.headers.*`, `res.headers.*`). */
const CENSORED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'x-api-key', 'set-cookie']);
export const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `fields` with every censored field replaced by REDACTED, at the top level, one level down, and
 * in `req.headers` / `res.headers`; the caller's object is never changed (copies only where a field
 * is censored). What pino's `redact` with the paths `f` and `*.f` did, without its cost: measured
 * 100 to 150 µs a line with those wildcard paths against about 20 µs for a plain line (issue 15,
 * docs/performance.md), paid twice per triage.
 */
export function censorFields(fields: Fields): Fields {
  let out: Fields | null = null;
  for (const key of Object.keys(fields)) {
    const v = fields[key];
    let next: unknown = v;
    if (CENSORED.has(key)) next = REDACTED;
    else if (isObject(v)) next = censorChild(v, key === 'req' || key === 'res');
    if (next !== v) {
      out ??= { ...fields };
      out[key] = next;
    }
  }
  return out ?? fields;
}

function censorChild(fields: Fields, withHeaders: boolean): Fields {
  let out: Fields | null = null;
  for (const key of Object.keys(fields)) {
    const v = fields[key];
    let next: unknown = v;
    if (CENSORED.has(key)) next = REDACTED;
    else if (withHeaders && key === 'headers' && isObject(v)) {
      const headers = v;
      if (Object.keys(headers).some((h) => CENSORED_HEADERS.has(h))) {
        const copy: Fields = { ...headers };
        for (const h of Object.keys(copy)) if (CENSORED_HEADERS.has(h)) copy[h] = REDACTED;
        next = copy;
      }
    }
    if (next !== v) {
      out ??= { ...fields };
      out[key] = next;
    }
  }
  return out ?? fields;
}

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
      formatters: {
        level: (label) => ({ level: label }),
        // Fields a line may never carry, by name.
        log: censorFields,
        bindings: (bindings) => censorFields(bindings ?? {}),
      },
      // pino resets the bindings formatter for a child, but not serializers: a child's censored
      // bindings (and top-level fields again) go through these.
      serializers: Object.fromEntries([...CENSORED].map((f) => [f, () => REDACTED])),
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
