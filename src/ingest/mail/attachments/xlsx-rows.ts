/**
 * An XLSX's rows, with exceljs: every sheet's cells as text (what `attachments` marks look in) and
 * the first sheet that has any as a manifest table (what `mappings` reads), under the same rule as a
 * CSV (csv.ts): the first non-blank row gives the headings, blank rows are dropped, cells are not
 * trimmed. A cell reads as a person sees it: a formula as its result, rich text as its text, a date
 * as its day (ISO 8601), a hyperlink as its text.
 *
 * Owns: turning a workbook into rows and text, up to `maxCells`. Deliberately not: the zip-bomb
 * guard that runs first (zip-guard.ts), limits on bytes or time (read-document.ts).
 */
import ExcelJS from 'exceljs';
import type { ManifestTable } from '../../../domain/mail/index.ts';

export type XlsxOutcome =
  | {
      readonly kind: 'rows';
      readonly text: string;
      readonly table: ManifestTable | null;
      /** Whether cells were left unread at maxCells. */
      readonly cut: boolean;
      readonly cellsRead: number;
    }
  | { readonly kind: 'broken'; readonly why: string };

export async function readXlsxRows(bytes: Buffer, maxCells: number): Promise<XlsxOutcome> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    const message = ((error as { message?: string }).message ?? '').replace(/\s+/g, ' ').slice(0, 120);
    return { kind: 'broken', why: message === '' ? 'it is not a valid XLSX' : `exceljs: ${message}` };
  }
  let cells = 0;
  let cut = false;
  const sheetTexts: string[] = [];
  let table: ManifestTable | null = null;
  for (const sheet of workbook.worksheets) {
    const records: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (cut) return;
      const record: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) {
        if (cells >= maxCells) {
          cut = true;
          break;
        }
        cells++;
        record.push(cellText(row.getCell(c).value));
      }
      while (record.length > 0 && record[record.length - 1] === '') record.pop();
      if (record.some((f) => f.trim() !== '')) records.push(record);
    });
    if (records.length > 0) {
      sheetTexts.push(records.map((r) => r.join('\t')).join('\n'));
      if (table === null) table = { headings: records[0]!, rows: records.slice(1) };
    }
    if (cut) break;
  }
  return { kind: 'rows', text: sheetTexts.join('\n\n'), table, cut, cellsRead: cells };
}

/** A cell's value as a person sees it in the sheet. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) {
    const iso = Number.isNaN(value.getTime()) ? '' : value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('error' in value) return value.error;
  if ('formula' in value || 'sharedFormula' in value) {
    return value.result === undefined ? '' : cellText(value.result);
  }
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  return '';
}
