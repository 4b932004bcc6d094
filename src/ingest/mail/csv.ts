/**
 * A small RFC 4180 CSV reader for manifests attached to mail: quoted fields with doubled quotes,
 * commas and line breaks inside quotes, CRLF / LF / CR line ends, a byte-order mark, Excel's
 * `sep=;` first line, and a delimiter sniffed from the first record (comma, semicolon, tab or pipe).
 * It does not guess types or trim cells: a manifest's headings reach the mappings as written.
 */
import type { ManifestTable } from '../../domain/mail/index.ts';

export type CsvDelimiter = ',' | ';' | '\t' | '|';
const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t', '|'];

/** Parses CSV text into records of fields (no heading logic). Lenient: a stray quote is kept as text. */
export function parseCsvRecords(text: string, delimiter: CsvDelimiter): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  let fieldStarted = false; // whether the current field has any content or opened with a quote
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c === delimiter) {
      record.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      fieldStarted = false;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (field !== '' || fieldStarted || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Counts each candidate delimiter outside quotes in the first record and picks the most frequent (comma on a tie or none). */
export function sniffDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      inQuotes = !inQuotes;
      continue;
    }
    if (inQuotes) continue;
    if (c === '\n' || c === '\r') break;
    const seen = counts.get(c as CsvDelimiter);
    if (seen !== undefined) counts.set(c as CsvDelimiter, seen + 1);
  }
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = counts.get(d)!;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

function isBlank(record: readonly string[]): boolean {
  return record.every((f) => f.trim() === '');
}

/**
 * Reads a manifest: the first non-blank record gives the headings, the rest are rows (blank rows dropped).
 * Returns null when the text holds no record at all.
 */
export function parseCsv(input: string, options?: { delimiter?: CsvDelimiter }): ManifestTable | null {
  let text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let delimiter = options?.delimiter;
  const sep = /^sep=(.)\r?\n/i.exec(text);
  if (sep !== null && DELIMITERS.includes(sep[1] as CsvDelimiter)) {
    delimiter ??= sep[1] as CsvDelimiter;
    text = text.slice(sep[0].length);
  }
  const firstContent = text.search(/[^\r\n]/);
  if (firstContent < 0) return null;
  text = text.slice(firstContent);
  delimiter ??= sniffDelimiter(text);
  const records = parseCsvRecords(text, delimiter).filter((r) => !isBlank(r));
  const [headings, ...rows] = records;
  if (headings === undefined) return null;
  return { headings, rows };
}

/** Whether an attachment is a CSV manifest, by its content type or its file name. */
export function looksLikeCsv(contentType: string, filename: string): boolean {
  const type = contentType.toLowerCase();
  if (type === 'text/csv' || type === 'application/csv' || type === 'text/comma-separated-values')
    return true;
  if (type === 'text/tab-separated-values') return true;
  return /\.(csv|tsv)$/i.test(filename);
}
