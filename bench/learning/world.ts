/**
 * A seeded, realistic mail stream for one tenant (issue 6): a few hundred customers with their own
 * staff (some on free-mail), forwarders and brokers writing on behalf of several customers, shared
 * platform senders whose messages differ only by a name or reference, multi-segment references,
 * new senders every week and CSV manifests with varying headings. Every message carries its truth.
 *
 * Pure and deterministic: the same seed gives the same stream, byte for byte.
 */

/** mulberry32: small, fast, good enough for test data. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p) => next() < p,
  };
}

export interface Random {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

export type Kind = 'pre-alert' | 'invoice' | 'proof-of-delivery' | 'booking' | 'customs-query';
export const KINDS: readonly Kind[] = [
  'pre-alert',
  'invoice',
  'proof-of-delivery',
  'booking',
  'customs-query',
];

export interface Customer {
  readonly name: string; // entry name, e.g. "c017-northvale"
  readonly label: string; // "Northvale Motors Ltd"
  readonly domain: string;
  readonly staff: string[]; // addresses; grows week by week
  /** A stable account prefix the customer puts in its own references, e.g. "NVM". */
  readonly refPrefix: string;
  readonly joinsInWeek: number;
}

export interface Sender {
  readonly address: string;
  readonly display: string;
  readonly role: 'staff' | 'forwarder' | 'platform';
}

export interface StreamMessage {
  readonly week: number;
  readonly seq: number;
  readonly raw: string;
  readonly messageId: string;
  readonly truth: { readonly customer: string; readonly kind: Kind };
  readonly sender: Sender;
  /** Narrowest mark a person would type to identify this message's customer (operator model). */
  readonly narrowest: { readonly pattern: string; readonly where: 'from' | 'subject' | 'body' };
  /** What a person would type to mark this message's kind: the subject's words before the reference. */
  readonly kindNarrowest: { readonly pattern: string; readonly where: 'subject' };
}

const SYL = [
  'nor',
  'th',
  'gate',
  'al',
  'ham',
  'ra',
  'gulf',
  'trade',
  'vel',
  'mar',
  'kin',
  'ost',
  'bel',
  'dor',
  'san',
  'tek',
  'lum',
  'vik',
  'zan',
  'pol',
  'rix',
  'ter',
  'cal',
  'mon',
];
const SUFFIX = [
  'Motors Ltd',
  'Trading',
  'Logistics',
  'Foods LLC',
  'Textiles',
  'Pharma GmbH',
  'Electronics',
  'Parts Co',
  'Imports',
  'Industries',
];
const FIRST = [
  'dana',
  'omar',
  'lena',
  'raj',
  'mei',
  'tom',
  'sara',
  'ali',
  'ines',
  'kofi',
  'yuki',
  'pavel',
  'nora',
  'sam',
  'li',
  'ana',
];
const FREEMAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'gmx.de'];
const HEADINGS: Record<string, readonly string[]> = {
  waybill: ['Air Waybill No', 'AWB', 'Waybill number', 'MAWB'],
  pieces: ['Pieces', 'Pcs', 'No. of packages'],
  weight: ['Gross weight (kg)', 'Weight', 'GW kg'],
};

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export interface WorldOptions {
  readonly seed: number;
  readonly customers: number;
  readonly forwarders: number;
  readonly weeks: number;
  readonly messagesPerWeek: number;
}

export const DEFAULT_WORLD: WorldOptions = {
  seed: 20261130,
  customers: 300,
  forwarders: 12,
  weeks: 6,
  messagesPerWeek: 400,
};

export interface World {
  readonly customers: readonly Customer[];
  readonly stream: readonly StreamMessage[];
}

export function createWorld(options: WorldOptions = DEFAULT_WORLD): World {
  const r = createRandom(options.seed);
  const usedLabels = new Set<string>();
  const customers: Customer[] = [];
  for (let i = 0; i < options.customers; i++) {
    let base = '';
    do base = cap(r.pick(SYL) + r.pick(SYL) + (r.chance(0.4) ? r.pick(SYL) : ''));
    while (usedLabels.has(base));
    usedLabels.add(base);
    const label = `${base} ${r.pick(SUFFIX)}`;
    const slug = base.toLowerCase();
    const domain = `${slug}.example`;
    const staffCount = r.int(1, 3);
    const staff: string[] = [];
    for (let s = 0; s < staffCount; s++) staff.push(staffAddress(r, domain, slug));
    customers.push({
      name: `c${String(i).padStart(3, '0')}-${slug}`,
      label,
      domain,
      staff,
      refPrefix: (slug.slice(0, 3) + String.fromCharCode(65 + (i % 26))).toUpperCase(),
      // Most customers exist from week 1; a tail joins later (new business).
      joinsInWeek: r.chance(0.85) ? 1 : r.int(2, options.weeks),
    });
  }
  const forwarders = Array.from({ length: options.forwarders }, (_, i) => {
    const name = `${cap(r.pick(SYL))}${r.pick(SYL)} Forwarding`;
    const address = `ops${i}@${name.toLowerCase().replace(/[^a-z]/g, '')}.example`;
    const clients = Array.from({ length: r.int(4, 15) }, () => r.pick(customers));
    return { address, display: `${name} Ops`, clients };
  });
  const platforms = [
    { address: 'noreply@bookings.cargoportal.example', display: 'CargoPortal Bookings' },
    { address: 'notifications@track.shiplink.example', display: 'ShipLink' },
  ];

  const stream: StreamMessage[] = [];
  let seq = 0;
  for (let week = 1; week <= options.weeks; week++) {
    // New senders every week: some customers hire staff.
    if (week > 1) {
      for (const c of customers)
        if (c.joinsInWeek <= week && r.chance(0.08)) c.staff.push(staffAddress(r, c.domain, c.name));
    }
    const active = customers.filter((c) => c.joinsInWeek <= week);
    for (let n = 0; n < options.messagesPerWeek; n++) {
      // Traffic is skewed: a few customers send most mail.
      const customer = active[Math.floor(Math.pow(r.next(), 1.6) * active.length)] as Customer;
      const kind = r.pick(KINDS);
      const roll = r.next();
      let sender: Sender;
      let onBehalf = false;
      if (roll < 0.72) {
        sender = { address: r.pick(customer.staff), display: '', role: 'staff' };
      } else if (roll < 0.9) {
        const fw = forwarders.find((f) => f.clients.includes(customer)) ?? r.pick(forwarders);
        if (!fw.clients.includes(customer)) fw.clients.push(customer);
        sender = { address: fw.address, display: fw.display, role: 'forwarder' };
        onBehalf = true;
      } else {
        const p = r.pick(platforms);
        sender = { address: p.address, display: p.display, role: 'platform' };
      }
      seq++;
      stream.push(composeMessage(r, { week, seq, customer, kind, sender, onBehalf }));
    }
  }
  return { customers, stream };
}

function staffAddress(r: Random, domain: string, slug: string): string {
  const first = r.pick(FIRST);
  if (r.chance(0.12)) return `${first}.${slug.replace(/^c\d+-/, '')}${r.int(1, 99)}@${r.pick(FREEMAIL)}`;
  return `${first}${r.chance(0.3) ? `.${r.pick(FIRST)}` : ''}@${domain}`;
}

function reference(r: Random, c: Customer, week: number): string {
  return r.chance(0.5)
    ? `${c.refPrefix}-2026-${String(week * 1000 + r.int(0, 999)).padStart(4, '0')}`
    : `HBL/2026/${String(r.int(0, 99999)).padStart(5, '0')}/${c.refPrefix}`;
}

const SUBJECTS: Record<Kind, readonly string[]> = {
  'pre-alert': ['Pre-alert {ref}', 'PRE-ALERT: shipment {ref}', 'Pre alert for {ref}'],
  invoice: ['Invoice {ref}', 'Freight invoice for {ref}', 'INV {ref}'],
  'proof-of-delivery': ['POD {ref}', 'Proof of delivery {ref}', 'Delivered: {ref}'],
  booking: ['Booking request {ref}', 'New booking {ref}', 'Booking confirmation {ref}'],
  'customs-query': ['Customs query {ref}', 'Customs hold on {ref}', 'Query from customs: {ref}'],
};

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, (ch) => (ch === '-' || ch === '/' ? ch : `\\${ch}`));
}

function composeMessage(
  r: Random,
  m: { week: number; seq: number; customer: Customer; kind: Kind; sender: Sender; onBehalf: boolean },
): StreamMessage {
  const ref = reference(r, m.customer, m.week);
  const template = r.pick(SUBJECTS[m.kind]);
  const subject = template.replace('{ref}', ref);
  const messageId = `w${m.week}.${m.seq}.${r.int(1e5, 9e5)}@stream.example`;
  const namesCustomer = m.sender.role !== 'staff' || r.chance(0.3);
  const lines = [
    'Hello team,',
    '',
    m.onBehalf
      ? `On behalf of our client ${m.customer.label}, please find the details for shipment ${ref}.`
      : m.sender.role === 'platform'
        ? `${cap(m.kind.replace(/-/g, ' '))} for ${m.customer.label}, reference ${ref}.`
        : `Please find the details for our shipment ${ref}${namesCustomer ? ` (${m.customer.label})` : ''}.`,
    `Flight ${r.pick(['EK', 'QR', 'LH', 'TK'])}${r.int(100, 999)}, ${r.int(1, 40)} pieces, ${r.int(20, 3000)} kg.`,
    '',
    'Kind regards,',
    m.sender.role === 'staff' ? cap(m.sender.address.split(/[.@]/)[0] ?? 'ops') : m.sender.display,
  ];
  let body = lines.join('\r\n');
  let mime = `Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;
  if (m.kind === 'pre-alert' && r.chance(0.5)) {
    const cols = Object.keys(HEADINGS).map((f) => r.pick(HEADINGS[f] ?? []));
    const csv = [
      cols.join(','),
      `${r.int(100, 999)}-${r.int(10000000, 99999999)},${r.int(1, 40)},${r.int(20, 3000)}`,
    ].join('\r\n');
    const boundary = `b${m.seq}x`;
    body = `${body}\r\n`;
    mime =
      `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
      `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n` +
      `--${boundary}\r\nContent-Type: text/csv; name="manifest.csv"\r\nContent-Disposition: attachment; filename="manifest.csv"\r\n\r\n${csv}\r\n` +
      `--${boundary}--\r\n`;
  }
  const from = m.sender.display === '' ? m.sender.address : `"${m.sender.display}" <${m.sender.address}>`;
  const day = String(Math.min(28, m.week * 4)).padStart(2, '0');
  const autoHeaders = m.sender.role === 'platform' ? 'Auto-Submitted: auto-generated\r\n' : '';
  const raw =
    `From: ${from}\r\nTo: imports@forwarder.example\r\nSubject: ${subject}\r\n` +
    `Message-ID: <${messageId}>\r\nDate: Mon, ${day} Sep 2026 09:${String(m.seq % 60).padStart(2, '0')}:00 +0000\r\n` +
    `MIME-Version: 1.0\r\n${autoHeaders}${mime}`;
  const narrowest =
    m.sender.role === 'staff'
      ? { pattern: escapeRe(m.sender.address), where: 'from' as const }
      : { pattern: escapeRe(m.customer.label), where: 'body' as const };
  const kindWords = (template.split('{ref}')[0] ?? '')
    .replace(/[\s:]+$/, '')
    .replace(/\s+(?:for|on|from)$/i, '');
  const kindNarrowest = { pattern: escapeRe(kindWords), where: 'subject' as const };
  return {
    week: m.week,
    seq: m.seq,
    raw,
    messageId,
    truth: { customer: m.customer.name, kind: m.kind },
    sender: m.sender,
    narrowest,
    kindNarrowest,
  };
}
