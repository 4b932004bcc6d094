/**
 * Documents attached to a mail → the attachment text and manifest model (mail-message.ts) that
 * `attachments` marks and the `mappings` learnable read, as a CSV's is: a PDF's text (pdf-text.ts),
 * an XLSX's rows (xlsx-rows.ts). Each document is read within its bounds (limits.ts): bytes, pages,
 * cells, inflated bytes, and time (the document's own timeout, never past the message's parse
 * deadline). An encrypted, image-only, broken, oversized or too slow document is never a failed
 * message: it is kept by name with a `note` saying what was not read (issue 14, issue 16).
 *
 * Owns: recognising a document, its bounds, and its note. Deliberately not: text-like attachments
 * and CSV (parse.ts), or anything about who sent the mail.
 */
import type { MailLimits } from '../../../domain/mail/limits.ts';
import type { MailAttachment, ManifestTable } from '../../../domain/mail/mail-message.ts';
import { resolveDocumentLimits, type DocumentLimits } from './limits.ts';
import { documentNote, type DocumentKind } from './notes.ts';
import { readPdfText } from './pdf-text.ts';
import { readXlsxRows } from './xlsx-rows.ts';
import { inspectZip } from './zip-guard.ts';

export interface AttachedDocument {
  readonly content: Buffer;
  /** The declared content type, lower-cased. */
  readonly type: string;
  readonly filename: string;
}

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat']);
const XLSX_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel.sheet.macroenabled.12',
]);

/** Whether an attachment is a document read here, by its declared type, its name, or its first bytes. */
export function documentKindOf(doc: AttachedDocument): DocumentKind | 'old-excel' | null {
  if (PDF_TYPES.has(doc.type) || /\.pdf$/i.test(doc.filename)) return 'pdf';
  if (XLSX_TYPES.has(doc.type) || /\.xls[xm]$/i.test(doc.filename)) return 'xlsx';
  if (doc.type === 'application/vnd.ms-excel' || /\.xls$/i.test(doc.filename)) return 'old-excel';
  // a generic type (application/octet-stream) says nothing: the bytes may
  if (doc.content.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  return null;
}

interface Read {
  readonly text: string | null;
  readonly table: ManifestTable | null;
  readonly note?: string;
}

/**
 * The attachment read as a document, or null when it is none (the caller reads it as before).
 * `limits` are the mail limits, carrying the document limits when configured (defaults otherwise);
 * `deadline` is the message's parse deadline (ms since the epoch).
 */
export async function readDocument(
  doc: AttachedDocument,
  limits: MailLimits & Partial<DocumentLimits>,
  deadline: number,
): Promise<MailAttachment | null> {
  const kind = documentKindOf(doc);
  if (kind === null) return null;
  const bounds = resolveDocumentLimits(limits);
  const kept = { filename: doc.filename, contentType: doc.type, sizeBytes: doc.content.length };
  const read = await readWithin(kind, doc, bounds, limits.maxTextChars, deadline);
  return { ...kept, ...read };
}

async function readWithin(
  kind: DocumentKind | 'old-excel',
  doc: AttachedDocument,
  bounds: DocumentLimits,
  maxTextChars: number,
  deadline: number,
): Promise<Read> {
  if (kind === 'old-excel') return { text: null, table: null, note: documentNote.oldExcel(doc.filename) };
  if (doc.content.length > bounds.maxDocumentBytes) {
    return {
      text: null,
      table: null,
      note: documentNote.tooLarge(kind, doc.filename, doc.content.length, bounds.maxDocumentBytes),
    };
  }
  const timeoutMs = Math.max(0, Math.min(bounds.documentTimeoutMs, deadline - Date.now()));
  let abort = (): void => {};
  const reading =
    kind === 'pdf'
      ? (() => {
          const pdf = readPdfText(doc.content, bounds.maxPdfPages);
          abort = pdf.abort;
          return pdf.outcome.then((o) => fromPdf(o, doc.filename));
        })()
      : readXlsx(doc, bounds);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Read>((resolve) => {
    timer = setTimeout(() => {
      abort();
      resolve({ text: null, table: null, note: documentNote.timedOut(kind, doc.filename, timeoutMs) });
    }, timeoutMs);
  });
  try {
    return boundText(await Promise.race([reading, timedOut]), kind, doc.filename, maxTextChars);
  } finally {
    clearTimeout(timer);
  }
}

function fromPdf(outcome: Awaited<ReturnType<typeof readPdfText>['outcome']>, filename: string): Read {
  switch (outcome.kind) {
    case 'encrypted':
      return { text: null, table: null, note: documentNote.encrypted(filename) };
    case 'no-text-layer':
      return { text: null, table: null, note: documentNote.noTextLayer(filename) };
    case 'broken':
      return { text: null, table: null, note: documentNote.broken('pdf', filename, outcome.why) };
    case 'text':
      return {
        text: outcome.text,
        table: null,
        ...(outcome.pagesRead < outcome.pages
          ? { note: documentNote.pagesLeft(filename, outcome.pagesRead, outcome.pages) }
          : {}),
      };
  }
}

async function readXlsx(doc: AttachedDocument, bounds: DocumentLimits): Promise<Read> {
  const zip = await inspectZip(doc.content, bounds.maxXlsxInflatedBytes);
  if (zip.kind === 'bomb') {
    return { text: null, table: null, note: documentNote.zipBomb(doc.filename, bounds.maxXlsxInflatedBytes) };
  }
  if (zip.kind === 'broken') {
    return { text: null, table: null, note: documentNote.broken('xlsx', doc.filename, zip.why) };
  }
  const rows = await readXlsxRows(doc.content, bounds.maxXlsxCells);
  if (rows.kind === 'broken') {
    return { text: null, table: null, note: documentNote.broken('xlsx', doc.filename, rows.why) };
  }
  return {
    text: rows.text === '' ? null : rows.text,
    table: rows.table,
    ...(rows.cut ? { note: documentNote.cellsLeft(doc.filename, rows.cellsRead) } : {}),
  };
}

/** Text past maxTextChars is cut there, with a note (a document never fails the message); control characters go. */
function boundText(read: Read, kind: DocumentKind, filename: string, maxTextChars: number): Read {
  if (read.text === null) return read;
  const text = read.text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  if (text.length <= maxTextChars) return { ...read, text };
  return {
    ...read,
    text: text.slice(0, maxTextChars),
    note: [read.note, documentNote.charsLeft(kind, filename, maxTextChars)]
      .filter((n) => n !== undefined)
      .join(' '),
  };
}
