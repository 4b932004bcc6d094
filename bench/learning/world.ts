/**
 * A seeded, realistic mail stream for one tenant (issue 6): a few hundred customers with their own
 * staff (some on free-mail), forwarders and brokers writing on behalf of several customers, shared
 * platform senders whose messages differ only by a name or reference, multi-segment references,
 * new senders every week and CSV manifests with varying headings. Every message carries its truth.
 *
 * Issue 14's phenomena (phenomena.ts) are mixed in: person-looking forwarders, group desks for
 * sibling companies, replies quoting other mail and thread hijacks, reply subjects with another
 * kind's cue, shared series beside each customer's own reference family.
 *
 * Pure and deterministic: the same seed gives the same stream, byte for byte.
 */
import {
  EINVOICE_PLATFORM,
  einvoiceNumber,
  forwarderJob,
  NEW_TEXT_KIND,
  personForwarderAddress,
  platformBill,
  quoted,
} from './phenomena.ts';
import {
  createRandom,
  KINDS,
  type Customer,
  type Kind,
  type Phenomenon,
  type Random,
  type Sender,
  type StreamMessage,
} from './stream.ts';

export { createRandom, KINDS };
export type { Customer, Kind, Random, Sender, StreamMessage };
import { attachmentOnlyMessage } from './attachments-world.ts';
import {
  createTrustForwarders,
  DEFAULT_SENDER_TRUST,
  forwarderNotice,
  nextClient,
  spoof,
  type Drawn,
  type SenderTrustOptions,
  type TrustForwarder,
} from './sender-trust-world.ts';
import {
  colleagueForward,
  createWordings,
  DEFAULT_ANSWERS,
  withInitialsDomain,
  wordedSubject,
  type AnswersOptions,
  type Wording,
} from './answers-world.ts';

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
  /** Issue 14: forwarders whose address looks like a person's and says nothing of its clients. */
  readonly personForwarders?: number;
  /** Issue 14: pairs of sibling companies ("X Trading", "X Trading & Contracting") with one group desk. */
  readonly siblingPairs?: number;
  /** Issue 14: share of pre-alerts (not replies) whose reference is only in an attached PDF or XLSX. */
  readonly attachmentOnlyShare?: number;
  /** Issue 26: share of invoices sent by an e-invoicing platform whose numbers all customers share. */
  readonly einvoiceShare?: number;
  /** Issue 26: pairs of sibling companies whose staff write from one shared domain. */
  readonly sharedDomainPairs?: number;
  /**
   * Issue 28: the share of mail per customer is Zipf-like, the customer of rank k (in a seeded order)
   * weighing 1/k^customerZipf; unset, the older skew (a few customers send most mail, weakly).
   */
  readonly customerZipf?: number;
  /** Issue 28: a customer's staff member of rank j (first hired first) writes 1/j^staffZipf of its mail; unset, all alike. */
  readonly staffZipf?: number;
  /** Issue 28: the chance a week that a customer sending mail hires someone who will write (default 0.08). */
  readonly hiresPerWeek?: number;
  /** Issue 28: the share of customers who first write after week 1, new business (default 0.15). */
  readonly newBusiness?: number;
  /** Issue 38: first-client forwarders and display-name spoofs (sender-trust-world.ts); unset, none. */
  readonly senderTrust?: SenderTrustOptions;
  /** Issue 39: wordings per customer, initials domains, colleague forwards (answers-world.ts); unset, none. */
  readonly answers?: AnswersOptions;
}

/** Issue 28's calibration (bench/learning/calibrate.ts, docs/learning.md). */
const CUSTOMER_ZIPF = 1.8;
const STAFF_ZIPF = 2;
const HIRES_PER_WEEK = 0.015;
const NEW_BUSINESS = 0.05;

export const DEFAULT_WORLD: WorldOptions = {
  seed: 20261130,
  customers: 300,
  forwarders: 12,
  weeks: 6,
  messagesPerWeek: 400,
  personForwarders: 8,
  siblingPairs: 6,
  attachmentOnlyShare: 0.2,
  einvoiceShare: 0.3,
  sharedDomainPairs: 3,
  customerZipf: CUSTOMER_ZIPF,
  staffZipf: STAFF_ZIPF,
  hiresPerWeek: HIRES_PER_WEEK,
  newBusiness: NEW_BUSINESS,
  senderTrust: DEFAULT_SENDER_TRUST,
  answers: DEFAULT_ANSWERS,
};

export interface World {
  readonly customers: readonly Customer[];
  readonly stream: readonly StreamMessage[];
}

export function createWorld(options: WorldOptions = DEFAULT_WORLD): World {
  const r = createRandom(options.seed);
  const usedLabels = new Set<string>();
  const usedPrefixes = new Set<string>();
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
      refPrefix: uniquePrefix(
        usedPrefixes,
        (slug.slice(0, 3) + String.fromCharCode(65 + (i % 26))).toUpperCase(),
      ),
      // Most customers exist from week 1; a tail joins later (new business).
      joinsInWeek: r.chance(1 - (options.newBusiness ?? 0.15)) ? 1 : r.int(2, options.weeks),
    });
  }
  // Issue 39: its own Random, so the rest of the stream stays as it was.
  const a = createRandom(options.seed ^ 0x39393939);
  if (options.answers !== undefined) initialsDomains(a, customers, options.answers.initialsDomains);
  const forwarders = Array.from({ length: options.forwarders }, (_, i) => {
    const name = `${cap(r.pick(SYL))}${r.pick(SYL)} Forwarding`;
    const address = `ops${i}@${name.toLowerCase().replace(/[^a-z]/g, '')}.example`;
    const clients = Array.from({ length: r.int(4, 15) }, () => r.pick(customers));
    return { address, display: `${name} Ops`, clients };
  });
  // Issue 14: sibling companies whose names nest, written for by one group desk.
  const desks = new Map<Customer, Sender>();
  for (let k = 0; k < (options.siblingPairs ?? 0); k++) {
    let base = '';
    do base = cap(r.pick(SYL) + r.pick(SYL) + r.pick(SYL));
    while (usedLabels.has(base));
    usedLabels.add(base);
    const slug = base.toLowerCase();
    const desk: Sender = {
      address: `desk@${slug}group.example`,
      display: `${base} Group`,
      role: 'group-desk',
    };
    for (const [label, suffix] of [
      [`${base} Trading`, 't'],
      [`${base} Trading & Contracting`, 'c'],
    ] as const) {
      const i = customers.length;
      const domain = `${slug}${suffix === 'c' ? '-contracting' : ''}.example`;
      const c: Customer = {
        name: `c${String(i).padStart(3, '0')}-${slug}${suffix}`,
        label,
        domain,
        staff: [staffAddress(r, domain, slug)],
        refPrefix: uniquePrefix(
          usedPrefixes,
          (slug.slice(0, 3) + suffix + String.fromCharCode(65 + (i % 26))).toUpperCase(),
        ),
        joinsInWeek: 1,
      };
      customers.push(c);
      desks.set(c, desk);
    }
  }
  // Issue 26: sibling companies whose staff write from one domain ("Silkroad Imports", "Silkroad
  // Ceramics" at silkroad.example), drawn from their own Random so the rest of the stream stays.
  const traps = createRandom(options.seed ^ 0x26261126);
  // Two companies' staff are two sets of people: an address is drawn again until it is nobody's yet.
  const siblingAddresses = new Set<string>();
  for (let k = 0; k < (options.sharedDomainPairs ?? 0); k++) {
    let base = '';
    do base = cap(traps.pick(SYL) + traps.pick(SYL) + traps.pick(SYL));
    while (usedLabels.has(base));
    usedLabels.add(base);
    const slug = base.toLowerCase();
    const domain = `${slug}.example`;
    for (const [suffix, tag, sibling] of [
      ['Imports Ltd', 'i', 'k'],
      ['Ceramics', 'k', 'i'],
    ] as const) {
      const i = customers.length;
      customers.push({
        sharesDomainWith: `${slug}${sibling}`,
        name: `c${String(i).padStart(3, '0')}-${slug}${tag}`,
        label: `${base} ${suffix}`,
        domain,
        staff: [
          siblingStaff(traps, domain, slug, siblingAddresses),
          siblingStaff(traps, domain, slug, siblingAddresses),
        ],
        refPrefix: uniquePrefix(
          usedPrefixes,
          (slug.slice(0, 3) + tag + String.fromCharCode(65 + (i % 26))).toUpperCase(),
        ),
        joinsInWeek: 1,
      });
    }
  }
  // Issue 14: person-looking forwarders, each writing for a handful of customers.
  const people = Array.from({ length: options.personForwarders ?? 0 }, (_, i) => {
    const sender: Sender = {
      address: personForwarderAddress(r, FIRST, i),
      display: '',
      role: 'person-forwarder',
    };
    return { sender, clients: Array.from({ length: r.int(3, 8) }, () => r.pick(customers)) };
  });
  const platforms = [
    { address: 'noreply@bookings.cargoportal.example', display: 'CargoPortal Bookings' },
    { address: 'notifications@track.shiplink.example', display: 'ShipLink' },
  ];

  const wordings =
    options.answers === undefined
      ? new Map<string, Wording>()
      : createWordings(a, customers, options.answers);
  const stream: StreamMessage[] = [];
  const last = new Map<string, StreamMessage>();
  // Issue 14 (kind engineer's hunk): pre-alerts whose reference is only in a PDF or XLSX
  // (attachments-world.ts), drawn from their own Random so the rest of the stream stays the same.
  const documents = createRandom(options.seed ^ 0x5eed0d0c);
  // Issue 26: the e-invoicing platform's series; its first two invoices are one customer's.
  let einvoice = 8000 + traps.int(0, 999);
  const einvoiced: Customer[] = [];
  // Issue 38: forwarders whose first messages are one client's, and spoofs, from their own Random.
  const trust = createRandom(options.seed ^ 0x38383838);
  const trustForwarders =
    options.senderTrust === undefined ? [] : createTrustForwarders(trust, customers, options.senderTrust);
  let seq = 0;
  for (let week = 1; week <= options.weeks; week++) {
    // New senders every week: some customers hire staff.
    if (week > 1) {
      for (const c of customers)
        if (c.joinsInWeek <= week && r.chance(options.hiresPerWeek ?? 0.08)) {
          const hired = staffAddress(r, c.domain, c.name);
          c.staff.push(
            c.sharesDomainWith === undefined || !siblingAddresses.has(hired)
              ? hired
              : siblingStaff(traps, c.domain, c.name, siblingAddresses),
          );
          if (c.sharesDomainWith !== undefined) siblingAddresses.add(c.staff[c.staff.length - 1]!);
        }
    }
    const active = customers.filter((c) => c.joinsInWeek <= week);
    for (let n = 0; n < options.messagesPerWeek; n++) {
      // Traffic is skewed: a few customers send most mail.
      let customer = pickCustomer(r.next(), active, options.customerZipf);
      const kind = r.pick(KINDS);
      const viaEinvoice = kind === 'invoice' && traps.chance(options.einvoiceShare ?? 0);
      if (viaEinvoice && einvoiced.length === 1) customer = einvoiced[0]!;
      const roll = r.next();
      let sender: Sender;
      let onBehalf = false;
      const desk = desks.get(customer);
      const person = people.find((p) => p.clients.includes(customer));
      if (desk !== undefined && roll < 0.5) {
        sender = desk;
      } else if (person !== undefined && roll < 0.3) {
        sender = person.sender;
      } else if (roll < 0.72) {
        sender = {
          address: pickStaff(r.next(), customer.staff, options.staffZipf),
          display: '',
          role: 'staff',
        };
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
      // Issue 14: some mail replies to the customer's last message (quoting it; sometimes with
      // another kind's cue in the inherited subject), a few hijack another customer's thread.
      const own = last.get(customer.name);
      const others = [...last.values()];
      let reply: Reply | undefined;
      if (sender.role !== 'platform' && own !== undefined && r.chance(0.15)) {
        reply = { to: own, hijack: false };
      } else if (sender.role !== 'platform' && others.length > 10 && r.chance(0.03)) {
        const to = r.pick(others);
        if (to.truth.customer !== customer.name) reply = { to, hijack: true };
      }
      let invoiceNumber: string | undefined;
      if (viaEinvoice) {
        sender = { address: EINVOICE_PLATFORM.address, display: EINVOICE_PLATFORM.display, role: 'platform' };
        onBehalf = false;
        reply = undefined;
        einvoice = einvoiceNumber(traps, einvoice);
        invoiceNumber = `INV-2026-${String(einvoice).padStart(6, '0')}`;
        einvoiced.push(customer);
      }
      // Issue 26: mail arrives on the week's five working days (Monday 31 Aug 2026 opens week 1).
      const weekday = Math.floor((5 * n) / options.messagesPerWeek);
      const sent = new Date(Date.UTC(2026, 7, 31 + (week - 1) * 7 + weekday, 9, seq % 60));
      let message = composeMessage(r, {
        week,
        sent,
        seq,
        customer,
        kind,
        sender,
        onBehalf,
        reply,
        invoiceNumber,
        wording: wordings.get(customer.name),
      });
      if (kind === 'pre-alert' && reply === undefined && documents.chance(options.attachmentOnlyShare ?? 0))
        message = attachmentOnlyMessage(documents, { week, seq, customer, sender });
      if (options.senderTrust !== undefined)
        message =
          senderTrustSlot(trust, options.senderTrust, trustForwarders, { week, seq, sent, kind }, active) ??
          message;
      if (options.answers !== undefined && a.chance(options.answers.colleagueForwardShare))
        message = colleagueSlot(a, wordings, { week, seq, sent, kind }, customer);
      stream.push(message);
      last.set(message.truth.customer, message);
    }
  }
  return { customers, stream };
}

/**
 * Issue 38: this slot's message replaced by a first-client forwarder's notice or a display-name
 * spoof, or null to keep it; every draw from `t` alone.
 */
function senderTrustSlot(
  t: Random,
  o: SenderTrustOptions,
  forwarders: readonly TrustForwarder[],
  slot: Pick<Drawn, 'week' | 'seq' | 'sent' | 'kind'>,
  active: readonly Customer[],
): StreamMessage | null {
  const u = t.next();
  if (u < o.forwarderShare && forwarders.length > 0) {
    const f = t.pick(forwarders);
    return forwarderNotice(t, f, drawn(t, slot, nextClient(t, f), f.sender));
  }
  if (u >= o.forwarderShare + o.spoofShare) return null;
  const victim = t.pick(active.filter((c) => c.sharesDomainWith === undefined));
  const customer = t.pick(active);
  if (customer === victim) return null;
  return spoof(t, victim, drawn(t, slot, customer, { address: '', display: '', role: 'spoof' }));
}

/** Issue 39: a share of the customers write from a domain named by their initials (each domain once). */
function initialsDomains(a: Random, customers: Customer[], share: number): void {
  const used = new Set(customers.map((c) => c.domain));
  for (let i = 0; i < customers.length; i++) {
    if (!a.chance(share)) continue;
    const moved = withInitialsDomain(customers[i]!);
    if (used.has(moved.domain)) continue;
    used.add(moved.domain);
    customers[i] = moved;
  }
}

/** Issue 39: a colleague's forward of `customer`'s mail, in the customer's own wording. */
function colleagueSlot(
  a: Random,
  wordings: ReadonlyMap<string, Wording>,
  slot: Pick<Drawn, 'week' | 'seq' | 'sent' | 'kind'>,
  customer: Customer,
): StreamMessage {
  const ref = reference(a, customer, slot.week);
  const wording = wordings.get(customer.name);
  const worded =
    wording === undefined
      ? {
          subject: `${cap(slot.kind.replace(/-/g, ' '))} ${ref}`,
          kindWords: cap(slot.kind.replace(/-/g, ' ')),
        }
      : wordedSubject(wording, customer, slot.kind, ref);
  return colleagueForward(a, {
    ...slot,
    customer,
    ref,
    subject: worded.subject,
    kindNarrowest: { pattern: asTyped(worded.kindWords), where: 'subject' },
  });
}

/** A message's reference, subject and the marks a person would type, for `customer`. */
function drawn(
  t: Random,
  slot: Pick<Drawn, 'week' | 'seq' | 'sent' | 'kind'>,
  customer: Customer,
  sender: Sender,
): Drawn {
  const ref = reference(t, customer, slot.week);
  const template = t.pick(SUBJECTS[slot.kind]);
  return {
    ...slot,
    customer,
    ref,
    subject: template.replace('{ref}', ref),
    narrowest: carefulMark(customer, sender, ref, true),
    kindNarrowest: { pattern: asTyped(kindWords(template)), where: 'subject' },
  };
}

/**
 * The customer a draw `u` in [0, 1) picks: the older skew, or (issue 28) Zipf over the customers in
 * the order they were made (which the seed shuffles: their names are drawn), one draw either way.
 */
function pickCustomer(u: number, active: readonly Customer[], zipf: number | undefined): Customer {
  if (zipf === undefined) return active[Math.floor(Math.pow(u, 1.6) * active.length)]!;
  return active[zipfIndex(u, active.length, zipf)]!;
}

function pickStaff(u: number, staff: readonly string[], zipf: number | undefined): string {
  return staff[zipf === undefined ? Math.floor(u * staff.length) : zipfIndex(u, staff.length, zipf)]!;
}

/** The index of rank k+1 under weights 1/(k+1)^s, for one uniform draw. */
function zipfIndex(u: number, n: number, s: number): number {
  let total = 0;
  for (let k = 1; k <= n; k++) total += 1 / Math.pow(k, s);
  let acc = 0;
  for (let k = 1; k <= n; k++) {
    acc += 1 / Math.pow(k, s) / total;
    if (u < acc) return k - 1;
  }
  return n - 1;
}

interface Reply {
  readonly to: StreamMessage;
  /** The earlier message is another customer's (its subject inherited, its text quoted). */
  readonly hijack: boolean;
}

/**
 * A customer's own prefix, unique in the world: a series two customers share is modelled on
 * purpose (forwarders' jobs, platforms' bills), never by accident of naming.
 */
function uniquePrefix(used: Set<string>, wanted: string): string {
  let p = wanted;
  for (let n = 0; used.has(p); n++) p = `${wanted}${String.fromCharCode(65 + (n % 26))}`;
  used.add(p);
  return p;
}

function staffAddress(r: Random, domain: string, slug: string): string {
  const first = r.pick(FIRST);
  if (r.chance(0.12)) return `${first}.${slug.replace(/^c\d+-/, '')}${r.int(1, 99)}@${r.pick(FREEMAIL)}`;
  return `${first}${r.chance(0.3) ? `.${r.pick(FIRST)}` : ''}@${domain}`;
}

/** Issue 26: a staff address of a company sharing its domain, unlike any drawn for either sibling. */
function siblingStaff(r: Random, domain: string, slug: string, used: Set<string>): string {
  let address = staffAddress(r, domain, slug);
  for (let n = 2; used.has(address); n++) address = address.replace('@', `${n}@`);
  used.add(address);
  return address;
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

/**
 * Issue 27: text as a person types it (the learnable bounds plain text whole, plain-mark.ts); only
 * text holding pattern syntax is escaped, as a person who knows it would.
 */
function asTyped(s: string): string {
  return /[*+?^${}()|[\]\\]/.test(s) ? escapeRe(s) : s;
}

function composeMessage(
  r: Random,
  m: {
    week: number;
    /** When it was sent (its Date header). */
    sent: Date;
    seq: number;
    customer: Customer;
    kind: Kind;
    sender: Sender;
    onBehalf: boolean;
    reply: Reply | undefined;
    /** Issue 26: the e-invoicing platform's number, in the subject instead of the customer's reference. */
    invoiceNumber?: string | undefined;
    /** Issue 39: the customer's own way of writing subjects. */
    wording?: Wording | undefined;
  },
): StreamMessage {
  const phenomena: Phenomenon[] = [];
  const ref = reference(r, m.customer, m.week);
  const drawn = r.pick(SUBJECTS[m.kind]);
  const worded =
    m.wording === undefined || m.invoiceNumber !== undefined || m.sender.role === 'platform'
      ? null
      : wordedSubject(m.wording, m.customer, m.kind, ref);
  const template = m.invoiceNumber === undefined ? drawn : `Debit note {ref}`;
  // A reply inherits the earlier subject (another kind's cue, or another customer's reference).
  const inherited = m.reply === undefined ? null : m.reply.to.subject.replace(/^(?:Re: )+/, '');
  const otherKind = m.reply !== undefined && m.reply.to.truth.kind !== m.kind;
  const subject =
    inherited !== null
      ? `Re: ${inherited}`
      : (worded?.subject ?? template.replace('{ref}', m.invoiceNumber ?? ref));
  const messageId = `w${m.week}.${m.seq}.${r.int(1e5, 9e5)}@stream.example`;
  const namesCustomer =
    (m.sender.role === 'group-desk' ||
      (m.sender.role === 'person-forwarder' ? r.chance(0.5) : m.sender.role !== 'staff' || r.chance(0.3))) &&
    // Issue 39: staff at a domain named by initials name their company only in their signature.
    !(m.sender.role === 'staff' && m.customer.signsAs !== undefined);
  const series =
    m.sender.role === 'forwarder' || m.sender.role === 'person-forwarder'
      ? ` Our job ${forwarderJob(r)}.`
      : m.sender.role === 'platform'
        ? ` Bill ${platformBill(r)}.`
        : '';
  if (series !== '') phenomena.push('shared-series');
  if (m.invoiceNumber !== undefined) phenomena.push('shared-invoice-series');
  if (m.sender.role === 'staff' && m.customer.sharesDomainWith !== undefined) phenomena.push('shared-domain');
  if (m.sender.role === 'person-forwarder') phenomena.push('person-forwarder');
  if (m.sender.role === 'group-desk') phenomena.push('group-desk');
  if (m.reply !== undefined) phenomena.push(m.reply.hijack ? 'thread-hijack' : 'quoted-chain');
  if (otherKind) phenomena.push('reply-other-kind');
  const lead = m.onBehalf
    ? `On behalf of our client ${m.customer.label}, please find the details for shipment ${ref}.`
    : m.invoiceNumber !== undefined
      ? `Invoice ${m.invoiceNumber} for ${m.customer.label}, shipment ${ref}.`
      : m.sender.role === 'platform'
        ? `${cap(m.kind.replace(/-/g, ' '))} for ${m.customer.label}, reference ${ref}.`
        : `Please find the details for our shipment ${ref}${namesCustomer ? ` (${m.customer.label})` : ''}.`;
  const newText = [
    'Hello team,',
    '',
    ...(m.reply === undefined ? [] : [NEW_TEXT_KIND[m.kind].sentence]),
    `${lead}${series}`,
    `Flight ${r.pick(['EK', 'QR', 'LH', 'TK'])}${r.int(100, 999)}, ${r.int(1, 40)} pieces, ${r.int(20, 3000)} kg.`,
    '',
    'Kind regards,',
    m.sender.role === 'staff' || m.sender.role === 'person-forwarder'
      ? cap(m.sender.address.split(/[.@]/)[0] ?? 'ops')
      : m.sender.display,
    ...(m.sender.role === 'staff' && m.customer.signsAs !== undefined ? [m.customer.signsAs] : []),
  ].join('\r\n');
  const from = m.sender.display === '' ? m.sender.address : `"${m.sender.display}" <${m.sender.address}>`;
  let body =
    m.reply === undefined
      ? newText
      : `${newText}\r\n\r\n${quoted({ from: m.reply.to.sender.address, subject: m.reply.to.subject, body: m.reply.to.text })}`;
  const text = body;
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
  const autoHeaders = m.sender.role === 'platform' ? 'Auto-Submitted: auto-generated\r\n' : '';
  const threading =
    m.reply === undefined
      ? ''
      : `In-Reply-To: <${m.reply.to.messageId}>\r\nReferences: <${m.reply.to.messageId}>\r\n`;
  const raw =
    `From: ${from}\r\nTo: imports@forwarder.example\r\nSubject: ${subject}\r\n` +
    `Message-ID: <${messageId}>\r\n${threading}Date: ${m.sent.toUTCString().replace('GMT', '+0000')}\r\n` +
    `MIME-Version: 1.0\r\n${autoHeaders}${mime}`;
  return {
    week: m.week,
    seq: m.seq,
    raw,
    messageId,
    subject,
    text,
    truth: { customer: m.customer.name, kind: m.kind },
    sender: m.sender,
    narrowest: carefulMark(
      m.customer,
      m.sender,
      ref,
      namesCustomer || m.onBehalf || m.sender.role === 'platform',
    ),
    kindNarrowest:
      m.reply === undefined || inherited === null
        ? { pattern: asTyped(worded?.kindWords ?? kindWords(template)), where: 'subject' }
        : { pattern: asTyped(NEW_TEXT_KIND[m.kind].cue), where: 'body' },
    phenomena,
  };
}

/** The subject's words before the reference ("Pre-alert", "Customs hold"). */
function kindWords(template: string): string {
  return (template.split('{ref}')[0] ?? '').replace(/[\s:]+$/, '').replace(/\s+(?:for|on|from)$/i, '');
}

/**
 * The mark a careful person types (issue 14's baseline): a staff member's own address; else the
 * customer's own reference family, anchored, when the reference is its own (its PREFIX-2026-####
 * series or its HBL/2026/#####/PREFIX bills, issue 28); else its name where
 * the text gives it; else the whole reference.
 */
function carefulMark(
  c: Customer,
  sender: Sender,
  ref: string,
  named: boolean,
): { pattern: string; where: 'from' | 'subject' | 'body' } {
  if (sender.role === 'staff') return { pattern: asTyped(sender.address), where: 'from' };
  if (ref.startsWith(`${c.refPrefix}-`))
    return { pattern: `(?:^|[^A-Za-z0-9/-])${c.refPrefix}-\\d{4}-\\d{4}(?:$|[^A-Za-z0-9/-])`, where: 'body' };
  // Issue 28: a bill of lading numbered for the customer (HBL/2026/00412/NORA) is its own family too.
  if (ref.endsWith(`/${c.refPrefix}`))
    return {
      pattern: `(?:^|[^A-Za-z0-9/-])HBL/2026/\\d{5}/${c.refPrefix}(?:$|[^A-Za-z0-9/-])`,
      where: 'body',
    };
  if (named) return { pattern: asTyped(c.label), where: 'body' };
  return { pattern: asTyped(ref), where: 'body' };
}
