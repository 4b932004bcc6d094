/**
 * Issue 38's streams, for the learning world: senders whose address says who sent the mail, not
 * whose shipment it is, in the shapes that misfiled mail on streams A–E.
 *
 * - First-client forwarders: a forwarding company (`ops@…-logistics`) or a person at a forwarding
 *   agency (`maria.lopez@…-cargo`), at a domain named like no customer, whose first few messages
 *   are all one client's and whose later ones are many clients'. Each names its client as people
 *   write it, without the legal form ("Advance shipping notice for Brightway Furniture …
 *   Consignee: Brightway Furniture"), and numbers its jobs in a series of its own (`DLL/2026/0412`)
 *   that its first client's messages carry first, over several days.
 * - Display-name spoofs: `From: "billing@customer.example>" <someone@elsewhere.example>`, the
 *   address of one customer's staff as the display name, from a throwaway address, about another
 *   customer's shipment (its reference): read as the first customer, it is misfiled.
 *
 * Drawn from their own Random (world.ts passes it), so the rest of the stream stays as it was.
 *
 * Owns: the shape of those messages. Does not own: the stream's mix (world.ts), references and
 * subjects (world.ts computes them and passes them in).
 */
import type { Customer, Kind, Random, Sender, StreamMessage } from './stream.ts';

export interface SenderTrustOptions {
  /** Forwarders whose first messages are one client's (about half of them persons at agencies). */
  readonly forwarders: number;
  /** Share of messages such forwarders send. */
  readonly forwarderShare: number;
  /** Share of messages that are display-name spoofs. */
  readonly spoofShare: number;
}

export const DEFAULT_SENDER_TRUST: SenderTrustOptions = {
  forwarders: 6,
  forwarderShare: 0.06,
  spoofShare: 0.01,
};

export interface TrustForwarder {
  readonly sender: Sender;
  /** The name it signs with ("Swiftfwd Logistics FZE"). */
  readonly signature: string;
  /** Its own job series' prefix ("DLL"). */
  readonly series: string;
  readonly first: Customer;
  /** How many of its first messages are `first`'s. */
  readonly firstRun: number;
  readonly clients: Customer[];
  sent: number;
}

const AGENCY = ['swift', 'atlas', 'kestrel', 'meridian', 'orbit', 'harbor', 'vector', 'summit', 'pioneer'];
const PEOPLE = ['maria.lopez', 'jan.dekker', 'fatima.said', 'chen.wei', 'olga.ivanova', 'tariq.aziz'];
const FORMS = ['FZE', 'LLC', 'GmbH', 'Ltd', 'SA de CV', 'Sdn Bhd'];

/** The forwarders of one world, each with a first client and the clients it takes on later. */
export function createTrustForwarders(
  t: Random,
  customers: readonly Customer[],
  options: SenderTrustOptions,
): TrustForwarder[] {
  const established = customers.filter((c) => c.joinsInWeek === 1);
  return Array.from({ length: options.forwarders }, (_, i) => {
    const agency = `${t.pick(AGENCY)}${i}`;
    const person = i % 2 === 1;
    const domain = person ? `${agency}-cargo.example` : `${agency}-logistics.example`;
    const signature = `${agency.charAt(0).toUpperCase()}${agency.slice(1)} ${person ? 'Cargo' : 'Logistics'} ${t.pick(FORMS)}`;
    const first = t.pick(established);
    const clients = [first, ...Array.from({ length: t.int(4, 9) }, () => t.pick(established))];
    return {
      sender: {
        address: person ? `${t.pick(PEOPLE)}@${domain}` : `${t.pick(['ops', 'docs', 'prealerts'])}@${domain}`,
        display: person ? '' : signature,
        role: person ? 'person-forwarder' : 'forwarder',
      },
      signature,
      series: `${agency.slice(0, 2).toUpperCase()}${String.fromCharCode(65 + i)}L`,
      first,
      firstRun: t.int(3, 5),
      clients,
      sent: 0,
    };
  });
}

/** A customer's name as people write it: without the legal form the directory gives. */
export function writtenName(label: string): string {
  return label.replace(/\s+(?:Ltd|LLC|GmbH|Co|plc|SA|FZE|WLL|Inc)\.?$/u, '');
}

/** Who the forwarder's next message is for: its first client for its first few, then any client. */
export function nextClient(t: Random, f: TrustForwarder): Customer {
  const c = f.sent < f.firstRun ? f.first : t.pick(f.clients);
  f.sent++;
  return c;
}

export interface Drawn {
  readonly week: number;
  readonly seq: number;
  readonly sent: Date;
  readonly kind: Kind;
  readonly customer: Customer;
  readonly subject: string;
  readonly ref: string;
  readonly narrowest: StreamMessage['narrowest'];
  readonly kindNarrowest: StreamMessage['kindNarrowest'];
}

/** A forwarder's notice for its client, naming the client as written, with its own job number. */
export function forwarderNotice(t: Random, f: TrustForwarder, d: Drawn): StreamMessage {
  const name = writtenName(d.customer.label);
  const job = `${f.series}/2026/${String(t.int(0, 9999)).padStart(4, '0')}`;
  const text = [
    'Dear team,',
    '',
    `${t.pick(['Advance shipping notice', 'Shipment details', 'Documents'])} for ${name}, our job ${job}.`,
    `Consignee: ${name}`,
    `Customer ref: ${d.ref}`,
    `${t.int(1, 40)} pieces, ${t.int(20, 3000)} kg.`,
    '',
    'Best regards,',
    f.signature,
  ].join('\r\n');
  return plainMail(d, f.sender, text, ['first-client-forwarder'], {
    pattern: name,
    where: 'body',
  });
}

/** A display-name spoof: one customer's address as the name, about another customer's shipment. */
export function spoof(t: Random, victim: Customer, d: Drawn): StreamMessage {
  const shown = victim.staff[0]!;
  const display = t.pick([`${shown}>`, shown, `<${shown}>`]);
  // A throwaway address for each message, as such senders use: it never recurs.
  const address = `${t.pick(['billing', 'accounts', 'ops'])}${d.seq}@${t.pick(AGENCY)}-invoices.example`;
  const text = ['Hello,', '', `Please see the documents for shipment ${d.ref}.`, '', 'Regards'].join('\r\n');
  return plainMail(d, { address, display, role: 'spoof' }, text, ['sender-spoof'], d.narrowest);
}

/** A plain-text message of `d` from `sender` (issue 39's colleague forwards too: `tag` names the kind of slot). */
export function plainMail(
  d: Pick<Drawn, 'week' | 'seq' | 'sent' | 'kind' | 'customer' | 'subject' | 'kindNarrowest'>,
  sender: Sender,
  text: string,
  phenomena: StreamMessage['phenomena'],
  narrowest: StreamMessage['narrowest'],
  tag = 'trust',
): StreamMessage {
  const messageId = `w${d.week}.${d.seq}.${tag}@stream.example`;
  const from = sender.display === '' ? sender.address : `"${sender.display}" <${sender.address}>`;
  const raw =
    `From: ${from}\r\nTo: imports@forwarder.example\r\nSubject: ${d.subject}\r\n` +
    `Message-ID: <${messageId}>\r\nDate: ${d.sent.toUTCString().replace('GMT', '+0000')}\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`;
  return {
    week: d.week,
    seq: d.seq,
    raw,
    messageId,
    subject: d.subject,
    text,
    truth: { customer: d.customer.name, kind: d.kind },
    sender,
    narrowest,
    kindNarrowest: d.kindNarrowest,
    phenomena,
  };
}
