/**
 * Documents attached to a mail → the attachment text and manifest model (mail-message.ts) that
 * `attachments` marks and the `mappings` learnable read, as a CSV's is: a PDF's text (pdf-text.ts),
 * an XLSX's rows (xlsx-rows.ts). Each document is read in a worker thread within its bounds
 * (limits.ts): bytes, pages, cells, inflated bytes, heap, and time (the document's own timeout,
 * never past the message's parse deadline). An encrypted, image-only, broken, oversized, too slow
 * or too hungry document is never a failed message: it is kept by name with a `note` saying what
 * was not read (issue 16).
 *
 * Owns: recognising a document and holding it to its bounds. Deliberately not: text-like
 * attachments and CSV (parse.ts), or anything about who sent the mail.
 */
import type { MailLimits } from '../../../domain/mail/index.ts';
import type { MailAttachment } from '../../../domain/mail/index.ts';
import { readInWorker } from './document-worker.ts';
import { resolveDocumentLimits, type DocumentLimits } from './limits.ts';
import { documentNote, type DocumentKind } from './notes.ts';
import type { DocumentRead } from './read-bytes.ts';

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
  const read = await readWithin(kind, doc, bounds, deadline);
  return { ...kept, ...boundText(read, kind, doc.filename, limits.maxTextChars) };
}

async function readWithin(
  kind: DocumentKind | 'old-excel',
  doc: AttachedDocument,
  bounds: DocumentLimits,
  deadline: number,
): Promise<DocumentRead> {
  const unread = (note: string): DocumentRead => ({ text: null, table: null, note });
  if (kind === 'old-excel') return unread(documentNote.oldExcel(doc.filename));
  if (doc.content.length > bounds.maxDocumentBytes) {
    return unread(documentNote.tooLarge(kind, doc.filename, doc.content.length, bounds.maxDocumentBytes));
  }
  const timeoutMs = bounds.documentTimeoutMs;
  const outcome = await readInWorker(
    { kind, bytes: doc.content, filename: doc.filename, bounds },
    { timeoutMs, waitUntil: deadline, memoryMb: bounds.documentMemoryMb },
  );
  switch (outcome.kind) {
    case 'read':
      return outcome.read;
    case 'timeout':
      return unread(documentNote.timedOut(kind, doc.filename, timeoutMs));
    case 'no-time':
      return unread(documentNote.noTimeLeft(kind, doc.filename));
    case 'memory':
      return unread(documentNote.outOfMemory(kind, doc.filename, bounds.documentMemoryMb));
    case 'crashed':
      return unread(documentNote.broken(kind, doc.filename, outcome.why));
  }
}

/** Text past maxTextChars is cut there, with a note (a document never fails the message); control characters go. */
function boundText(
  read: DocumentRead,
  kind: DocumentKind | 'old-excel',
  filename: string,
  maxTextChars: number,
): DocumentRead {
  if (read.text === null || kind === 'old-excel') return read;
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
