// Invariant: the learning world mixes pre-alerts whose reference is only in a PDF or XLSX into its stream (world.ts `attachmentOnlyShare`, attachments-world.ts), one of each document kind at least, and the real ingest reads each from its attachments: the reference is in the attachments' text and nowhere else, with no note of a document not read (issue 14, "Evidence in attachments").
import { describe, expect, it } from 'vitest';
import { createWorld, DEFAULT_WORLD, type StreamMessage } from '../../bench/learning/world.ts';
import type { AttachmentOnlyMessage } from '../../bench/learning/attachments-world.ts';
import { partText } from '../../src/domain/mail/index.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

const world = createWorld({ ...DEFAULT_WORLD, messagesPerWeek: 150 });
const documents = world.stream.filter((m: StreamMessage) =>
  m.phenomena.includes('attachment-only'),
) as unknown as AttachmentOnlyMessage[];
/** One message per document kind: an invoice PDF, an air waybill PDF, an XLSX manifest. */
const oneOfEach = [...new Map(documents.map((m) => [m.document, m])).values()];

describe('references only in a PDF or XLSX, in the learning world (issue 14)', () => {
  it('mixes each document kind into the stream', () => {
    expect(oneOfEach.map((m) => m.document).sort()).toEqual([
      'air-waybill-pdf',
      'invoice-pdf',
      'manifest-xlsx',
    ]);
  });

  it.each(oneOfEach.map((m) => [m.document, m] as const))(
    'reads the reference from the %s',
    async (_d, m) => {
      const parsed = await parseMail(Buffer.from(m.raw));
      const ref = m.narrowest.pattern.replace(/\\/g, '');
      expect(partText(parsed, 'attachments')).toContain(ref);
      expect(`${parsed.subject}\n${parsed.body}`).not.toContain(ref);
      expect(parsed.attachments.map((a) => a.note)).toEqual([undefined]);
    },
    120_000,
  );
});
