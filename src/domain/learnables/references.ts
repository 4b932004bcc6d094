/**
 * Shipment references in free text, taken WHOLE (§8 rationale): `PA-2026-0901`, never `PA-2026`;
 * `HBL/2026/00412/A` with every segment, letters and digits alike.
 *
 * A reference is a maximal run of letter/digit segments joined by `-` or `/` that holds a digit and
 * either has two or more segments (six or more characters in all) or mixes letters and digits in
 * one segment (three letters and four digits, or eight characters). Dates, times, plain numbers, flight numbers (`EK123`) and words are not references.
 *
 * Owns: finding references. Does not own: turning one into a pattern (literal-pattern.ts).
 */

export interface Reference {
  /** The reference exactly as written. */
  readonly text: string;
  /** Offset in the text it was found in (UTF-16 code units). */
  readonly index: number;
}

// Maximal runs: a segment is letters/digits (any script), joined by single - or /.
const RUN = /[\p{L}\p{N}]+(?:[-/][\p{L}\p{N}]+)*/gu;
const DATE_SHAPES = [
  /^\d{4}[-/]\d{1,2}[-/]\d{1,2}$/u, // 2026-09-01
  /^\d{1,2}[-/]\d{1,2}[-/]\d{2,4}$/u, // 01/09/2026
  /^\d{1,2}[-/]\d{1,2}$/u, // 14/09
  /^\d{4}[-/]\d{4}$/u, // 2025-2026
];
const HAS_DIGIT = /\p{N}/u;

/** Every reference in `text`, in order, each at most once (first occurrence). */
export function findReferences(text: string): Reference[] {
  const out: Reference[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    if (!isReference(run)) continue;
    const key = run.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: run, index: m.index });
  }
  return out;
}

/** Whether a whole run of segments is a reference (see the module header). */
export function isReference(run: string): boolean {
  if (!HAS_DIGIT.test(run)) return false;
  if (DATE_SHAPES.some((re) => re.test(run))) return false;
  const segments = run.split(/[-/]/);
  if (segments.length >= 2) return run.length >= 6 && segments.some((s) => s.length >= 3);
  // One segment: letters and digits mixed, long enough not to be a flight number (EK9012).
  const letters = (run.match(/\p{L}/gu) ?? []).length;
  const digits = run.length - letters;
  return letters > 0 && ((letters >= 3 && digits >= 4) || run.length >= 8);
}
