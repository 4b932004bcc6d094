// A CSV manifest reads into headings and rows as RFC 4180 says, whatever delimiter, quoting or BOM it carries.
import { describe, expect, it } from 'vitest';
import { looksLikeCsv, parseCsv, parseCsvRecords, sniffDelimiter } from './csv.ts';

describe('parseCsv', () => {
  it('reads headings and rows with CRLF line ends', () => {
    expect(parseCsv('Air Waybill No,Pieces\r\n176-1,3\r\n176-2,4\r\n')).toEqual({
      headings: ['Air Waybill No', 'Pieces'],
      rows: [
        ['176-1', '3'],
        ['176-2', '4'],
      ],
    });
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const table = parseCsv('Desc,Remarks\n"Brake discs, front","said ""fragile""\nkeep upright"\n');
    expect(table?.rows).toEqual([['Brake discs, front', 'said "fragile"\nkeep upright']]);
  });

  it('sniffs a semicolon delimiter and keeps decimal commas in cells', () => {
    expect(parseCsv('AWB;Weight kg\n157-3;96,5\n')).toEqual({
      headings: ['AWB', 'Weight kg'],
      rows: [['157-3', '96,5']],
    });
  });

  it('sniffs a tab delimiter and strips a byte-order mark', () => {
    expect(parseCsv('\ufeffMAWB\tPieces\n176\t9\n')).toEqual({
      headings: ['MAWB', 'Pieces'],
      rows: [['176', '9']],
    });
  });

  it("honours Excel's sep= first line", () => {
    expect(parseCsv('sep=;\r\nA,B;C\r\n1,2;3\r\n')).toEqual({ headings: ['A,B', 'C'], rows: [['1,2', '3']] });
  });

  it('does not count delimiters inside quotes when sniffing', () => {
    expect(sniffDelimiter('"a;b;c;d",x,y\n')).toBe(',');
  });

  it('drops blank lines and leading empty lines, keeps empty cells', () => {
    expect(parseCsv('\n\nA,B\n\n1,\n,\n')).toEqual({ headings: ['A', 'B'], rows: [['1', '']] });
  });

  it('returns null for text with no record', () => {
    expect(parseCsv('')).toBeNull();
    expect(parseCsv('\r\n\r\n')).toBeNull();
  });

  it('reads an unterminated quote to the end instead of failing', () => {
    expect(parseCsvRecords('A,"B\n1,2', ',')).toEqual([['A', 'B\n1,2']]);
  });

  it('handles bare CR line ends', () => {
    expect(parseCsv('A,B\r1,2\r')).toEqual({ headings: ['A', 'B'], rows: [['1', '2']] });
  });
});

describe('looksLikeCsv', () => {
  it('knows CSV by content type or file name', () => {
    expect(looksLikeCsv('text/csv', 'x')).toBe(true);
    expect(looksLikeCsv('application/octet-stream', 'Manifest.CSV')).toBe(true);
    expect(looksLikeCsv('text/tab-separated-values', 'm')).toBe(true);
    expect(looksLikeCsv('text/plain', 'notes.txt')).toBe(false);
  });
});
