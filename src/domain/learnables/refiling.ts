/**
 * Re-filing mail already read (§13.1), for learnables whose lesson value carries the
 * `alreadyRead` choice (marked-value.ts): whether a value asks to re-file, and the refusal when a
 * lesson would change how messages already settled or answered are filed, in a person's words
 * ("This would re-file 2 messages already read as Al Jazira Trading WLL: 'Debit note …' on 8 Sep").
 *
 * Owns: those words. Does not own: finding the messages (triage/lesson-check.ts), or refusing (the
 * authority, absorb.ts).
 */
import type { AlreadyRead, LessonValue, Refiling } from './learnable.ts';
import { listWords } from './value-shape.ts';

/** A marked learnable's `Refiling`: `allows` reads its parsed value; words name its field. */
export function markedRefiling(
  allows: (value: LessonValue) => boolean,
  field: { readonly name: string; readonly label: string; readonly choice: string },
): Refiling {
  return {
    field: field.name,
    allows,
    refusal(entryLabel: string, read: AlreadyRead): string {
      const shown = read.examples
        .slice(0, MAX_NAMED)
        .map((m) => `'${oneLine(m.subject)}' on ${dayOf(m.date)}`);
      const more = read.refiled - shown.length;
      const verb = read.examples.every((m) => m.becomes === null) ? 'leave undecided' : 're-file';
      return (
        `This would ${verb} ${read.refiled} message${read.refiled === 1 ? '' : 's'} already read as ${whose(read)}: ` +
        `${listWords(shown)}${more > 0 ? ` and ${more} more` : ''}. Nothing was learned. ` +
        `Teach something only ${entryLabel}'s mail holds, or, if those messages were filed wrongly, ` +
        `choose "${field.choice}" in "${field.label}".`
      );
    },
  };
}

/** Most messages a refusal names. */
const MAX_NAMED = 3;

/** "Al Jazira Trading WLL", or "Al Jazira Trading WLL (2) and Brandt (1)". */
function whose(read: AlreadyRead): string {
  const counts = new Map<string, number>();
  for (const m of read.examples) counts.set(m.wasLabel, (counts.get(m.wasLabel) ?? 0) + 1);
  if (counts.size === 1) return [...counts.keys()][0]!;
  return listWords(
    [...counts].map(
      ([label, n]) => `${label} (${n}${read.examples.length < read.refiled ? ' or more' : ''})`,
    ),
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "8 Sep" (UTC), or the text as stored when it is no date. */
function dayOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!}`;
}

function oneLine(subject: string): string {
  const s = subject.replace(/\s+/g, ' ').trim();
  return s.length > 80 ? `${s.slice(0, 79)}…` : s === '' ? '(no subject)' : s;
}
