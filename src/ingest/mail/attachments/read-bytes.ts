/**
 * One document's bytes → its text, rows and note, with no bound but pages and cells: this runs
 * inside a document worker (document-worker.ts), whose thread the parent ends at the time bound
 * and whose heap is capped, so a hostile file costs at most its bounds.
 *
 * Owns: which outcome of pdf-text.ts / zip-guard.ts / xlsx-rows.ts gives which note. Deliberately
 * not: bytes, time or memory bounds (read-document.ts, document-worker.ts).
 */
import type { ManifestTable } from '../../../domain/mail/index.ts';
import type { DocumentLimits } from './limits.ts';
import { documentNote, type DocumentKind } from './notes.ts';
import { readPdfText, type PdfOutcome } from './pdf-text.ts';
import { readXlsxRows } from './xlsx-rows.ts';
import { inspectZip } from './zip-guard.ts';

/** What was read of one document (structured-clonable: it crosses from the worker). */
export interface DocumentRead {
  readonly text: string | null;
  readonly table: ManifestTable | null;
  readonly note?: string;
}

export async function readDocumentBytes(
  kind: DocumentKind,
  bytes: Buffer,
  filename: string,
  bounds: DocumentLimits,
): Promise<DocumentRead> {
  if (kind === 'pdf') return fromPdf(await readPdfText(bytes, bounds.maxPdfPages).outcome, filename);
  return readXlsx(bytes, filename, bounds);
}

function fromPdf(outcome: PdfOutcome, filename: string): DocumentRead {
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

async function readXlsx(bytes: Buffer, filename: string, bounds: DocumentLimits): Promise<DocumentRead> {
  const zip = await inspectZip(bytes, bounds.maxXlsxInflatedBytes);
  if (zip.kind === 'bomb') {
    return { text: null, table: null, note: documentNote.zipBomb(filename, bounds.maxXlsxInflatedBytes) };
  }
  if (zip.kind === 'broken') {
    return { text: null, table: null, note: documentNote.broken('xlsx', filename, zip.why) };
  }
  const rows = await readXlsxRows(bytes, bounds.maxXlsxCells);
  if (rows.kind === 'broken') {
    return { text: null, table: null, note: documentNote.broken('xlsx', filename, rows.why) };
  }
  return {
    text: rows.text === '' ? null : rows.text,
    table: rows.table,
    ...(rows.cut ? { note: documentNote.cellsLeft(filename, rows.cellsRead) } : {}),
  };
}
