/**
 * How readings are presented on the wire: the one place that turns a domain `MessageReading` (a map
 * of readings by collection) into the JSON a client sees in a task's `reading` artifact and in
 * show-back (§11): `{ versionId, definitionVersion, <shownAs>: <report>, … }`, each collection's
 * report under the key its reader names (`shownAs`), in declaration order, then `notes` (what could
 * not be read of the message) when there are any; and the summary text, one line per reading that
 * has one, then the notes.
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
  // what could not be read of the message (a broken or encrypted attachment), never a failed task
  if (reading.notes !== undefined && reading.notes.length > 0) out.notes = [...reading.notes];
  return { ...out };
}

/** The status and artifact text: each reading's line, in order ("Read." when none has one), then each note. */
export function readingSummary(reading: MessageReading): string {
  const lines = [...reading.readings.values()].flatMap((r) => (r.line === null ? [] : [r.line]));
  const notes = reading.notes ?? [];
  return [...(lines.length === 0 ? ['Read.'] : lines), ...notes].join('\n');
}

/** A question in words, followed by what could not be read of the message (a person answering should know). */
export function withNotes(text: string, reading: MessageReading): string {
  const notes = reading.notes ?? [];
  return notes.length === 0 ? text : [text, ...notes].join('\n');
}
