/**
 * The normalised message the rest of the domain sees, whatever path it arrived by (A2A file part,
 * raw text, data part, IMAP, webhook). Produced by the ingest adapters (mailparser); the domain
 * never parses MIME itself.
 */
export interface MailAddress {
  readonly address: string; // lower-cased
  readonly name: string; // display name, '' when absent
}

export interface ManifestTable {
  readonly headings: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  /** Text of a text-like attachment (text/*, csv, json, xml) or a document's text (PDF, XLSX); null otherwise. */
  readonly text: string | null;
  /** A manifest parsed into rows (a CSV, or an XLSX's first sheet); null otherwise. */
  readonly table: ManifestTable | null;
  /**
   * Why the attachment's text or rows were not read, or read only in part, in words for the person
   * reading the result ("the PDF invoice.pdf is encrypted; its text was not read"); absent when
   * nothing was held back. Set by the ingest adapters for documents (PDF, XLSX).
   */
  readonly note?: string;
}

export interface MailMessage {
  /** RFC 5322 Message-ID without angle brackets, or null when the message has none. */
  readonly messageId: string | null;
  /** sha256 hex of the raw message bytes (or of the canonical fields for a data part). */
  readonly contentHash: string;
  readonly from: MailAddress | null;
  readonly replyTo: readonly MailAddress[];
  readonly to: readonly MailAddress[];
  readonly cc: readonly MailAddress[];
  readonly subject: string;
  /** ISO-8601, or null when absent or unparseable. */
  readonly date: string | null;
  /** Plain body; HTML converted to text. */
  readonly body: string;
  /**
   * The body split into what the sender wrote in this message and what it quotes, forwards or
   * signs with (new-text.ts), computed once where the message is built. Absent on messages stored
   * before it existed: `mailTextOf` computes it then.
   */
  readonly text?: MailText;
  readonly attachments: readonly MailAttachment[];
  /** In-Reply-To / References present (a reply). */
  readonly isReply: boolean;
  /** Subject starts with Fwd:/Fw:/WG:/TR:/RV: or the body carries a forwarded-message block. */
  readonly isForward: boolean;
  /** Auto-Submitted / List-Id / Precedence bulk hints: sent by a machine or platform. */
  readonly isAutomated: boolean;
}

/**
 * A message body split by what the sender wrote now (src/domain/mail/new-text.ts). Joined back in
 * order, the pieces are the body (less blank lines at the seams).
 */
export interface MailText {
  /** What the sender wrote in this message: the body before any quote, forward, signature or disclaimer. */
  readonly newText: string;
  /** The sender's sign-off, signature block and disclaimer after the new text; '' when none. */
  readonly signature: string;
  /** The quoted and forwarded text (reply headers, `>` lines, forwarded blocks); '' when none. */
  readonly quoted: string;
  /** A forward's original sender: the From of the forwarded block this message passes on; null otherwise. */
  readonly forwardedFrom: MailAddress | null;
}

/**
 * The parts of a message a mark can look in. `body` is the new text only; `quoted` is what the
 * sender did not write in this message (the quoted and forwarded text, the signature and the
 * disclaimer). Marks on `body` or `any` are looked for in `quoted` too (scannedParts), but a hit
 * there counts only for a mark taught for it (`where: "quoted"`): the others are only reported as
 * set aside (learnables/read-marked.ts).
 */
export const MAIL_PARTS = ['from', 'subject', 'body', 'attachments', 'quoted'] as const;
export type MailPart = (typeof MAIL_PARTS)[number];
