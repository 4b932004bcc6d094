/**
 * A generator for the learning world (issue 14, "references only in a PDF or XLSX"): a pre-alert
 * whose customer reference is only in an attached document (a commercial invoice or an air waybill
 * as PDF, or a manifest as XLSX), never in the subject or body. world.ts mixes these into its
 * stream (a share of its pre-alerts, `attachmentOnlyShare`), each from the sender it drew.
 *
 * Pure and deterministic for a given Random: the documents are assembled by hand
 * (fixtures/attachments/build.ts), so the same seed gives the same bytes.
 */
import { minimalXlsx, textPdf } from '../../fixtures/attachments/build.ts';
import type { Customer, Random, Sender, StreamMessage } from './stream.ts';

export type AttachedDocumentKind = 'invoice-pdf' | 'air-waybill-pdf' | 'manifest-xlsx';

export interface AttachmentOnlyMessage extends Omit<StreamMessage, 'narrowest'> {
  /** The narrowest mark a person would type: the reference, looked for in the attachments. */
  readonly narrowest: { readonly pattern: string; readonly where: 'attachments' };
  readonly document: AttachedDocumentKind;
}

const DOCUMENTS: readonly AttachedDocumentKind[] = ['invoice-pdf', 'air-waybill-pdf', 'manifest-xlsx'];

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, (ch) => `\\${ch}`);
}

function documentBytes(
  kind: AttachedDocumentKind,
  r: Random,
  ref: string,
  awb: string,
): { filename: string; type: string; bytes: Buffer } {
  const pieces = String(r.int(1, 40));
  const kg = String(r.int(20, 3000));
  switch (kind) {
    case 'invoice-pdf':
      return {
        filename: `invoice-${r.int(10000, 99999)}.pdf`,
        type: 'application/pdf',
        bytes: textPdf([
          [
            'COMMERCIAL INVOICE',
            `Invoice no. INV-${r.int(100000, 999999)}`,
            `Buyer's order ${ref}`,
            `${pieces} cartons, ${kg} kg`,
          ],
        ]),
      };
    case 'air-waybill-pdf':
      return {
        filename: `awb-${awb}.pdf`,
        type: 'application/pdf',
        bytes: textPdf([
          [`AIR WAYBILL ${awb}`, `Shipper's reference ${ref}`, `Pieces ${pieces}    Gross weight ${kg} kg`],
        ]),
      };
    case 'manifest-xlsx':
      return {
        filename: 'manifest.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes: minimalXlsx('Manifest', [
          ['MAWB', 'Shipper ref', 'Pcs', 'Weight kg'],
          [awb, ref, pieces, kg],
        ]),
      };
  }
}

/** One pre-alert from `sender` for `customer`, its reference (the customer's own family) only in the attached document. */
export function attachmentOnlyMessage(
  r: Random,
  m: { readonly week: number; readonly seq: number; readonly customer: Customer; readonly sender: Sender },
): AttachmentOnlyMessage {
  const ref = `${m.customer.refPrefix}-2026-${String(m.week * 1000 + r.int(0, 999)).padStart(4, '0')}`;
  const awb = `${r.int(100, 999)}-${r.int(10000000, 99999999)}`;
  const document = r.pick(DOCUMENTS);
  const doc = documentBytes(document, r, ref, awb);
  const messageId = `w${m.week}.${m.seq}.att${r.int(1e5, 9e5)}@stream.example`;
  const boundary = `a${m.seq}x`;
  const from = m.sender.display === '' ? m.sender.address : `"${m.sender.display}" <${m.sender.address}>`;
  const day = String(Math.min(28, m.week * 4)).padStart(2, '0');
  const body = [
    'Hello team,',
    '',
    'Please find the shipment documents attached.',
    '',
    'Kind regards,',
    'Operations',
  ].join('\r\n');
  const subject = 'Pre-alert: documents attached';
  const raw =
    `From: ${from}\r\nTo: imports@forwarder.example\r\nSubject: ${subject}\r\n` +
    `Message-ID: <${messageId}>\r\nDate: Mon, ${day} Sep 2026 10:${String(m.seq % 60).padStart(2, '0')}:00 +0000\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n` +
    `--${boundary}\r\nContent-Type: ${doc.type}; name="${doc.filename}"\r\nContent-Transfer-Encoding: base64\r\n` +
    `Content-Disposition: attachment; filename="${doc.filename}"\r\n\r\n` +
    `${(doc.bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')}\r\n--${boundary}--\r\n`;
  return {
    week: m.week,
    seq: m.seq,
    raw,
    messageId,
    truth: { customer: m.customer.name, kind: 'pre-alert' },
    subject,
    text: body,
    sender: m.sender,
    phenomena: ['attachment-only'],
    narrowest: { pattern: escapeRe(ref), where: 'attachments' },
    kindNarrowest: { pattern: 'Pre-alert', where: 'subject' },
    document,
  };
}
