/**
 * The document worker's side (a worker thread started by document-worker.ts): reads each job it is
 * sent with read-bytes.ts and answers with what it read. A job that throws is answered as a broken
 * document; the thread itself never decides a bound (the parent ends it).
 */
import { parentPort } from 'node:worker_threads';
import type { DocumentLimits } from './limits.ts';
import { documentNote, type DocumentKind } from './notes.ts';
import { readDocumentBytes, type DocumentRead } from './read-bytes.ts';

export interface DocumentJob {
  readonly id: number;
  readonly kind: DocumentKind;
  readonly bytes: Uint8Array;
  readonly filename: string;
  readonly bounds: DocumentLimits;
}

/** The thread's first message is 'ready'; then one answer per job. */
export interface DocumentAnswer {
  readonly id: number;
  readonly read: DocumentRead;
}

const port = parentPort;
if (port !== null) {
  // pdf.js's in-thread worker half (2 MB of code) is loaded before the first job, as pdf.js and
  // exceljs are by the static imports: the parent starts a job's clock at 'ready'
  const workerModule: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs'; // untyped: pdf.js ships no .d.ts for it
  const pdfWorker: unknown = await import(workerModule);
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfWorker;
  port.postMessage('ready');
  port.on('message', (job: DocumentJob) => {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    readDocumentBytes(job.kind, bytes, job.filename, job.bounds)
      .catch((error: unknown): DocumentRead => ({
        text: null,
        table: null,
        note: documentNote.broken(
          job.kind,
          job.filename,
          String((error as Error).message ?? error).slice(0, 120),
        ),
      }))
      .then((read) => port.postMessage({ id: job.id, read } satisfies DocumentAnswer))
      .catch(() => undefined);
  });
}
