/** Documents attached to mail (PDF text, XLSX rows) read into the attachment model, within bounds. */
export { readDocument, documentKindOf } from './read-document.ts';
export { DEFAULT_DOCUMENT_LIMITS, DOCUMENT_LIMIT_SETTINGS, resolveDocumentLimits } from './limits.ts';
export type { DocumentLimits } from './limits.ts';
