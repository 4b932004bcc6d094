// Invariant: a PDF's text and an XLSX's rows reach the same attachment text and manifest model as a CSV's (issue 14), within the bounds of the one config; a document that cannot be read, or only in part, is kept by name with a note, and the message is still read (issue 16).
import { describe, expect, it } from 'vitest';
import { partText } from '../../../domain/mail/index.ts';
import { attachmentFixture, mailWith, type Attached } from '../../../../test/support/attached-mail.ts';
import { parseMail } from '../parse.ts';
import type { DocumentLimits } from './limits.ts';

function read(
  attachments: readonly Attached[],
  limits: Partial<DocumentLimits> & { maxTextChars?: number } = {},
) {
  const raw = mailWith(
    {
      from: 'Ops <ops@forwarder.example>',
      subject: 'Pre-alert',
      messageId: 'att@test',
      body: 'See attached.',
    },
    attachments,
  );
  // the first document of a thread waits for it to load pdf.js and exceljs: seconds on a loaded
  // machine, which the message's parse deadline must not count against these tests of the bounds
  return parseMail(raw, { parseTimeoutMs: 120_000, ...limits });
}

describe('documents attached to mail', () => {
  it('reads the text layer of a PDF (commercial invoice, air waybill) into the attachment text that attachments marks look in', async () => {
    const m = await read([attachmentFixture('invoice.pdf'), attachmentFixture('air-waybill.pdf')]);
    const [invoice, awb] = m.attachments;
    expect(invoice).toMatchObject({ filename: 'invoice.pdf', contentType: 'application/pdf', table: null });
    expect(invoice!.text).toContain('Purchase order NGM-PO-40412');
    expect(invoice!.text).toContain('COMMERCIAL INVOICE\nSeller: Kessler Autoteile GmbH');
    expect(awb!.text).toContain("Shipper's reference HLF-7781-K");
    expect(invoice!.note).toBeUndefined();
    expect(partText(m, 'attachments')).toContain('HLF-7781-K');
    expect(m.body).not.toContain('NGM-PO-40412');
  });

  it('reads an XLSX manifest into the same table model as a CSV (first non-blank row the headings), and every sheet into the text', async () => {
    const m = await read([attachmentFixture('manifest.xlsx')]);
    const [sheet] = m.attachments;
    expect(sheet!.table).toEqual({
      headings: ['MAWB', 'HAWB', 'Consignee ref', 'Pcs', 'Weight kg', 'Loaded'],
      rows: [
        ['176-55120934', 'HX-10021', 'AHT/2026/0412', '3', '52.5', '2026-08-14'],
        ['176-55120934', 'HX-10022', 'AHT/2026/0413', '1', '11', '2026-08-14'],
        // rich text reads as its text, a formula as its result, an empty trailing cell not at all
        ['176-55120934', 'HX-10023', 'AHT/2026/0414', '2', '4'],
      ],
    });
    expect(sheet!.text).toContain('AHT/2026/0412');
    expect(sheet!.text).toContain('Loaded at AMS by the night shift'); // the second sheet
    expect(sheet!.note).toBeUndefined();
  });

  it('keeps an encrypted, an image-only and a broken PDF by name with a note each, and still reads the message', async () => {
    const m = await read([
      attachmentFixture('encrypted-invoice.pdf'),
      attachmentFixture('scanned-invoice.pdf'),
      attachmentFixture('broken.pdf'),
    ]);
    expect(m.body).toBe('See attached.');
    expect(m.attachments.map((a) => [a.filename, a.text, a.table])).toEqual([
      ['encrypted-invoice.pdf', null, null],
      ['scanned-invoice.pdf', null, null],
      ['broken.pdf', null, null],
    ]);
    expect(m.attachments.map((a) => a.note)).toEqual([
      'The PDF encrypted-invoice.pdf is encrypted; its text was not read. Send it without a password to have it read.',
      'The PDF scanned-invoice.pdf has no text layer (a scan or a picture); its text was not read.',
      'The PDF broken.pdf cannot be read (it is not a valid PDF); its text was not read.',
    ]);
    // the encrypted invoice's reference never leaks through as text
    expect(partText(m, 'attachments')).not.toContain('NGM-PO-40412');
  });

  it('refuses a zip-bomb XLSX (64 MiB inflated) with a note before exceljs sees it, and a broken one likewise', async () => {
    const m = await read([attachmentFixture('zip-bomb.xlsx'), attachmentFixture('broken.xlsx')]);
    expect(m.attachments[0]).toMatchObject({ text: null, table: null });
    expect(m.attachments[0]!.note).toBe(
      'The spreadsheet zip-bomb.xlsx would unpack to more than 33,554,432 bytes (MAX_XLSX_INFLATED_BYTES), as a zip bomb does; its rows were not read.',
    );
    expect(m.attachments[1]!.note).toMatch(
      /^The spreadsheet broken\.xlsx cannot be read \(.+\); its rows were not read\.$/,
    );
  });

  it('reads the first MAX_PDF_PAGES pages of a long PDF and says so', async () => {
    const long = attachmentFixture('packing-list-40-pages.pdf');
    const cut = (await read([long], { maxPdfPages: 5 })).attachments[0]!;
    expect(cut.text).toContain('page 5 of 40');
    expect(cut.text).not.toContain('page 6 of 40');
    expect(cut.note).toBe(
      'Only the first 5 of the 40 pages of the PDF packing-list-40-pages.pdf were read (MAX_PDF_PAGES).',
    );
    const whole = (await read([long])).attachments[0]!;
    expect(whole.text).toContain('NGM-PO-40499'); // on the last page
    expect(whole.note).toBeUndefined();
  });

  it('stops an XLSX at MAX_XLSX_CELLS and says so', async () => {
    const a = (await read([attachmentFixture('manifest.xlsx')], { maxXlsxCells: 8 })).attachments[0]!;
    expect(a.table).toEqual({
      headings: ['MAWB', 'HAWB', 'Consignee ref', 'Pcs', 'Weight kg', 'Loaded'],
      rows: [['176-55120934', 'HX-10021']],
    });
    expect(a.note).toBe(
      'Only the first 8 cells of the spreadsheet manifest.xlsx were read (MAX_XLSX_CELLS).',
    );
  });

  it('keeps a document over MAX_DOCUMENT_BYTES by name, with a note, without opening it', async () => {
    const a = (await read([attachmentFixture('invoice.pdf')], { maxDocumentBytes: 100 })).attachments[0]!;
    expect(a).toMatchObject({ filename: 'invoice.pdf', text: null, table: null });
    expect(a.note).toMatch(
      /^The PDF invoice\.pdf is \d{3} bytes, more than the 100 read \(MAX_DOCUMENT_BYTES\); its text was not read\.$/,
    );
  });

  it('gives up a document that takes longer than DOCUMENT_TIMEOUT_MS, with a note, and still reads the message', async () => {
    const m = await read(
      [attachmentFixture('packing-list-40-pages.pdf'), attachmentFixture('air-waybill.pdf')],
      {
        documentTimeoutMs: 1,
      },
    );
    expect(m.attachments[0]!.text).toBeNull();
    expect(m.attachments[0]!.note).toBe(
      'Reading the PDF packing-list-40-pages.pdf took over 1 ms (DOCUMENT_TIMEOUT_MS); its text was not read.',
    );
    expect(m.body).toBe('See attached.');
  });

  it('cuts a document text at MAX_TEXT_CHARS with a note instead of refusing the message', async () => {
    const a = (await read([attachmentFixture('invoice.pdf')], { maxTextChars: 40 })).attachments[0]!;
    expect(a.text).toHaveLength(40);
    expect(a.note).toBe('Only the first 40 characters of the PDF invoice.pdf were read (MAX_TEXT_CHARS).');
  });

  it('recognises a PDF sent as application/octet-stream by its first bytes, and says an old .xls is not read', async () => {
    const m = await read([
      attachmentFixture('air-waybill.pdf', 'application/octet-stream'),
      {
        filename: 'manifest.xls',
        contentType: 'application/vnd.ms-excel',
        bytes: Buffer.from([0xd0, 0xcf, 0x11, 0xe0]),
      },
    ]);
    expect(m.attachments[0]!.text).toContain('HLF-7781-K');
    expect(m.attachments[1]!.note).toBe(
      'The spreadsheet manifest.xls is in the old Excel 97-2003 format (.xls); its rows were not read. Send it as .xlsx or CSV.',
    );
  });
});

describe('the document threads', () => {
  it('keeps a document whose reading outgrows DOCUMENT_MEMORY_MB by name, with a note, and reads the next one', async () => {
    const m = await read([attachmentFixture('packing-list-40-pages.pdf')], { documentMemoryMb: 4 });
    expect(m.attachments[0]!.text).toBeNull();
    expect(m.attachments[0]!.note).toBe(
      'Reading the PDF packing-list-40-pages.pdf needed more than 4 MiB of memory (DOCUMENT_MEMORY_MB); its text was not read.',
    );
    const next = await read([attachmentFixture('air-waybill.pdf')]);
    expect(next.attachments[0]!.text).toContain('HLF-7781-K');
  });
});
