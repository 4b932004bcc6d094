/**
 * The reply and forward prefixes a mail client puts before a subject it inherits ("RE:", "Fwd:",
 * "AW:", "WG:", "TR:", "RV:", …) in the languages our senders write. A subject under such a prefix
 * was written for an earlier mail, so it is weaker evidence of what this one is than its new text.
 *
 * Owns: recognising the prefix chain. Does not own: what a reading makes of it (the kinds reader),
 * or the forward signals of the ingest (src/ingest/mail/signals.ts, which uses these sets).
 */

/** Reply prefixes: English, German (AW), Scandinavian (SV), Dutch (Antw), Portuguese (Res), Italian (Rif/R), Polish, Turkish, Arabic. */
export const REPLY_PREFIXES: ReadonlySet<string> = new Set([
  're',
  'aw',
  'sv',
  'vs',
  'antw',
  'res',
  'rif',
  'r',
  'odp',
  'ynt',
  'رد',
]);

/** Forward prefixes: English, German (WG), French (TR), Spanish (RV), Dutch (Doorst), Portuguese (Enc), Swedish (VB), Finnish (VL), Arabic. */
export const FORWARD_PREFIXES: ReadonlySet<string> = new Set([
  'fwd',
  'fw',
  'wg',
  'tr',
  'rv',
  'doorst',
  'enc',
  'vb',
  'vl',
  'إعادة توجيه',
  'توجيه',
]);

const PREFIX = /^\s*([\p{L}]+(?: [\p{L}]+)?)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*/u;

/** Most prefixes followed: a longer chain is read as its first twenty. */
const MAX_PREFIXES = 20;

export interface SubjectPrefixes {
  /** The outermost prefix's sort: this message is a reply to, or a forward of, an earlier one; null when none. */
  readonly outermost: 'reply' | 'forward' | null;
  /** Whether any prefix of the chain is a forward prefix ("RE: FW: …"). */
  readonly forwardInChain: boolean;
  /** The subject without its prefix chain. */
  readonly rest: string;
}

/** The subject's leading chain of reply and forward prefixes. */
export function subjectPrefixes(subject: string): SubjectPrefixes {
  let rest = subject;
  let outermost: SubjectPrefixes['outermost'] = null;
  let forwardInChain = false;
  for (let i = 0; i < MAX_PREFIXES; i++) {
    const m = PREFIX.exec(rest);
    if (m === null) break;
    const word = m[1]!.toLowerCase();
    const sort = FORWARD_PREFIXES.has(word) ? 'forward' : REPLY_PREFIXES.has(word) ? 'reply' : null;
    if (sort === null) break;
    outermost ??= sort;
    if (sort === 'forward') forwardInChain = true;
    rest = rest.slice(m[0].length);
  }
  return { outermost, forwardInChain, rest: rest.trim() };
}

/** Whether the subject was inherited from an earlier mail (it starts with a reply or forward prefix). */
export function isInheritedSubject(subject: string): boolean {
  return subjectPrefixes(subject).outermost !== null;
}
