/**
 * The hard phenomena of freight mail that issue 14 measured (all seeded, generic, never tuned to a
 * seed): person-looking forwarders writing for several customers with nothing that says so, group
 * desks writing for sibling companies whose names nest ("Velmar Trading" inside "Velmar Trading &
 * Contracting"), replies that quote another message (and thread hijacks, where the inherited
 * subject is another customer's), reply subjects carrying another kind's cue, and shared series
 * beside each customer's own reference family (a forwarder's job numbers, a platform's bills).
 * References only in a PDF or XLSX are left as a hook (`attachmentOnlyReference`) for the
 * attachments work.
 *
 * Owns: the shape of those messages. Does not own: the stream's mix (world.ts decides who sends what).
 */
import type { Kind, Random } from './stream.ts';

const LAST = ['jensen', 'okafor', 'haddad', 'novak', 'silva', 'tanaka', 'moreau', 'kowalski', 'rahman'];
const AGENCY = ['cargolinx', 'bluewake', 'tradelane', 'portbridge', 'skyroute', 'seamark'];

/** A forwarding agent's staff member: an address that looks like a person's, at the agency's domain. */
export function personForwarderAddress(r: Random, first: readonly string[], i: number): string {
  return `${r.pick(first)}.${r.pick(LAST)}@${r.pick(AGENCY)}${i}.example`;
}

/** A forwarder's own job number: one series for all its clients. */
export function forwarderJob(r: Random): string {
  return `JOB-${r.int(100000, 999999)}`;
}

/** A platform's bill number: one series for every customer it carries. */
export function platformBill(r: Random): string {
  return `CPB-2026-${String(r.int(0, 99999)).padStart(5, '0')}`;
}

/** The words a reply's new text uses for its kind (the new text decides the kind, not the subject). */
export const NEW_TEXT_KIND: Record<Kind, { readonly sentence: string; readonly cue: string }> = {
  'pre-alert': { sentence: 'Here is the pre-alert for this one.', cue: 'pre-alert for this one' },
  invoice: { sentence: 'Please find our freight invoice attached.', cue: 'freight invoice attached' },
  'proof-of-delivery': {
    sentence: 'The goods were delivered; proof of delivery attached.',
    cue: 'proof of delivery attached',
  },
  booking: { sentence: 'We would like to book this shipment.', cue: 'like to book this shipment' },
  'customs-query': { sentence: 'Customs have a query on this shipment.', cue: 'customs have a query' },
};

/** The quoted part of a reply: the earlier message under an attribution line, each line quoted. */
export function quoted(earlier: {
  readonly from: string;
  readonly subject: string;
  readonly body: string;
}): string {
  const lines = earlier.body.split(/\r\n/).map((l) => `> ${l}`);
  return [
    `On Mon, 7 Sep 2026 at 10:02, ${earlier.from} wrote:`,
    `> Subject: ${earlier.subject}`,
    ...lines,
  ].join('\r\n');
}

/**
 * Hook for the attachments work: a reference carried only in a PDF or XLSX attachment. Returns null
 * until that part can be generated (the world then keeps the reference in the text).
 */
export function attachmentOnlyReference(): null {
  return null;
}

/**
 * Issue 26: an e-invoicing platform's own numbers, one series for every customer it bills, in the
 * subject; the world arranges that its first two invoices are one customer's (a coincidence that
 * looks like that customer's family).
 */
export const EINVOICE_PLATFORM = {
  address: 'noreply@einvoice-hub.example',
  display: 'E-Invoice Hub',
} as const;

/** The platform's next invoice number: `INV-2026-` and six digits, rising. */
export function einvoiceNumber(r: Random, previous: number): number {
  return previous + r.int(3, 300);
}
