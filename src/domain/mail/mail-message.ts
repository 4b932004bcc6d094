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
  readonly attachments: readonly MailAttachment[];
  /** In-Reply-To / References present (a reply). */
  readonly isReply: boolean;
  /** Subject starts with Fwd:/Fw:/WG:/TR:/RV: or the body carries a forwarded-message block. */
  readonly isForward: boolean;
  /** Auto-Submitted / List-Id / Precedence bulk hints: sent by a machine or platform. */
  readonly isAutomated: boolean;
}

/** The parts of a message a mark can name in `where`. */
export const MAIL_PARTS = ['from', 'subject', 'body', 'attachments'] as const;
export type MailPart = (typeof MAIL_PARTS)[number];
