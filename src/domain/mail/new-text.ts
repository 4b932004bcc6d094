/**
 * The new text of a mail: what its sender wrote in this message, apart from what it quotes,
 * forwards or signs with. A reply quotes another customer's mail, a forward passes on a
 * supplier's, a disclaimer names a group's companies: none of that is evidence of whose or what this
 * message is, so marks on `body` and kind cues read the new text only (docs/new-text.md).
 *
 * The rule, line by line over the body:
 *   1. The quoted part starts at the first reply attribution ("On … wrote:", "Am … schrieb:",
 *      "Le … a écrit :", "El … escribió:", "Op … schreef:", "Il … ha scritto:"), original-message
 *      or forwarded-message separator, or quoted header block ("From: … Sent: …"); from there on
 *      everything is quoted. Lines starting with ">" are quoted wherever they stand (a reply written
 *      between quoted lines stays new text).
 *   2. Of what comes before, the signature starts at the "-- " line, or at the last sign-off line
 *      ("Kind regards,", "Mit freundlichen Grüßen", "Cordialement", …) followed only by a short
 *      signature-like block; a disclaimer starts at its first line and runs to the quoted part.
 *   3. A forward's original sender is the From of the block the message passes on: when the first
 *      quoted block is a forwarded-message separator, or a header block under a subject whose
 *      outermost prefix is a forward ("Fwd:", "WG:", "TR:", "RV:"). A reply to a forward has none.
 *
 * Owns: the split (pure, no I/O, linear in the body's length). Does not own: the vocabulary
 * (reply-markers.ts), HTML (the ingest converts it to text first, blockquotes as ">" lines), or
 * what readings make of the pieces (learnables).
 */
import type { MailAddress, MailMessage, MailText } from './mail-message.ts';
import {
  attributionAt,
  headerBlockAt,
  headerFromValue,
  headerSubjectValue,
  isDisclaimerStart,
  isHeaderLine,
  isForwardSeparator,
  isOriginalMessageLine,
  isQuotedLine,
  isSignatureLine,
  isSignOff,
} from './reply-markers.ts';
import { subjectPrefixes } from './subject-prefix.ts';

/** Most non-empty lines a sign-off's signature block may have (a longer "block" is text). */
export const MAX_SIGNATURE_LINES = 12;
/** A signature line longer than this that ends like a sentence is text, not a signature. */
const MAX_SIGNATURE_SENTENCE = 40;
/** Lines looked at after a forward's separator for its From line. */
const FORWARD_HEADER_LINES = 8;

type Cut = { readonly at: number; readonly sort: 'attribution' | 'separator' | 'forward' | 'header' };

/** The body split into its new text, signature, quoted part and a forward's original sender. */
export function splitMailText(body: string, subject: string): MailText {
  const lines = body.split('\n');
  const cut = firstCut(lines);
  const end = cut === null ? lines.length : cut.at;
  const own: string[] = [];
  const quotedLines: string[] = [];
  for (let i = 0; i < end; i++) {
    const line = lines[i]!;
    (isQuotedLine(line) ? quotedLines : own).push(line);
  }
  const signatureAt = signatureStart(own);
  const quoted = [...quotedLines, ...lines.slice(end)];
  return {
    newText: tidy(own.slice(0, signatureAt)),
    signature: tidy(own.slice(signatureAt)),
    quoted: tidy(quoted),
    forwardedFrom: cut === null ? null : forwardedFrom(lines, cut, subject),
  };
}

/** The message with its MailText, computed from its body (once, where the message is built). */
export function withMailText(message: MailMessage): MailMessage {
  return { ...message, text: splitMailText(message.body, message.subject) };
}

/** The message's MailText: as built, or computed now for a message stored before it existed. */
export function mailTextOf(message: MailMessage): MailText {
  return message.text ?? splitMailText(message.body, message.subject);
}

function firstCut(lines: readonly string[]): Cut | null {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (isForwardSeparator(line)) return { at: i, sort: 'forward' };
    if (isOriginalMessageLine(line)) return { at: i, sort: 'separator' };
    if (attributionAt(lines, i)) return { at: i, sort: 'attribution' };
    if (headerBlockAt(lines, i)) return { at: i, sort: 'header' };
  }
  return null;
}

/** Where the signature starts in the sender's own lines (their length when there is none). */
function signatureStart(own: readonly string[]): number {
  let start = own.length;
  const firstText = own.findIndex((l) => l.trim() !== '');
  // A disclaimer runs to the end of the sender's own text.
  for (let i = Math.max(firstText + 1, 1); i < own.length; i++) {
    if (isDisclaimerStart(own[i]!)) {
      start = i;
      break;
    }
  }
  for (let i = Math.max(firstText + 1, 1); i < start; i++) {
    if (isSignatureLine(own[i]!)) return i;
  }
  // The earliest sign-off whose block up to the disclaimer is short and signature-like: found
  // walking back from the end, so each line is looked at once.
  let found = start;
  let lines = 0;
  for (let i = start - 1; i >= Math.max(firstText + 1, 1); i--) {
    const line = own[i]!;
    if (isSignOff(line)) found = i;
    const text = line.trim();
    if (text !== '') lines++;
    if (lines > MAX_SIGNATURE_LINES || (text.length > MAX_SIGNATURE_SENTENCE && /[.!?]$/.test(text))) break;
  }
  return found;
}

/** The original sender of a forward (rule 3), or null. */
function forwardedFrom(lines: readonly string[], cut: Cut, subject: string): MailAddress | null {
  const isForward =
    cut.sort === 'forward' ||
    ((cut.sort === 'header' || cut.sort === 'separator') && subjectPrefixes(subject).outermost === 'forward');
  if (!isForward) return null;
  for (let i = cut.at; i < Math.min(lines.length, cut.at + 1 + FORWARD_HEADER_LINES); i++) {
    const value = headerFromValue(lines[i]!.replace(/^\s*>\s?/, ''));
    if (value !== null) return addressIn(value);
  }
  return null;
}

/** "Dana Reyes <dana@x.example>", "dana@x.example", "\"Reyes, Dana\" [mailto:dana@x.example]". */
function addressIn(value: string): MailAddress | null {
  const m = /([^\s<>"'()[\]:;,]+@[^\s<>"'()[\]:;,]+\.[^\s<>"'()[\]:;,]+)/.exec(value);
  if (m === null) return null;
  const address = m[1]!.toLowerCase();
  const name = value
    .slice(0, m.index)
    .replace(/(?:\[mailto:|<|\()\s*$/i, '')
    .replace(/^["'\s]+|["'\s]+$/g, '')
    .trim();
  return { address, name };
}

/** Lines joined, without the blank lines at either end. */
function tidy(lines: readonly string[]): string {
  return lines.join('\n').trim();
}

/** What a forward passes on: the forwarded message's subject (null when its block gives none) and text. */
export interface ForwardedPart {
  readonly from: MailAddress;
  readonly subject: string | null;
  readonly body: string;
}

/**
 * The message a forward passes on (rule 3's block): its From, the Subject its header
 * block gives, and the text under the header block, unquoted. Null for a message that forwards
 * nothing (a reply, or a forward whose block names no sender).
 */
export function forwardedPart(body: string, subject: string): ForwardedPart | null {
  const lines = body.split('\n');
  const cut = firstCut(lines);
  if (cut === null) return null;
  const from = forwardedFrom(lines, cut, subject);
  if (from === null) return null;
  // A block quoted whole (">" on every line) is unquoted one level; its own quotes stay quoted.
  const rest = lines.slice(cut.at).filter((l) => l.trim() !== '');
  const quotedWhole = rest.length > 0 && rest.every((l) => /^\s*>/.test(l));
  const unquoted = (l: string): string => (quotedWhole ? l.replace(/^\s*>\s?/, '') : l);
  let i = isForwardSeparator(lines[cut.at]!) ? cut.at + 1 : cut.at;
  let forwardedSubject: string | null = null;
  let inHeader = false;
  for (; i < lines.length && i <= cut.at + 1 + FORWARD_HEADER_LINES; i++) {
    const line = unquoted(lines[i]!);
    if (line.trim() === '') {
      if (inHeader) break;
      continue;
    }
    if (!isHeaderLine(line)) break;
    inHeader = true;
    forwardedSubject = headerSubjectValue(line) ?? forwardedSubject;
  }
  return { from, subject: forwardedSubject, body: tidy(lines.slice(i).map(unquoted)) };
}
