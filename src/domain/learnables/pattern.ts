/**
 * Judging a typed pattern before it becomes a mark (§13.3, §13.1): shared by every learnable whose
 * lesson value is text to be matched (customers' patterns, kinds' cues). A pattern is compiled on
 * re2 with flags 'iu' AT ABSORPTION TIME, never first inside a running task, and refused with a
 * reason written for the person who typed it.
 *
 * Owns: the refusal rules and their wording (the common-word lists and the sample texts used to
 * spot patterns that match nearly everything are pattern-words.ts), and identifier search inside a
 * pattern (§14).
 *
 * What is matched is what the person saw: a pattern is put in Unicode NFC (mail text is too, where
 * the ingest builds the MailMessage), and one holding a character nobody can see (zero-width space,
 * joiners, soft hyphen, BOM, a bidirectional control such as U+202E, any other format or control
 * character) is refused, naming the code point and where it is; one that is really meant (a
 * Persian zero-width non-joiner) can be written visibly as an escape, `\u200C`. A word that mixes
 * Latin, Cyrillic and Greek letters (`dеsk` with a Cyrillic е) is refused as a look-alike: it would
 * never match the word it looks like. Words in different scripts side by side are fine.
 * Does not own: matching mail (src/domain/matching/matcher.ts) or which literals a pattern must
 * contain (src/domain/matching, whose analysis the matcher's prefilter also uses, so the two agree).
 */
import { RegExpParser } from '@eslint-community/regexpp';
import RE2 from 're2';
import { literalAtoms, type MatchingRuntime } from '../matching/index.ts';
import { FILLER_WORDS, FREIGHT_WORDS, SAMPLE_TEXTS } from './pattern-words.ts';

/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_CHARS = 512;

/** The flags every user pattern runs with, here and in the matcher. */
const PATTERN_FLAGS = 'iu';

const regexParser = new RegExpParser({ ecmaVersion: 2025 });

export interface PatternRules {
  /** What the value is called in a refusal: "pattern" (customers), "cue" (kinds). */
  readonly noun: string;
  /** Whether a pattern made only of freight words is refused too (customers: yes; kinds: no). */
  readonly refuseFreightWords: boolean;
  /**
   * Refuse when the pattern matches at least this share of SAMPLE_TEXTS (customers 0.25: a mark
   * about one customer matches none of them; kinds 0.5: a cue names a kind that ordinary mail has).
   */
  readonly maxSampleShare: number;
  /** Whose text a mark should be, for refusal reasons: "only this customer's mail contains". */
  readonly onlyIn: string;
  /** What the pattern should say instead, for refusal reasons: "like an address or a reference". */
  readonly example: string;
  /**
   * A two- or three-character code (INV, POD, BL) is read as a whole word (`\bINV\b`) instead of
   * being refused for its length (kinds: such codes are how whole kinds of mail are labelled).
   * Customers keep the four-character rule: a short code cannot single out one customer.
   */
  readonly shortCodesAsWords?: boolean;
}

/** "INV", or "\bINV\b" as a suggestion spells it. */
const SHORT_CODE = /^(?:\\b)?([\p{L}\p{N}]{2,3})(?:\\b)?$/u;

/** How the learnable bounds plain text it is given (plain-mark.ts), or null for a regular expression. */
export type PlainBinding = (typed: string) => string | null;

export type PatternVerdict =
  { readonly ok: true; readonly source: string } | { readonly ok: false; readonly reason: string };

/**
 * Judge a pattern a person typed. Never throws; the source returned is trimmed and is exactly what
 * the matcher will compile with PATTERN_FLAGS.
 */
export function judgePattern(
  raw: string,
  rules: PatternRules,
  runtime?: Pick<MatchingRuntime, 'analysedRegex'>,
  bound?: PlainBinding,
): PatternVerdict {
  const hidden = invisibleCharacter(raw);
  if (hidden !== null) {
    return {
      ok: false,
      reason: `"${shorten(showInvisible(raw))}" is not a usable ${rules.noun}: ${hidden}`,
    };
  }
  const trimmed = raw.trim().normalize('NFC');
  const typed = dropNeedlessEscapes(trimmed);
  const code = rules.shortCodesAsWords === true ? SHORT_CODE.exec(typed)?.[1] : undefined;
  const wholeWordCode = code !== undefined;
  // Plain text is bounded by the learnable (plain-mark.ts); a refusal quotes it as typed.
  const plain = wholeWordCode ? null : (bound?.(trimmed) ?? null);
  const source = wholeWordCode ? `\\b${code}\\b` : (plain ?? typed);
  const refuse = (why: string): PatternVerdict => ({
    ok: false,
    reason: `"${shorten(plain === null ? source : trimmed)}" is not a usable ${rules.noun}: ${why}`,
  });

  if (source === '') {
    return {
      ok: false,
      reason: `An empty ${rules.noun} would match every message; type text that every message it should match contains, ${rules.example}.`,
    };
  }
  if (source.length > MAX_PATTERN_CHARS) {
    return refuse(
      `it is ${source.length} characters long and the limit is ${MAX_PATTERN_CHARS}; use the shortest text that gives it away.`,
    );
  }

  const lookAlike = mixedScriptWord(plain === null ? source : trimmed); // positions in what was typed
  if (lookAlike !== null) return refuse(lookAlike);

  // §13.3: compile now, on the engine that will run it, and pass its own reason on.
  let re: RE2;
  try {
    re = new RE2(source, PATTERN_FLAGS);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return refuse(
      `${why}. To match a character such as ( ) [ ] . + * ? literally, put a backslash before it, e.g. \\( or \\.`,
    );
  }

  if (matchesEmptyText(re)) {
    return refuse(
      `it matches empty text, so it would match every message. Type text that every match contains, ${rules.example}.`,
    );
  }

  const common = commonWordsOnly(source, rules.refuseFreightWords);
  if (common !== null) {
    return refuse(
      `${common} in most mail, so it would match nearly every message. Use text that ${rules.onlyIn}, ${rules.example}.`,
    );
  }

  const hits = SAMPLE_TEXTS.filter((t) => re.test(t)).length;
  if (hits >= rules.maxSampleShare * SAMPLE_TEXTS.length) {
    return refuse(
      `it matched ${hits} of ${SAMPLE_TEXTS.length} ordinary sample messages, so it would match a large share of all mail. Make it narrower, ${rules.example}.`,
    );
  }

  const syntax = re2OnlySyntax(source);
  if (syntax !== null) return refuse(syntax);

  // The matcher's literal prefilter needs at least one literal of four or more characters in every
  // match (§13.1); a pattern without one is also too loose to be a safe mark.
  // A plain literal in another script ("فاتورة") has no ASCII atom but is as narrow as its text:
  // the matcher runs such marks without a prefilter, and they are few.
  // A whole-word code is as narrow as the word; the matcher runs such marks without a prefilter.
  // Judged with a runtime, the analysis is remembered there, so the compile of the version this
  // lesson makes over that runtime reads it instead of analysing the source again.
  const atoms = (): readonly string[] | null =>
    runtime === undefined ? literalAtoms(source) : runtime.analysedRegex(source).atoms;
  if (!wholeWordCode && !isPlainLiteral(source) && atoms() === null) {
    return refuse(
      `it has no fixed text to look for. Add at least four letters or digits that every match contains, ${rules.example} (e.g. PA-2026-\\d{4} rather than [A-Z]{2}-\\d{4}-\\d{4}).`,
    );
  }

  return { ok: true, source };
}

/** re2's reason a source does not compile with PATTERN_FLAGS, or null when it compiles. */
export function re2Error(source: string): string | null {
  try {
    new RE2(source, PATTERN_FLAGS);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Punctuation people escape out of habit (`PA\-2026`); literal in re2 either way. */
const NEEDLESS_ESCAPES = new Set('-@#:,;\'"!%&=<>`~ _'.split(''));

/**
 * `PA\-2026\-0901` -> `PA-2026-0901`: the same pattern to re2, but one the matcher's literal
 * parser (JavaScript unicode mode, which forbids such escapes) can read. Inside a character class
 * `\-` is meaningful and kept.
 */
function dropNeedlessEscapes(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      const next = source[i + 1]!;
      out += !inClass && NEEDLESS_ESCAPES.has(next) ? next : c + next;
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

/** Escape every regex metacharacter, so the text matches itself literally. */
function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * §14: whether a pattern holds `identifier`, case-insensitively, as typed or regex-escaped
 * ("billing@origin.example" is found in "billing@origin\.example").
 */
export function patternMentions(pattern: string, identifier: string): boolean {
  const needle = identifier.trim().toLowerCase();
  if (needle === '') return false;
  const hay = pattern.toLowerCase();
  return hay.includes(needle) || hay.includes(escapeRegex(needle)) || unescapeRegex(hay).includes(needle);
}

function unescapeRegex(source: string): string {
  return source.replace(/\\([^a-zA-Z0-9])/g, '$1');
}

/** Zero-length matches on empty text or anywhere in the samples (e.g. `a*`, `(?:)`, `\b`). */
function matchesEmptyText(re: RE2): boolean {
  if (re.test('')) return true;
  for (const text of SAMPLE_TEXTS) {
    const m = re.exec(text);
    if (m !== null && m[0] === '') return true;
  }
  return false;
}

/**
 * When the pattern is nothing but common words (optionally wrapped in \b, ^, $, a group, or an
 * alternation of such), the words for the refusal ("'invoice'"); otherwise null.
 */
function commonWordsOnly(source: string, freight: boolean): string | null {
  let s = source.replace(/^\(\?i\)/, '');
  s = s.replace(/\\b|\^|\$/g, '');
  s = s.replace(/(?<!\\)s\?/g, 's'); // an optional plural is still the word
  s = s.replace(/^\(\?:(.*)\)$/s, '$1').replace(/^\((.*)\)$/s, '$1');
  // Anything still regex-like (classes, repeats, groups) is not a plain word: let the other rules judge it.
  if (hasUnescapedMeta(s)) return null;
  const alternatives = s.split(/(?<!\\)\|/).map((a) => unescapeRegex(a).trim().toLowerCase());
  if (alternatives.some((a) => a === '')) return null;
  const isCommon = (w: string): boolean => {
    const singular = w.endsWith('es')
      ? [w, w.slice(0, -2), w.slice(0, -1)]
      : w.endsWith('s')
        ? [w, w.slice(0, -1)]
        : [w];
    return singular.some((x) => FILLER_WORDS.has(x) || (freight && FREIGHT_WORDS.has(x)));
  };
  for (const alt of alternatives) {
    const words = alt.split(/[\s,.:;!?]+/).filter((w) => w !== '');
    if (words.length === 0 || !words.every(isCommon)) return null;
  }
  if (alternatives.length === 1) {
    const only = alternatives[0]!;
    return only.includes(' ')
      ? `'${only}' is made of common words that appear`
      : `'${only}' is a common word that appears`;
  }
  return `${alternatives.map((a) => `'${a}'`).join(', ')} are common words that appear`;
}

/** Text with no regex metacharacters (escaped punctuation allowed), at least four characters long. */
function isPlainLiteral(source: string): boolean {
  if (/\\[a-zA-Z0-9]/.test(source) || /(?<!\\)[\^$|]/.test(source) || hasUnescapedMeta(source)) return false;
  return [...unescapeRegex(source).trim()].length >= 4;
}

function hasUnescapedMeta(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if ('[](){}*+?.'.includes(c)) return true;
  }
  return false;
}

/**
 * The matcher reads a pattern's literals with a JavaScript regex parser; re2-only syntax it cannot
 * read would leave the mark without a prefilter. Say what to write instead.
 */
function re2OnlySyntax(source: string): string | null {
  if (/\(\?[imsU-]+[:)]/.test(source)) {
    return 'inline flags such as (?i) are not needed: matching already ignores case. Remove them and try again.';
  }
  try {
    regexParser.parsePattern(source, 0, source.length, { unicode: true });
    return null;
  } catch {
    return 're2 accepts it, but it uses syntax this agent cannot index (such as (?P<name>…), [[:alpha:]] or \\z). Write it with plain groups (?:…), classes like [a-z] and ^ $ instead.';
  }
}

/** Names of the invisible characters people paste by accident; others are named by their category. */
const INVISIBLE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x00ad, 'SOFT HYPHEN'],
  [0x061c, 'ARABIC LETTER MARK'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE (byte order mark)'],
]);

/** Format characters (Cf: zero-width, joiners, bidi controls, BOM, soft hyphen) and controls but tab and line ends. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/u;
const LINE_OR_TAB = /[\t\n\r]/;

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a pattern holding an invisible character is refused, or null when it holds none. */
function invisibleCharacter(raw: string): string | null {
  let position = 0;
  for (const c of raw) {
    position++;
    if (!INVISIBLE.test(c) || LINE_OR_TAB.test(c)) continue;
    const cp = c.codePointAt(0)!;
    const bidi =
      cp === 0x061c ||
      cp === 0x200e ||
      cp === 0x200f ||
      (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069);
    const what = bidi ? 'a bidirectional control character' : 'an invisible character';
    const name =
      INVISIBLE_NAMES.get(cp) ?? (/\p{Cc}/u.test(c) ? 'a control character' : 'a format character');
    const hex = cp.toString(16).toUpperCase().padStart(4, '0');
    const escape = cp > 0xffff ? `\\u{${hex}}` : `\\u${hex}`;
    return `it holds ${what}, ${codePoint(c)} ${name}, at position ${position} (shown as <${codePoint(c)}>), which mail that looks the same would not contain. Delete it and type the text again; if it is really meant, write it visibly as ${escape}.`;
  }
  return null;
}

function showInvisible(raw: string): string {
  return [...raw].map((c) => (INVISIBLE.test(c) && !LINE_OR_TAB.test(c) ? `<${codePoint(c)}>` : c)).join('');
}

/** The scripts whose letters look alike (Latin a, Cyrillic а, Greek α): one word mixing them is a look-alike. */
const CONFUSABLE_SCRIPTS: readonly { readonly name: string; readonly letter: RegExp }[] = [
  { name: 'Latin', letter: /\p{Script=Latin}/u },
  { name: 'Cyrillic', letter: /\p{Script=Cyrillic}/u },
  { name: 'Greek', letter: /\p{Script=Greek}/u },
];

/**
 * Why a pattern is refused for a word that mixes Latin, Cyrillic or Greek letters, or null. The odd
 * letter out is the first one not in the word's most used script. Escapes (`\d`, `\u0435`) are not
 * letters of a word; positions count characters of the pattern as shown.
 */
function mixedScriptWord(source: string): string | null {
  const chars = [...source];
  let i = 0;
  while (i < chars.length) {
    if (chars[i] === '\\') {
      i += 2;
      continue;
    }
    if (!/[\p{L}\p{M}]/u.test(chars[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < chars.length && chars[i] !== '\\' && /[\p{L}\p{M}]/u.test(chars[i]!)) i++;
    const word = chars.slice(start, i);
    const scriptOf = word.map((c) => CONFUSABLE_SCRIPTS.find((s) => s.letter.test(c))?.name);
    const counts = new Map<string, number>();
    for (const name of scriptOf) if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
    if (counts.size < 2) continue;
    const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const odd = scriptOf.findIndex((name) => name !== undefined && name !== main);
    const c = word[odd]!;
    return `the word "${word.join('')}" mixes scripts: "${c}" at position ${start + odd + 1} is ${codePoint(c)}, a ${scriptOf[odd]!} letter among ${main} ones. It looks like a ${main} letter but matches only itself, so mail with the word it looks like would not match. Type the word in one script.`;
  }
  return null;
}

function shorten(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 77)}…`;
}
