/**
 * The kinds reader's evidence for a reply whose inherited subject says what the earlier
 * mail was, not this one (inherited-subject.ts): words of the new text that may carry the kind,
 * offered as a cue looked for in the body. Every kind question then offers a cue.
 *
 * Each of the first sentences of the new text (greetings left out) gives its phrases of at most
 * MAX_CUE_WORDS words, longest first, each without the joining words at its edges, and without
 * references, numbers and other collections' names. "Please find our freight invoice attached"
 * offers "freight invoice attached" first. The judge (../suggest.ts) takes the first the corpus
 * does not give to another kind, so a phrase every message carries ("details for our shipment")
 * is refused once mail of two kinds carried it.
 *
 * Owns: which words of a reply's new text are evidence of its kind. Does not own: judging them.
 */
import { mailTextOf, type MailMessage } from '../../mail/index.ts';
import { findReferences } from '../references.ts';
import type { Evidence } from '../suggest.ts';
import { MIN_EVIDENCE_CHARS } from '../suggest.ts';

/** Sentences of the new text looked at, and phrases offered in all. */
const SENTENCES = 2;
const MAX_PHRASES = 6;
const MAX_WORDS = 4;

/** Words that never open or close a cue: they join, point or greet. */
const EDGE_WORDS = new Set(
  (
    'a an and are as at be by for from have here i in is it its of on one or our please find the their ' +
    'there this that these those to was we were with you your us attached ' +
    'der die das und ist wir für bitte anbei ' +
    'el la los las y es de del en para por nuestro nuestra adjunto'
  ).split(' '),
);

/** Phrases of a reply's new text that may carry its kind, best first. */
export function newTextPhraseEvidence(message: MailMessage, named: readonly string[] = []): Evidence[] {
  const sentences = sentencesOf(mailTextOf(message).newText, named).slice(0, SENTENCES);
  const out: Evidence[] = [];
  for (const words of sentences) {
    for (const phrase of phrasesOf(words)) {
      if (out.length >= MAX_PHRASES) return out;
      if (out.some((e) => e.text.toLowerCase() === phrase.toLowerCase())) continue;
      out.push({
        text: phrase,
        shape: 'words',
        part: 'body',
        label: `the words "${phrase}" in the body`,
        carries: true,
      });
    }
  }
  return out;
}

/** The new text's sentences as words, without greetings, references, numbers or names. */
function sentencesOf(text: string, named: readonly string[]): string[][] {
  let clean = text;
  for (const ref of findReferences(text)) clean = clean.split(ref.text).join(' | ');
  for (const name of [...named].sort((a, b) => b.length - a.length))
    clean = clean.replace(new RegExp(escape(name), 'giu'), ' | ');
  return clean
    .split(/[.;!?\n|]+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !/,$/.test(s) && !/^(?:hi|hello|dear|hallo|hola|buenos)\b/iu.test(s))
    .map((s) => s.split(/[\s,:()"]+/u).filter((w) => w !== '' && !/\d/.test(w)));
}

/** A sentence's phrases of at most MAX_WORDS words, trimmed of edge words, longest first. */
function phrasesOf(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let n = Math.min(MAX_WORDS, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const w = words.slice(i, i + n);
      if (isEdge(w[0]!) || isEdge(w[w.length - 1]!)) continue;
      const phrase = w.join(' ');
      // A short word is a cue only as a code (POD).
      const code = /^\p{Lu}{2,3}$/u.test(phrase);
      if (!code && phrase.replace(/[^\p{L}\p{N}]/gu, '').length < MIN_EVIDENCE_CHARS) continue;
      if (!out.includes(phrase)) out.push(phrase);
    }
  }
  return out;
}

function isEdge(word: string): boolean {
  return EDGE_WORDS.has(word.toLowerCase());
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
