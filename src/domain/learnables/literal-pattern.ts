/**
 * Turning a piece of evidence (an address, a reference, a name) into an re2 source that matches that
 * text and nothing wider (§8, §13.1): every metacharacter escaped, and each end anchored so the
 * literal cannot be found inside a longer token (`PA-2026-0901` must not match `PA-2026-09012` or
 * `PA-2026-0901-7`; `ops@fw.example` must not match `cops@fw.example.org`).
 *
 * re2 has no lookaround, so an anchor is a group that matches the start or end of the text or one
 * character that cannot continue the token (plus, for tokens with inner separators, a separator
 * that is not followed by a letter or digit). The matched text may therefore carry one neighbouring
 * character; readings trim it for display.
 *
 * Owns: escaping and anchoring. Does not own: which evidence is worth suggesting (suggest.ts), or
 * what a lesson value looks like (the learnable's suggestion-value builder).
 */

/** re2 metacharacters outside a class. `-` and `/` are ordinary there and stay readable. */
const RE2_META = /[\\^$.|?*+()[\]{}]/g;

/** Escape every re2 metacharacter so `text` matches itself literally. */
export function escapeRe2(text: string): string {
  return text.replace(RE2_META, '\\$&');
}

const ALNUM = '\\p{L}\\p{N}';

/** How a token may continue on each side; characters that would make it a longer token. */
export type TokenShape = 'reference' | 'address' | 'domain' | 'mailbox' | 'words';

/** What may stand before and after an address or domain written in running text. */
const MAILBOX_HEAD = `(?:^|[^${ALNUM}._%+-])`;
const MAILBOX_TAIL = `(?:$|[^${ALNUM}_.@-]|\\.(?:$|[^${ALNUM}]))`;
/** What may stand before and after a whole reference: no letter, digit or separator. */
export const REFERENCE_HEAD = `(?:^|[^${ALNUM}/-])`;
export const REFERENCE_TAIL = `(?:$|[^${ALNUM}/-])`;
const ADDRESS_HEAD = '(?:^|<)';
const FROM_TAIL = '(?:>|$)';
const WORD_EDGE = '\\b';

/**
 * Every anchor tokenPattern puts around a body, heads and tails, longest first (plain-mark.ts reads
 * a bounded source back to its text with them). The empty anchor stands for an open end.
 */
export const TOKEN_HEADS: readonly string[] = [MAILBOX_HEAD, REFERENCE_HEAD, ADDRESS_HEAD, WORD_EDGE, ''];
export const TOKEN_TAILS: readonly string[] = [MAILBOX_TAIL, REFERENCE_TAIL, FROM_TAIL, WORD_EDGE, ''];

/**
 * The re2 source for `text` as a whole token of the given shape, kept short enough for the person
 * confirming it to read:
 * - reference: letters/digits in segments joined by `-` or `/`; not touching a letter, a digit or
 *   another separator on either side (`PA-2026-0901` never inside `PA-2026-0901-7`);
 * - address: a sender's whole address in the from part, which reads `Name <address>` or `address`
 *   (partText), so it is bounded by `<`/`>` or the ends: `(?:^|<)billing@origin\.example(?:>|$)`;
 * - domain: `@` and a sender's whole domain at the end of the from part;
 * - mailbox: an address or domain written in running text (a body, a quoted header): not inside a
 *   longer address or host name on either side (`billing@origin.example` never inside
 *   `ebilling@origin.example.net`), a sentence's full stop after it allowed;
 * - words: a name or phrase; each ASCII letter or digit end must not touch another one.
 */
export function tokenPattern(text: string, shape: TokenShape): string {
  const body = escapeRe2(text);
  switch (shape) {
    case 'reference':
      return REFERENCE_HEAD + body + REFERENCE_TAIL;
    case 'address':
      return ADDRESS_HEAD + body + FROM_TAIL;
    case 'domain':
      return body + FROM_TAIL;
    case 'mailbox':
      return MAILBOX_HEAD + body + MAILBOX_TAIL;
    case 'words': {
      // An ASCII end gets a word boundary. A name ending in another script is left open on that
      // end: re2's \b is ASCII-only, and the matcher's prefilter (and so the learnable) needs a
      // mark in such a script to be a plain literal; an affix there (Arabic و, ال) is still the name.
      const head = isAsciiWord(text.charAt(0)) ? WORD_EDGE : '';
      const tail = isAsciiWord(text.charAt(text.length - 1)) ? WORD_EDGE : '';
      return head + body + tail;
    }
  }
}

function isAsciiWord(c: string): boolean {
  return /^[A-Za-z0-9_]$/.test(c);
}

/** Matched text for display: without the anchor's neighbouring character and surrounding space. */
export function displayText(matched: string): string {
  return matched.trim().replace(/^[\s<>()[\]{}"'`,;:.!?/-]+|[\s<>()[\]{}"'`,;:.!?/-]+$/gu, '');
}
