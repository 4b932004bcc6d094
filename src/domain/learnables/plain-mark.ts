/**
 * Marks in people's words (§13.3, §8): a person types an address, a reference or a
 * phrase as they see it, and the learnable bounds it itself, exactly as a suggestion of the same
 * evidence is bounded (literal-pattern.ts), so that `billing@origin.example` never matches
 * `ebilling@origin.example.net` and `PA-2026-0901` never matches `PA-2026-0901-7`.
 *
 * Text is plain when it holds none of `\ ^ $ | ? * + ( ) [ ] { }`, or when it is an address whose
 * local part uses the characters an address may (`billing+ops@origin.example`); a dot in
 * it is a dot. Anything else is a regular expression and is matched as written. The stored mark is the bounded source,
 * the same as before (old versions read the same), and `plainOf` gives the text back for display
 * and for the wire, so a suggestion travels as what a person would have typed.
 *
 * Owns: which plain text is which shape in which part, and the way back. Does not own: escaping
 * and anchoring (literal-pattern.ts), or judging the result (pattern.ts).
 */
import { TOKEN_HEADS, TOKEN_TAILS, tokenPattern } from './literal-pattern.ts';

/** The characters that make typed text a regular expression. */
const PATTERN_SYNTAX = /[\\^$|?*+()[\]{}]/;
const ADDRESS = /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;.]+$/u;
const DOMAIN = /^@?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;
const REFERENCE = /^[\p{L}\p{N}]+(?:[-/][\p{L}\p{N}]+)*$/u;
const HAS_DIGIT = /\p{N}/u;
/**
 * An address as a person types it (RFC 5322 dot-atom local part: letters, digits and
 * ! # $ % & ' * + - / = ? ^ _ ` { | } ~, dots between them; a domain of labels): plain, whatever
 * of those characters it holds. A regular expression for addresses needs `\`, `(`, `[` or a
 * leading or doubled dot, none of which an address has.
 */
const TYPED_ADDRESS =
  /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;

/** §6.3: how a lesson field's help says which forms it takes, so every client can render it blind. */
export const PLAIN_OR_PATTERN_HELP =
  'Matched without regard to case. An address is always taken as typed (billing+ops@origin.example). Other text with any of \\ ^ $ | ? * + ( ) [ ] { } is a regular expression, matched as written.';

/** Whether a person's text is plain (bounded by the learnable) rather than a regular expression. */
export function isPlainText(text: string): boolean {
  const t = text.trim();
  return t !== '' && (!PATTERN_SYNTAX.test(t) || TYPED_ADDRESS.test(t));
}

/**
 * The re2 source a plain text stands for when looked for in `where`, or null when the text is a
 * regular expression: an address is a whole address (in the from line, the sender's own); a domain
 * in the from line is the sender's whole domain; a reference is a whole reference; words are whole
 * words at their ASCII ends.
 */
export function boundPlain(typed: string, where: string): string | null {
  const text = typed.trim();
  if (!isPlainText(text)) return null;
  if (ADDRESS.test(text) || TYPED_ADDRESS.test(text))
    return tokenPattern(text, where === 'from' ? 'address' : 'mailbox');
  if (DOMAIN.test(text)) {
    if (where !== 'from') return tokenPattern(text, 'mailbox');
    return tokenPattern(text.startsWith('@') ? text : `@${text}`, 'domain');
  }
  if (REFERENCE.test(text) && HAS_DIGIT.test(text)) return tokenPattern(text, 'reference');
  return tokenPattern(text, 'words');
}

/**
 * The plain text a stored source was bounded from in `where`, or null when it is a pattern of its
 * own (a family, a cue with alternatives, a mark taught as a regular expression). Exact: the text
 * given back bounds to the very same source.
 */
export function plainOf(source: string, where: string): string | null {
  for (const head of TOKEN_HEADS) {
    if (!source.startsWith(head)) continue;
    for (const tail of TOKEN_TAILS) {
      if (!source.endsWith(tail) || head.length + tail.length >= source.length) continue;
      const text = source.slice(head.length, source.length - tail.length).replace(/\\(.)/gu, '$1');
      if (boundPlain(text, where) === source) return text;
    }
  }
  return null;
}

/** A stored mark as a person reads it: `'billing@origin.example'`, or `the pattern '…'`. */
export function shownMark(source: string, where: string): string {
  const plain = plainOf(source, where);
  return plain === null ? `the pattern '${source}'` : `'${plain}'`;
}
