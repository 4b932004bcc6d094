/**
 * The lines that mark where a sender's own words end, as mail clients and people write them in the
 * languages of our fixtures (English, German, French, Spanish, Dutch, Italian, Portuguese, Arabic):
 * reply attributions ("On … wrote:"), Outlook's header blocks ("From: … Sent: …"), original-message
 * and forwarded-message separators, sign-offs, the "-- " signature line and disclaimers.
 *
 * Owns: the vocabulary, as data and small predicates over one or two lines. Does not own: where a
 * body is cut (new-text.ts). Every pattern is linear (no nested quantifiers) and runs on one line of
 * at most MAX_MARKER_LINE characters, so hostile text costs nothing.
 */

/** Longest line looked at as a marker; a longer line is text. */
export const MAX_MARKER_LINE = 400;

/** How an attribution starts: "On", "Am", "Le", "El", "Op", "Il", "Em" (a date follows). */
const ATTRIBUTION_START = /^\s*(?:on|am|le|el|op|il|em)\s/i;

/** Its verb: "wrote", "schrieb", "a écrit", "escribió", "schreef", "ha scritto", "escreveu". */
const ATTRIBUTION_VERBS = [
  'wrote',
  'writes',
  'schrieb',
  'a écrit',
  'a ecrit',
  'escribió',
  'escribio',
  'schreef',
  'ha scritto',
  'escreveu',
] as const;

/**
 * "On Mon, 30 Mar 2026 at 16:40, Dana <d@x> wrote:" (the verb last), "Am … schrieb Dana <d@x>:" (the
 * verb, then the writer and a colon), and Gmail's Arabic "في … كتب Dana <d@x>:". Found with
 * indexOf rather than a backtracking pattern: linear in the line whatever it holds.
 */
function isAttribution(line: string): boolean {
  const lower = line.toLowerCase().trimEnd();
  if (lower.startsWith('في ')) return lower.includes(' كتب') && lower.endsWith(':');
  if (!ATTRIBUTION_START.test(lower)) return false;
  const colon = lower.endsWith(':');
  const head = colon ? lower.slice(0, -1).trimEnd() : lower;
  for (const verb of ATTRIBUTION_VERBS) {
    // the verb last, after a space
    if (head.endsWith(verb) && /\s/.test(head.charAt(head.length - verb.length - 1))) return true;
    // or the verb between spaces, and the line ends with a colon
    if (colon && head.includes(` ${verb} `)) return true;
  }
  return false;
}

/** "-----Original Message-----" in the languages of our senders; Outlook's underscore rule. */
const ORIGINAL_MESSAGE =
  /^\s*(?:-{3,}\s*(?:original message|ursprüngliche nachricht|originalnachricht|message d'origine|message original|mensaje original|oorspronkelijk bericht|messaggio originale|mensagem original|الرسالة الأصلية)\s*-{3,}|_{20,})\s*$/iu;

/** Forwarded-message separators (Gmail, Apple Mail, Thunderbird, Outlook on the web). */
const FORWARD_SEPARATOR =
  /^\s*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transf[ée]r[ée]|mensaje reenviado|mensagem encaminhada|doorgestuurd bericht|messaggio inoltrato|الرسالة الم[ُ]?عاد توجيهها)\s*-{2,}|begin forwarded message\s*:|anfang der weitergeleiteten nachricht\s*:|début du message réexpédié\s*:|inicio del mensaje reenviado\s*:)\s*$/iu;

/** The From line of a quoted header block: "From:", "Von:", "De :", "Da:", "Van:", "من:", bold or not. */
const HEADER_FROM = /^\s*\*?(?:from|von|de|da|van|من)\s*:\*?\s*(.+)$/iu;

/** The other lines of a quoted header block: sent/date, to, cc, subject. */
const HEADER_OTHER =
  /^\s*\*?(?:sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|date d'envoi|à|objet|enviado|fecha|para|asunto|verzonden|aan|onderwerp|inviato|data|a|oggetto|assunto|enviada|تاريخ الإرسال|إلى|الموضوع)\s*:\*?\s*\S/iu;

/** A header block's Subject line, in the languages above: its value. */
const HEADER_SUBJECT =
  /^\s*\*?(?:subject|betreff|objet|asunto|onderwerp|oggetto|assunto|الموضوع)\s*:\*?\s*(.*)$/iu;

/** The value of a header block's Subject line, or null when the line is none. */
export function headerSubjectValue(line: string): string | null {
  if (!short(line)) return null;
  const m = HEADER_SUBJECT.exec(line);
  return m === null ? null : m[1]!.trim();
}

/** Whether a line belongs to a header block (its From, or a sent/date/to/cc/subject line). */
export function isHeaderLine(line: string): boolean {
  return short(line) && (HEADER_FROM.test(line) || HEADER_OTHER.test(line));
}

/** How many lines after a From line its header block's other lines may follow. */
const HEADER_BLOCK_LINES = 6;

/** The signature delimiter "-- " (RFC 3676), also written without its trailing space. */
const SIGNATURE_LINE = /^--\s*$/;

/** A sign-off on a line of its own ("Kind regards,", "Mit freundlichen Grüßen", "Cordialement", "مع التحية"). */
const SIGN_OFF =
  /^\s*(?:(?:kind|best|warm|warmest|many|with kind|with best)?\s*regards|thanks(?: and regards| & regards)?|thank you|many thanks|cheers|best|best wishes|sincerely|yours sincerely|yours faithfully|yours truly|mit freundlichen grüßen|mit freundlichen grüssen|mit freundlichen gruessen|freundliche grüße|beste grüße|viele grüße|liebe grüße|gruß|grüße|cordialement|bien cordialement|bien à vous|salutations|meilleures salutations|sincères salutations|un saludo|saludos|saludos cordiales|un cordial saludo|atentamente|met vriendelijke groet(?:en)?|vriendelijke groet(?:en)?|groeten|cordiali saluti|distinti saluti|saluti|atenciosamente|cumprimentos|مع التحية|مع تحياتي|تحياتي|وتفضلوا بقبول فائق الاحترام)\s*[,.!،]?\s*$/iu;

/** A formal sign-off that starts a line and goes on with the signer ("Best regards, Kansai Auto Parts Co."). */
const SIGN_OFF_INLINE =
  /^\s*(?:(?:kind|best|warm|with kind|with best)\s+regards|regards|mit freundlichen grüßen|cordialement|un saludo|saludos cordiales|met vriendelijke groet(?:en)?|cordiali saluti)\s*,\s*\S.{0,80}$/iu;

/** Phone-client trailers that sign a message ("Sent from my iPhone"). */
const SENT_FROM =
  /^\s*(?:sent from my|von meinem|envoyé de mon|enviado desde mi|verzonden vanaf mijn|inviato da)\b.{0,60}$/iu;

/** The first line of a disclaimer or confidentiality notice. */
const DISCLAIMER =
  /^\s*(?:disclaimer\b|confidentiality notice|confidential(?:ity)?\s*:|legal notice|this (?:e-?mail|message|communication)\b.{0,80}\b(?:confidential|privileged|intended (?:solely|only))|diese (?:e-?mail|nachricht)\b.{0,80}\bvertraulich|ce (?:message|courriel|mail|e-mail)\b.{0,80}\bconfidentiel|este (?:mensaje|correo)\b.{0,80}\bconfidencial|dit (?:e-?mail)?\s*bericht\b.{0,80}\bvertrouwelijk|questo messaggio\b.{0,80}\briservat|please consider the environment|هذه الرسالة\b.{0,80}\bسرية)/iu;

const short = (line: string): boolean => line.length <= MAX_MARKER_LINE;

/** A reply attribution, on this line or wrapped over this line and the next. */
export function attributionAt(lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? '';
  if (!short(line)) return false;
  if (isAttribution(line)) return true;
  const next = lines[i + 1];
  return next !== undefined && ATTRIBUTION_START.test(line) && short(next)
    ? isAttribution(`${line} ${next}`)
    : false;
}

export function isOriginalMessageLine(line: string): boolean {
  return short(line) && ORIGINAL_MESSAGE.test(line);
}

export function isForwardSeparator(line: string): boolean {
  return short(line) && FORWARD_SEPARATOR.test(line);
}

/**
 * Whether a quoted header block starts at line i: a From line followed, within a few lines, by at
 * least one sent/date/to/subject line (one From line alone is text).
 */
export function headerBlockAt(lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? '';
  if (!short(line) || !HEADER_FROM.test(line)) return false;
  for (let j = i + 1; j <= i + HEADER_BLOCK_LINES && j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === '') return false;
    if (short(l) && HEADER_OTHER.test(l)) return true;
  }
  return false;
}

/** The value of a header block's From line, or null when the line is none. */
export function headerFromValue(line: string): string | null {
  if (!short(line)) return null;
  const m = HEADER_FROM.exec(line);
  return m === null ? null : m[1]!.trim();
}

export function isSignatureLine(line: string): boolean {
  return SIGNATURE_LINE.test(line);
}

export function isSignOff(line: string): boolean {
  return short(line) && (SIGN_OFF.test(line) || SIGN_OFF_INLINE.test(line) || SENT_FROM.test(line));
}

export function isDisclaimerStart(line: string): boolean {
  return short(line) && DISCLAIMER.test(line);
}

/** A line of quoted text ("> …", "> > …"). */
export function isQuotedLine(line: string): boolean {
  return /^\s*>/.test(line);
}
