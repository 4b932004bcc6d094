/**
 * Issue 39's streams, for the learning world: what makes an answer teach nothing.
 *
 * - Kind wordings per customer: each customer writes its subjects one way, in English, German or
 *   Spanish, with abbreviations ("POD", "BKG CONF", "Inv."), and some put their own name in the
 *   subject ("Kessler Feinkost GmbH POD …", "Rift Valley Motors - PRE-ALERT - RVM-2026-0810").
 * - Customer staff whose domain is named by initials (`export@ki-imports.example` for Kowloon
 *   Imports Co Ltd), who sign with the company's name and name it nowhere else.
 * - Colleague forwards: someone at the warehouse (`…@forwarder.example`, the operator's own domain)
 *   forwards a customer's mail with a line of their own; the customer is named only in the
 *   forwarded message.
 *
 * Drawn from their own Random (world.ts passes it), so the rest of the stream stays as it was.
 *
 * Owns: the shape of those messages. Does not own: the stream's mix (world.ts), references.
 */
import type { Customer, Kind, Random, Sender, StreamMessage } from './stream.ts';
import { plainMail } from './sender-trust-world.ts';

export interface AnswersOptions {
  /** Share of customers writing in German, and in Spanish (the rest in English). */
  readonly german: number;
  readonly spanish: number;
  /** Share of customers who put their own name in their subjects. */
  readonly namesInSubject: number;
  /** Share of customers whose staff write from a domain named by initials and sign with the name. */
  readonly initialsDomains: number;
  /** Share of messages that are a colleague's forward of a customer's mail. */
  readonly colleagueForwardShare: number;
}

export const DEFAULT_ANSWERS: AnswersOptions = {
  german: 0.2,
  spanish: 0.2,
  namesInSubject: 0.25,
  initialsDomains: 0.1,
  colleagueForwardShare: 0.03,
};

/** How each language writes each kind: one customer keeps to one wording per kind. */
const WORDINGS: Record<'en' | 'de' | 'es', Record<Kind, readonly string[]>> = {
  en: {
    'pre-alert': ['Pre-alert', 'PRE-ALERT', 'Pre alert', 'ASN'],
    invoice: ['Invoice', 'Inv.', 'INV', 'Freight invoice'],
    'proof-of-delivery': ['POD', 'Proof of delivery', 'Delivered'],
    booking: ['BKG CONF', 'Booking confirmation', 'Booking request', 'New booking'],
    'customs-query': ['Customs query', 'Customs hold', 'Query from customs'],
  },
  de: {
    'pre-alert': ['Voravis', 'Vorankündigung'],
    invoice: ['Rechnung', 'RG'],
    'proof-of-delivery': ['Abliefernachweis', 'Zustellnachweis'],
    booking: ['Buchungsbestätigung', 'Buchung'],
    'customs-query': ['Zollanfrage', 'Zollbeschau'],
  },
  es: {
    'pre-alert': ['Prealerta', 'Aviso de embarque'],
    invoice: ['Factura', 'Fact.'],
    'proof-of-delivery': ['Comprobante de entrega', 'Prueba de entrega'],
    booking: ['Confirmación de reserva', 'Reserva'],
    'customs-query': ['Retención en aduana', 'Consulta de aduana'],
  },
};

/** Subject shapes: {w} the kind's words, {ref} the reference, {name} the customer's name. */
const PLAIN_SHAPES = ['{w} {ref}', '{w}: {ref}', '{w} - {ref}', '{ref} {w}'] as const;
const NAMED_SHAPES = ['{name} {w} {ref}', '{name} - {W} - {ref}', '{w} {ref} {name}'] as const;

/** One customer's way of writing subjects. */
export interface Wording {
  readonly shape: string;
  readonly words: Record<Kind, string>;
}

/** Each customer's wording, drawn once. */
export function createWordings(
  a: Random,
  customers: readonly Customer[],
  o: AnswersOptions,
): Map<string, Wording> {
  const out = new Map<string, Wording>();
  for (const c of customers) {
    const u = a.next();
    const lang = u < o.german ? 'de' : u < o.german + o.spanish ? 'es' : 'en';
    const named = a.chance(o.namesInSubject);
    const words = {} as Record<Kind, string>;
    for (const k of Object.keys(WORDINGS.en) as Kind[]) words[k] = a.pick(WORDINGS[lang][k]);
    out.set(c.name, { shape: a.pick(named ? NAMED_SHAPES : PLAIN_SHAPES), words });
  }
  return out;
}

/** The subject a customer writes for `kind` and `ref`, and the words a person would type for its kind. */
export function wordedSubject(
  w: Wording,
  c: Customer,
  kind: Kind,
  ref: string,
): { subject: string; kindWords: string } {
  const words = w.words[kind];
  const subject = w.shape
    .replace('{w}', words)
    .replace('{W}', words.toUpperCase())
    .replace('{name}', c.label)
    .replace('{ref}', ref);
  return { subject, kindWords: w.shape.includes('{W}') ? words.toUpperCase() : words };
}

/** "Kowloon Imports Co Ltd" -> "ki-imports.example": initials, then the last word of the name. */
export function initialsDomain(label: string): string {
  const words = label
    .replace(/\s+(?:Ltd|LLC|GmbH|Co|plc|SA|FZE|WLL|Inc)\.?$/u, '')
    .replace(/\s+(?:Ltd|LLC|GmbH|Co)\.?$/u, '')
    .split(/\s+/u)
    .filter((x) => /^\p{L}/u.test(x));
  const initials = words.map((x) => x.charAt(0).toLowerCase()).join('');
  const last = (words[words.length - 1] ?? 'co').toLowerCase().replace(/[^a-z]/g, '');
  return `${initials}-${last}.example`;
}

/** The customer with its staff moved to a domain named by its initials, signing with its name. */
export function withInitialsDomain(c: Customer): Customer {
  const domain = initialsDomain(c.label);
  return {
    ...c,
    domain,
    staff: c.staff.map((s) => (s.endsWith(`@${c.domain}`) ? s.replace(`@${c.domain}`, `@${domain}`) : s)),
    signsAs: c.label,
  };
}

/** The warehouse's own people, who forward mail to the shared mailbox. */
const COLLEAGUES = ['lena.brandt', 'omar.haddad', 'mei.tanaka', 'tom.novak'];
export const WAREHOUSE_DOMAIN = 'forwarder.example';

export interface ForwardedDraw {
  readonly week: number;
  readonly seq: number;
  readonly sent: Date;
  readonly kind: Kind;
  readonly customer: Customer;
  readonly ref: string;
  readonly subject: string;
  readonly kindNarrowest: StreamMessage['kindNarrowest'];
}

/**
 * A colleague's forward of a customer's mail: the colleague's line, then the forwarded header and
 * the customer's text, which alone names the customer (by its name and its staff address).
 */
export function colleagueForward(a: Random, d: ForwardedDraw): StreamMessage {
  const colleague: Sender = {
    address: `${a.pick(COLLEAGUES)}@${WAREHOUSE_DOMAIN}`,
    display: '',
    role: 'colleague',
  };
  const original = d.customer.staff[0]!;
  const first = original.split(/[.@]/)[0] ?? 'ops';
  const forwarded = [
    'Hello,',
    '',
    `Please find the details for our shipment ${d.ref}.`,
    `${a.int(1, 40)} pieces, ${a.int(20, 3000)} kg.`,
    '',
    'Kind regards,',
    first.charAt(0).toUpperCase() + first.slice(1),
    d.customer.label,
  ].join('\r\n');
  const text = [
    a.pick(['Can you file this one, please?', 'FYI, this came to me directly.', 'See below.']),
    '',
    '---------- Forwarded message ---------',
    `From: ${original}`,
    `Date: ${d.sent.toUTCString()}`,
    `Subject: ${d.subject}`,
    `To: ${colleague.address}`,
    '',
    forwarded,
  ].join('\r\n');
  // A careful person types the customer's staff address as the forwarded message shows it.
  return plainMail(
    { ...d, subject: `FW: ${d.subject}` },
    colleague,
    text,
    ['colleague-forward'],
    { pattern: original, where: 'from' },
    'fwd',
  );
}
