/**
 * The notes a reading carries when a document attached to a mail was not read, or read only in
 * part: one sentence each, for the person looking at the result, naming the file, what happened and
 * what would help. Owns the wording; deciding when a note is due is the readers'.
 */
import { formatNumber } from '../../../domain/mail/index.ts';
import { DOCUMENT_LIMIT_SETTINGS, type DocumentLimits } from './limits.ts';

/** What the document is, as a person calls it. */
export type DocumentKind = 'pdf' | 'xlsx';

const NOUN: Readonly<Record<DocumentKind, string>> = { pdf: 'PDF', xlsx: 'spreadsheet' };
const WHAT: Readonly<Record<DocumentKind, string>> = { pdf: 'its text was', xlsx: 'its rows were' };

function named(kind: DocumentKind, filename: string): string {
  return `the ${NOUN[kind]} ${filename === '' ? '(without a name)' : filename}`;
}

function setting(name: keyof DocumentLimits): string {
  return DOCUMENT_LIMIT_SETTINGS[name];
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const documentNote = {
  encrypted: (filename: string): string =>
    capitalised(
      `${named('pdf', filename)} is encrypted; its text was not read. Send it without a password to have it read.`,
    ),
  noTextLayer: (filename: string): string =>
    capitalised(`${named('pdf', filename)} has no text layer (a scan or a picture); its text was not read.`),
  broken: (kind: DocumentKind, filename: string, why: string): string =>
    capitalised(`${named(kind, filename)} cannot be read (${why}); ${WHAT[kind]} not read.`),
  tooLarge: (kind: DocumentKind, filename: string, bytes: number, max: number): string =>
    capitalised(
      `${named(kind, filename)} is ${formatNumber(bytes)} bytes, more than the ${formatNumber(max)} read (${setting('maxDocumentBytes')}); ${WHAT[kind]} not read.`,
    ),
  timedOut: (kind: DocumentKind, filename: string, ms: number): string =>
    capitalised(
      `reading ${named(kind, filename)} took over ${formatNumber(ms)} ms (${setting('documentTimeoutMs')}); ${WHAT[kind]} not read.`,
    ),
  noTimeLeft: (kind: DocumentKind, filename: string): string =>
    capitalised(
      `${named(kind, filename)} was not reached before the message's time ran out (PARSE_TIMEOUT_MS); ${WHAT[kind]} not read.`,
    ),
  outOfMemory: (kind: DocumentKind, filename: string, mb: number): string =>
    capitalised(
      `reading ${named(kind, filename)} needed more than ${formatNumber(mb)} MiB of memory (${setting('documentMemoryMb')}); ${WHAT[kind]} not read.`,
    ),
  pagesLeft: (filename: string, read: number, total: number): string =>
    capitalised(
      `only the first ${formatNumber(read)} of the ${formatNumber(total)} pages of ${named('pdf', filename)} were read (${setting('maxPdfPages')}).`,
    ),
  zipBomb: (filename: string, max: number): string =>
    capitalised(
      `${named('xlsx', filename)} would unpack to more than ${formatNumber(max)} bytes (${setting('maxXlsxInflatedBytes')}), as a zip bomb does; its rows were not read.`,
    ),
  cellsLeft: (filename: string, read: number): string =>
    capitalised(
      `only the first ${formatNumber(read)} cells of ${named('xlsx', filename)} were read (${setting('maxXlsxCells')}).`,
    ),
  charsLeft: (kind: DocumentKind, filename: string, max: number): string =>
    capitalised(
      `only the first ${formatNumber(max)} characters of ${named(kind, filename)} were read (MAX_TEXT_CHARS).`,
    ),
  oldExcel: (filename: string): string =>
    capitalised(
      `${named('xlsx', filename)} is in the old Excel 97-2003 format (.xls); its rows were not read. Send it as .xlsx or CSV.`,
    ),
};
