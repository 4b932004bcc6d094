/**
 * The bounds on reading one document attached to a mail (a PDF's text, an XLSX's rows): their
 * numbers, defaults and the settings that move them. They travel with the mail limits
 * (config.ts `mailLimitsOf`), so every path that parses mail (A2A, IMAP, webhooks, the CLI) holds
 * them. A document past a bound is never a failed message: it is kept by name, with a note.
 *
 * Owns: the numbers. Deliberately not: the mail limits themselves (src/domain/mail/limits.ts).
 */
import { DomainError } from '../../../domain/errors.ts';

export interface DocumentLimits {
  /** Largest PDF or XLSX whose text is read, in bytes. Default 8 MiB; a larger one is kept by name, with a note. */
  readonly maxDocumentBytes: number;
  /** Most pages of one PDF read, from the first. Default 50; the rest are left unread, with a note. */
  readonly maxPdfPages: number;
  /** Most cells of one XLSX read (all sheets together). Default 200,000; the rest are left unread, with a note. */
  readonly maxXlsxCells: number;
  /**
   * Most bytes the parts of one XLSX may inflate to, declared or actual. Default 32 MiB; more is
   * refused as a zip bomb, with a note, before the spreadsheet reader sees it.
   */
  readonly maxXlsxInflatedBytes: number;
  /** Longest the reading of one document may take, in milliseconds. Default 5,000; then it is given up, with a note. */
  readonly documentTimeoutMs: number;
  /**
   * Heap of the thread one document is read in, in MiB (V8's old generation). Default 256; a
   * document that needs more ends its thread and is kept by name, with a note.
   */
  readonly documentMemoryMb: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = Object.freeze({
  maxDocumentBytes: 8 * 1024 * 1024,
  maxPdfPages: 50,
  maxXlsxCells: 200_000,
  maxXlsxInflatedBytes: 32 * 1024 * 1024,
  documentTimeoutMs: 5_000,
  documentMemoryMb: 256,
});

/** The setting (environment variable) an operator raises to move each bound. */
export const DOCUMENT_LIMIT_SETTINGS: Readonly<Record<keyof DocumentLimits, string>> = Object.freeze({
  maxDocumentBytes: 'MAX_DOCUMENT_BYTES',
  maxPdfPages: 'MAX_PDF_PAGES',
  maxXlsxCells: 'MAX_XLSX_CELLS',
  maxXlsxInflatedBytes: 'MAX_XLSX_INFLATED_BYTES',
  documentTimeoutMs: 'DOCUMENT_TIMEOUT_MS',
  documentMemoryMb: 'DOCUMENT_MEMORY_MB',
});

/** The bounds a caller set, defaults for the rest; a bound that is not a positive whole number is refused. */
export function resolveDocumentLimits(limits: Partial<DocumentLimits>): DocumentLimits {
  const out = { ...DEFAULT_DOCUMENT_LIMITS };
  for (const name of Object.keys(DEFAULT_DOCUMENT_LIMITS) as (keyof DocumentLimits)[]) {
    const value = limits[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new DomainError(
        'CONFIG_INVALID',
        `The document limit ${name} must be a positive whole number, not ${String(value)}. Set ${DOCUMENT_LIMIT_SETTINGS[name]} to e.g. ${DEFAULT_DOCUMENT_LIMITS[name]}.`,
      );
    }
    out[name] = value;
  }
  return Object.freeze(out);
}
