/**
 * A customer's reference family: the shape its own references share, so one lesson
 * covers the next shipment too. `NVMA-2026-1234` is the family `NVMA-####-####`: its leading
 * letters kept, every segment holding a digit generalised to its exact length, each separator
 * kept. The re2 source is anchored like a whole reference (literal-pattern.ts), so `NVMA-` never
 * claims `XNVMA-` or `NVMAX-` (a longer prefix of another customer's), and a year is never the
 * prefix: the prefix must be letters only, so `2026/…` has no family.
 *
 * Owns: the shape of a family and its source. Does not own: whether the corpus backs it (only the
 * customers evidence and ../suggest.ts's judge decide that, with the corpus probe).
 */
import { escapeRe2, REFERENCE_HEAD, REFERENCE_TAIL } from '../literal-pattern.ts';

export interface ReferenceFamily {
  /** The literal leading letters, as written ("NVMA"): the corpus prefilter's hint. */
  readonly prefix: string;
  /** In a person's words: `NVMA-####-####` (each # a digit or letter position). */
  readonly shown: string;
  /** Anchored re2 source matching every reference of this shape and nothing longer. */
  readonly source: string;
}

/** Shortest prefix a family may have, in letters: two-letter prefixes are everybody's. */
export const MIN_FAMILY_PREFIX = 3;

const ALNUM = '\\p{L}\\p{N}';

/** The family of a whole reference, or null when it has no letters-only prefix or nothing to generalise. */
export function referenceFamily(reference: string): ReferenceFamily | null {
  const pieces = reference.split(/([-/])/u);
  const [first] = pieces;
  if (first === undefined || pieces.length < 3) return null;
  if (!/^\p{L}+$/u.test(first) || [...first].length < MIN_FAMILY_PREFIX) return null;
  let source = escapeRe2(first);
  let shown = first;
  let generalised = 0;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i % 2 === 1) {
      source += escapeRe2(piece);
      shown += piece;
    } else if (/^\p{N}+$/u.test(piece)) {
      source += `\\d{${piece.length}}`;
      shown += '#'.repeat(piece.length);
      generalised++;
    } else if (/\p{N}/u.test(piece)) {
      source += `[${ALNUM}]{${[...piece].length}}`;
      shown += '#'.repeat([...piece].length);
      generalised++;
    } else {
      // A letters-only segment is part of the family's name (HBL/…/NVMA): kept as written.
      source += escapeRe2(piece);
      shown += piece;
    }
  }
  if (generalised === 0) return null;
  return { prefix: first, shown, source: REFERENCE_HEAD + source + REFERENCE_TAIL };
}
