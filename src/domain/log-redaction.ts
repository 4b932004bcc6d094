/**
 * §14: what a log line may carry. Logs have their own retention and readers, so an address (a
 * sender, a recipient, a Message-ID built on one, a lesson value naming one) never reaches them in
 * clear: every log writer passes its line through `redactForLog`, which replaces each e-mail
 * address with "[address]". Lesson values and mail bodies are not logged at all; a fault's cause
 * is logged only through this function.
 *
 * Does not own: writing logs (src/observability/logger.ts runs every line through redactText).
 */
import { inspect } from 'node:util';

/** An e-mail address as it appears in text, in a header, a Message-ID or a JSON string. */
const ADDRESS = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

const REDACTED_ADDRESS = '[address]';

/** `text` with every e-mail address replaced by "[address]". */
export function redactText(text: string): string {
  return text.replace(ADDRESS, REDACTED_ADDRESS);
}

/** Any value (an Error with its stack and causes, an object of fields) as one redacted string. */
export function redactForLog(value: unknown): string {
  return redactText(typeof value === 'string' ? value : inspect(value, { depth: 6, breakLength: Infinity }));
}

/** A JSON-able object of log fields with every string in it redacted (keys included). */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(redactText(JSON.stringify(fields))) as Record<string, unknown>;
}
