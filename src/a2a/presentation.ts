/**
 * How readings are presented on the wire: the one place that turns a domain `MessageReading` (a map
 * of readings by collection) into the JSON a client sees in a task's `reading` artifact and in
 * show-back (§11): `{ versionId, definitionVersion, <shownAs>: <report>, … }`, each collection's
 * report under the key its reader names (`shownAs`), in declaration order; and the summary text,
 * one line per reading that has one.
 *
 * Owns: the wire shape of a reading. Does not own: what a report holds (each learnable's reader) or
 * the task lifecycle (executor.ts). Names no collection.
 */
import type { MessageReading } from '../domain/triage/index.ts';

/** §11's report (show-back), and the body of a completed task's reading (without its pin). */
export function presentReading(reading: MessageReading): Record<string, unknown> {
  // Keys come from readers (data): a null-prototype record keeps a `shownAs` of "__proto__" a key.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  out.versionId = reading.versionId;
  out.definitionVersion = reading.definitionVersion;
  for (const r of reading.readings.values()) out[r.shownAs] = r.report;
  return { ...out };
}

/** The status and artifact text: each reading's line, in order; "Read." when none has one. */
export function readingSummary(reading: MessageReading): string {
  const lines = [...reading.readings.values()].flatMap((r) => (r.line === null ? [] : [r.line]));
  return lines.length === 0 ? 'Read.' : lines.join('\n');
}
