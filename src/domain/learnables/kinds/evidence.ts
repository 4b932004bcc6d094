/**
 * The kinds reader's evidence for a suggestion (§8): the words of the subject that carry the kind,
 * as written. Kinds never look at the sender, so nothing is drawn from the from line.
 *
 * Every phrase of the subject is a candidate, first to last, once what says whose or
 * which message it is has been left out: reply and forward prefixes, references, anything with a
 * digit (numbers, dates), and every name other collections give (a customer's name, any text their
 * marks matched: `namedElsewhere`). "Kessler Feinkost GmbH POD 4410" offers "POD", never the name,
 * which no other customer's mail will carry. Abbreviations ("BKG CONF", "Inv.") and other languages
 * are words like any other; the judge (../suggest.ts) takes the first the corpus does not give to
 * another kind.
 *
 * A reply's subject (Re:, AW:, …) whose new text is about another reference is the earlier mail's,
 * not this one's: nothing is drawn from it (§8: a suggestion never claims more than this message
 * shows), so a cue for that reply is typed from its new text (inherited-subject.ts).
 *
 * Owns: what counts as evidence of a kind. Does not own: judging it (../suggest.ts).
 */
import { subjectPrefixes, type MailMessage } from '../../mail/index.ts';
import { findReferences } from '../references.ts';
import { subjectSpeaksForMessage } from './inherited-subject.ts';
import { MIN_EVIDENCE_CHARS, type Evidence } from '../suggest.ts';

/** §6.2 `how`: what a kind question suggests. */
export const KIND_CUE_HOW =
  'A question about the kind suggests a cue: words of the subject that carry the kind, as written (abbreviations and other languages included), leaving out any customer’s name, references, numbers, dates and reply or forward prefixes, so that the cue marks the kind in every customer’s mail.';

/** Most words in a suggested cue: a longer subject phrase is about one message, not a kind. */
export const MAX_CUE_WORDS = 4;

/** Where a subject's phrases break: clause marks, a spaced dash, a token with a digit. */
const PHRASE_BREAK = /[:;,!?()[\]|#]|\s[-–—/]\s|\S*\d\S*/u;

/** Words that join a phrase to what follows ("Pre alert for …", "Factura de …"), never a cue's edge. */
const JOINING_WORDS = new Set([
  'for',
  'on',
  'of',
  'from',
  'to',
  're',
  'ref',
  'no',
  'nr',
  'für',
  'zu',
  'pour',
  'de',
  'del',
  'en',
  'para',
  'per',
]);

/**
 * For kinds: each phrase of the subject that may carry the kind, first to last, without prefixes,
 * references, numbers, dates, or what `named` gives (other collections' names and matches);
 * none from a subject that does not speak for this message.
 */
export function subjectPhraseEvidence(message: MailMessage, named: readonly string[] = []): Evidence[] {
  if (!subjectSpeaksForMessage(message)) return [];
  let subject = subjectPrefixes(message.subject).rest;
  for (const ref of findReferences(subject)) subject = blank(subject, ref.text);
  for (const name of [...named].sort((a, b) => b.length - a.length)) subject = blank(subject, name);
  const out: Evidence[] = [];
  for (const piece of subject.split(new RegExp(PHRASE_BREAK.source, 'gu'))) {
    const phrase = phraseOf(piece);
    if (phrase === null || out.some((e) => e.text.toLowerCase() === phrase.toLowerCase())) continue;
    const code = /^\p{Lu}{2,3}$/u.test(phrase);
    const label = code ? `the code "${phrase}" in the subject` : `the words "${phrase}" in the subject`;
    out.push({ text: phrase, shape: 'words', part: 'subject', label, carries: true });
  }
  return out;
}

/** `text` with every occurrence of `part` (any case) turned into a phrase break. */
function blank(text: string, part: string): string {
  if (part.trim() === '') return text;
  const lower = text.toLowerCase();
  const needle = part.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    out += `${text.slice(from, at)} | `;
    from = at + needle.length;
  }
  return out + text.slice(from);
}

/**
 * A piece of the subject as a cue: trimmed of punctuation and joining words at its edges; null
 * when it is too long to be about a kind, has no letter, or is a short word that is no code. An
 * abbreviation keeps its point ("Inv."), which the kinds learnable matches as written.
 */
function phraseOf(piece: string): string | null {
  const words = piece
    .trim()
    .replace(/^[\s\p{P}\p{S}]+/u, '')
    .replace(/[\s,;:'"’”)\]-]+$/u, '')
    .split(/\s+/u)
    .filter((w) => w !== '');
  while (words.length > 0 && JOINING_WORDS.has(words[0]!.toLowerCase().replace(/\.$/u, ''))) words.shift();
  while (words.length > 0 && JOINING_WORDS.has(words[words.length - 1]!.toLowerCase().replace(/\.$/u, '')))
    words.pop();
  if (words.length === 0 || words.length > MAX_CUE_WORDS) return null;
  let phrase = words.join(' ');
  // A point ends an abbreviation ("Inv.") but not a longer word's sentence.
  if (phrase.endsWith('.') && !/(?:^|\s)\p{L}{2,5}\.$/u.test(phrase)) phrase = phrase.slice(0, -1);
  if (!/\p{L}/u.test(phrase)) return null;
  const letters = phrase.replace(/[^\p{L}\p{N}]/gu, '');
  // A short word is a cue only as a code (POD) or an abbreviation written with its point (Inv.).
  const short = /^\p{Lu}{2,3}$/u.test(phrase) || /^\p{L}{2,3}\.$/u.test(phrase);
  if (letters.length < MIN_EVIDENCE_CHARS && !short) return null;
  return phrase;
}
