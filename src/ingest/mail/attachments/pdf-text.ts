/**
 * A PDF's text, with pdf.js (pdfjs-dist, its legacy build for Node; chosen in docs/attachments.md):
 * the text layer of the first `maxPages` pages, a line break where pdf.js marks the end of a line,
 * pages apart by a blank line. Never renders, never evaluates code from the file, never fetches.
 *
 * Owns: driving pdf.js and telling an encrypted, broken or image-only PDF apart. Deliberately not:
 * limits on bytes or time (read-document.ts), the wording of notes (notes.ts).
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfOutcome =
  | { readonly kind: 'text'; readonly text: string; readonly pagesRead: number; readonly pages: number }
  | { readonly kind: 'no-text-layer'; readonly pages: number }
  | { readonly kind: 'encrypted' }
  | { readonly kind: 'broken'; readonly why: string };

export interface PdfReading {
  readonly outcome: Promise<PdfOutcome>;
  /** Stops the reading (pdf.js tears the document down); the outcome then settles as broken or not at all. */
  readonly abort: () => void;
}

interface TextItemLike {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/** Starts reading; `bytes` is copied, pdf.js takes ownership of its copy. */
export function readPdfText(bytes: Uint8Array, maxPages: number): PdfReading {
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  const outcome = (async (): Promise<PdfOutcome> => {
    try {
      const doc = await task.promise;
      const pages = doc.numPages;
      const pagesRead = Math.min(pages, maxPages);
      const texts: string[] = [];
      for (let n = 1; n <= pagesRead; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        texts.push(
          (content.items as TextItemLike[])
            .map((i) => (i.str ?? '') + (i.hasEOL === true ? '\n' : ''))
            .join('')
            .trim(),
        );
        page.cleanup();
      }
      const text = texts.filter((t) => t !== '').join('\n\n');
      return text.trim() === '' ? { kind: 'no-text-layer', pages } : { kind: 'text', text, pagesRead, pages };
    } catch (error) {
      const e = error as { name?: string; message?: string };
      if (e.name === 'PasswordException') return { kind: 'encrypted' };
      return { kind: 'broken', why: describeFault(e) };
    } finally {
      await task.destroy().catch(() => undefined);
    }
  })();
  return { outcome, abort: () => void task.destroy().catch(() => undefined) };
}

function describeFault(e: { name?: string; message?: string }): string {
  if (e.name === 'InvalidPDFException') return 'it is not a valid PDF';
  const message = (e.message ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);
  return message === '' ? 'pdf.js could not open it' : `pdf.js: ${message}`;
}
