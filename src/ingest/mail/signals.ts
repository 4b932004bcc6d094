/**
 * What a message's headers and wording say about how it was sent: a forward (the sender passes on
 * somebody else's mail), or a machine (a platform, a list, an auto-reply). These flags feed the
 * suggestion rule "a sender address is evidence about the sender, not always about the customer".
 * It does not decide anything about customers.
 */

/** Reply prefixes in the languages our senders write (stripped while looking for a forward prefix). */
const REPLY_PREFIXES = new Set(['re', 'aw', 'sv', 'antw', 'res', 'rif', 'odp', 'ynt', 'رد']);
/** Forward prefixes: English, German (WG), French (TR), Spanish (RV), Dutch (Doorst), Portuguese (Enc), Swedish (VB), Finnish (VL), Arabic. */
const FORWARD_PREFIXES = new Set([
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

/** Whether the subject's leading chain of Re:/Fwd:-style prefixes contains a forward prefix. */
export function hasForwardPrefix(subject: string): boolean {
  let rest = subject;
  for (let i = 0; i < 20; i++) {
    const m = PREFIX.exec(rest);
    if (m === null) return false;
    const word = m[1]!.toLowerCase();
    if (FORWARD_PREFIXES.has(word)) return true;
    if (!REPLY_PREFIXES.has(word)) return false;
    rest = rest.slice(m[0].length);
  }
  return false;
}

/**
 * Forwarded-message separators that mail clients write into the body (Gmail, Apple Mail, Thunderbird,
 * Outlook on the web) in the languages our senders use. Outlook's "Original Message" is left out: it
 * introduces replies as often as forwards.
 */
const FORWARD_BLOCK =
  /^[\s>]*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transf[ée]r[ée]|mensaje reenviado|mensagem encaminhada|doorgestuurd bericht|messaggio inoltrato|الرسالة الم[ُ]?عاد توجيهها)\s*-{2,}|begin forwarded message\s*:|anfang der weitergeleiteten nachricht\s*:|début du message réexpédié\s*:|inicio del mensaje reenviado\s*:)/imu;

export function hasForwardBlock(body: string): boolean {
  return FORWARD_BLOCK.test(body);
}

export function isForward(subject: string, body: string): boolean {
  return hasForwardPrefix(subject) || hasForwardBlock(body);
}

/** A no-reply style local part: noreply@, no-reply@, do-not-reply@, noreply-bookings@ … */
const NO_REPLY_LOCAL = /^(?:no[-_.]?reply|do[-_.]?not[-_.]?reply|mailer-daemon)(?:$|[-_.+])/i;

export function isNoReplyAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = at < 0 ? address : address.slice(0, at);
  return NO_REPLY_LOCAL.test(local);
}

/** Header values by lower-cased name (first occurrence), as plain strings. */
export type HeaderLookup = (name: string) => string | undefined;

/** RFC 3834 Auto-Submitted other than "no", Precedence bulk/list/junk, a List-Id, or a no-reply sender. */
export function isAutomated(header: HeaderLookup, fromAddress: string | null): boolean {
  const autoSubmitted = header('auto-submitted')
    ?.trim()
    .toLowerCase()
    .split(/[\s;(]/)[0];
  if (autoSubmitted !== undefined && autoSubmitted !== '' && autoSubmitted !== 'no') return true;
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence === 'bulk' || precedence === 'list' || precedence === 'junk') return true;
  if (header('list-id') !== undefined) return true;
  return fromAddress !== null && isNoReplyAddress(fromAddress);
}
