/**
 * A plain literal mark: a source with no metacharacters once escapes are undone, ASCII only, so its
 * prefilter hit is already re2's answer (§13.3).
 *
 * Owns: recognising one and giving its folded text. Does not own: `\b`-anchored literals
 * (bounded-literal.ts) or atoms of other sources (atoms.ts).
 */
/**
 * The literal a pattern stands for when it has no metacharacters once escapes are undone and is
 * ASCII only (then the prefilter's hit is already re2's answer), else null.
 */
export function plainLiteral(source: string): string | null {
  if (!PLAIN_LITERAL.test(source)) return null;
  // ASCII only, so toLowerCase is foldCodeUnit (and gives a flat string, cheap to hash and sort).
  return (source.includes('\\') ? source.replace(/\\(.)/g, '$1') : source).toLowerCase();
}

/**
 * A plain literal's source: ASCII characters other than the metacharacters `^$.*+?()[]{}|` and the
 * backslash, or a backslash before a punctuation character that stands for itself. One native test,
 * not a loop over code units: a compile reads every literal mark's source, mostly before the JIT
 * has warmed (atoms.test.ts holds the loop it replaced and proves them equal).
 */
const PLAIN_LITERAL = /^(?:[^\\^$.*+?()[\]{}|\x80-\uffff]|\\[\^$\\.*+?()[\]{}|/\-@#:,'"!%&=<>`~ ;_])+$/;
