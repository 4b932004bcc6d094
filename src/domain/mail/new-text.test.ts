// Invariant: a body splits into what its sender wrote, its signature and what it quotes or forwards, in every reply-header language of our fixtures; a forward keeps its original sender, a reply to a forward has none (issue 14).
import { describe, expect, it } from 'vitest';
import { forwardedPart, mailTextOf, splitMailText } from './new-text.ts';
import { isInheritedSubject, subjectPrefixes } from './subject-prefix.ts';
import type { MailMessage } from './mail-message.ts';

const NEW = 'Thursday works for us, the truck is booked.';

/** A reply: new text, a blank line, the header, the quote. */
function reply(header: string, quote = '> Could you take the Thursday slot for NGM-PO-48402?'): string {
  return `${NEW}\n\nAisha\n\n${header}\n${quote}`;
}

describe('the new text (issue 14)', () => {
  it.each([
    ['On … wrote:', 'On Mon, 30 Mar 2026 at 16:40, Dana Reyes <d@x.example> wrote:'],
    [
      'On … wrote: wrapped over two lines',
      'On Mon, 30 Mar 2026 at 16:40, Dana Reyes of the desk <\nd@x.example> wrote:',
    ],
    ['Am … schrieb', 'Am 30.03.2026 um 16:40 schrieb Dana Reyes <d@x.example>:'],
    ['Le … a écrit', 'Le lun. 30 mars 2026 à 16:40, Dana Reyes <d@x.example> a écrit :'],
    ['El … escribió', 'El lun, 30 mar 2026 a las 16:40, Dana Reyes (<d@x.example>) escribió:'],
    ['Op … schreef', 'Op ma 30 mrt 2026 om 16:40 schreef Dana Reyes <d@x.example>:'],
    ['Il … ha scritto', 'Il giorno lun 30 mar 2026 alle ore 16:40 Dana Reyes <d@x.example> ha scritto:'],
    ['Em … escreveu', 'Em seg., 30 de mar. de 2026 às 16:40, Dana Reyes <d@x.example> escreveu:'],
    ['في … كتب', 'في الإثنين، 30 مارس 2026 في 4:40 م كتب Dana Reyes <d@x.example>:'],
  ])('ends the new text at a reply attribution: %s', (_name, header) => {
    const t = splitMailText(reply(header), 'Re: Slot');
    expect(t.newText).toBe(`${NEW}\n\nAisha`);
    expect(t.quoted).toContain('NGM-PO-48402');
    expect(t.forwardedFrom).toBeNull();
  });

  it.each([
    [
      'English',
      'From: Dana Reyes <d@x.example>\nSent: Monday, March 30, 2026 4:40 PM\nTo: Imports <i@w.example>\nSubject: Slot',
    ],
    [
      'German',
      'Von: Dana Reyes <d@x.example>\nGesendet: Montag, 30. März 2026 16:40\nAn: Imports <i@w.example>\nBetreff: Slot',
    ],
    [
      'French',
      'De : Dana Reyes <d@x.example>\nEnvoyé : lundi 30 mars 2026 16:40\nÀ : Imports <i@w.example>\nObjet : Slot',
    ],
    [
      'Spanish',
      'De: Dana Reyes <d@x.example>\nEnviado: lunes, 30 de marzo de 2026 16:40\nPara: Imports\nAsunto: Slot',
    ],
    [
      'Dutch',
      'Van: Dana Reyes <d@x.example>\nVerzonden: maandag 30 maart 2026 16:40\nAan: Imports\nOnderwerp: Slot',
    ],
    [
      'Italian',
      'Da: Dana Reyes <d@x.example>\nInviato: lunedì 30 marzo 2026 16:40\nA: Imports\nOggetto: Slot',
    ],
    [
      'bold, as Outlook converts it',
      '*From:* Dana Reyes <d@x.example>\n*Sent:* Monday, March 30, 2026 4:40 PM',
    ],
  ])("ends the new text at Outlook's header block: %s", (_name, header) => {
    const t = splitMailText(reply(header, 'Could you take the Thursday slot for NGM-PO-48402?'), 'RE: Slot');
    expect(t.newText).toBe(`${NEW}\n\nAisha`);
    expect(t.quoted.startsWith(header.split('\n')[0]!)).toBe(true);
    expect(t.quoted).toContain('NGM-PO-48402');
  });

  it.each([
    '-----Original Message-----',
    '-----Ursprüngliche Nachricht-----',
    "-----Message d'origine-----",
    '-----Mensaje original-----',
    '-----Oorspronkelijk bericht-----',
    '-----Messaggio originale-----',
    '________________________________',
  ])('ends the new text at the separator %s', (separator) => {
    const t = splitMailText(
      reply(separator, 'Could you take the Thursday slot for NGM-PO-48402?'),
      'RE: Slot',
    );
    expect(t.newText).toBe(`${NEW}\n\nAisha`);
    expect(t.quoted).toContain('NGM-PO-48402');
  });

  it('keeps a one-line "From:" in the text: a header block needs a sent, date, to or subject line', () => {
    const body = 'From: our plant in Busan, 3 pallets.\n\nThe rest follows next week.';
    expect(splitMailText(body, 'Pre-alert').newText).toBe(body);
  });

  it('reads ">" lines as quoted wherever they stand, and keeps an answer written between them', () => {
    const body = '> Can you take 11:00?\nYes, 11:00 is fine.\n> And the second truck?\nFriday, same time.';
    const t = splitMailText(body, 'Re: Slot');
    expect(t.newText).toBe('Yes, 11:00 is fine.\nFriday, same time.');
    expect(t.quoted).toBe('> Can you take 11:00?\n> And the second truck?');
  });

  it("keeps a forward's original sender: Gmail's separator, Apple's, and Outlook's block under a forward prefix", () => {
    const gmail = splitMailText(
      'FYI.\n\n---------- Forwarded message ---------\nFrom: Khalid Mansour <K.Mansour@alhamra-trading.example>\nDate: Tue, 31 Mar 2026\nSubject: Pre-alert\n\nPre-alert for AHT/2026/0415.',
      'Fwd: Pre-alert',
    );
    expect(gmail.newText).toBe('FYI.');
    expect(gmail.forwardedFrom).toEqual({
      address: 'k.mansour@alhamra-trading.example',
      name: 'Khalid Mansour',
    });
    const apple = splitMailText(
      'See below.\n\nBegin forwarded message:\n\nFrom: "Export Dept" <export@kansai.example>\nSubject: Advice',
      'Fwd: Advice',
    );
    expect(apple.forwardedFrom).toEqual({ address: 'export@kansai.example', name: 'Export Dept' });
    const outlook = splitMailText(
      'Bitte beachten.\n\n-----Ursprüngliche Nachricht-----\nVon: Stefan Krüger [mailto:s.krueger@brandt.example]\nGesendet: Donnerstag, 2. April 2026 08:55\nBetreff: Lieferavis\n\nSendung BMB-2026-131.',
      'WG: Lieferavis',
    );
    expect(outlook.forwardedFrom).toEqual({ address: 's.krueger@brandt.example', name: 'Stefan Krüger' });
  });

  it('gives a reply no original sender, even a reply to a forward (RE: FW:)', () => {
    const body =
      'Works for us.\n\nOn Mon, 30 Mar 2026 at 16:40, Imports <i@w.example> wrote:\n> ---------- Forwarded message ---------\n> From: James Whitfield <j.whitfield@northgatemotors.example>\n> Subject: Slot';
    expect(splitMailText(body, 'RE: FW: Slot').forwardedFrom).toBeNull();
    const outlookReply =
      'Thanks.\n\n-----Original Message-----\nFrom: Imports <i@w.example>\nSent: 15 March 2026';
    expect(splitMailText(outlookReply, 'RE: Proof of delivery').forwardedFrom).toBeNull();
  });

  it.each([
    ['Kind regards,', 'Kind regards,\nDana Reyes\nZyx Trading Ltd'],
    [
      'Mit freundlichen Grüßen',
      'Mit freundlichen Grüßen\nDana Reyes\nZyx GmbH\nIndustriestraße 12, 33602 Bielefeld',
    ],
    ['Cordialement,', 'Cordialement,\nService Exploitation\nZyx SAS, Le Havre'],
    ['Un saludo,', 'Un saludo,\nDepartamento de Operaciones\nZyx S.L., Valencia'],
    ['Met vriendelijke groet,', 'Met vriendelijke groet,\nDana Reyes\nZyx B.V.'],
    ['Cordiali saluti', 'Cordiali saluti\nDana Reyes\nZyx S.r.l.'],
    ['مع التحية،', 'مع التحية،\nفاطمة الزهراء\nZyx'],
    ['the "-- " line', '-- \nDana Reyes | Zyx Trading Ltd'],
    ['Sent from my phone', 'Dana\nSent from my iPhone'],
  ])('puts the signature after %s apart from the new text', (_name, signature) => {
    const t = splitMailText(`Hello,\n\nThe truck arrives at 10:00.\n\n${signature}`, 'Delivery');
    expect(t.newText).toContain('The truck arrives at 10:00.');
    expect(t.newText).not.toContain('Zyx');
    expect(t.newText).not.toContain('iPhone');
    expect(t.signature).not.toBe('');
  });

  it('keeps a sign-off word in the text when what follows reads as text, not as a signature', () => {
    const body =
      'Hello,\nThanks!\nThe container is released today, reference GTS-2026-04518, please collect it.\nAisha';
    expect(splitMailText(body, 'Release').newText).toBe(body);
    // and a first line is never a sign-off
    expect(splitMailText('Thanks, received.\nPriya', 'RE: POD').newText).toBe('Thanks, received.\nPriya');
  });

  it.each([
    'DISCLAIMER: This e-mail is confidential. Zyx acts as agent for Northgate Motors Ltd.',
    'This e-mail and any attachments are confidential and intended solely for the addressee (Zyx Ltd).',
    'Diese E-Mail ist vertraulich. Zyx GmbH, Amtsgericht Bielefeld.',
    'Ce message et ses pièces jointes sont confidentiels. Zyx SAS.',
  ])('puts a disclaimer apart from the new text: %s', (disclaimer) => {
    const t = splitMailText(`The truck arrives at 10:00.\n\nTom\n\n${disclaimer}`, 'Delivery');
    expect(t.newText).toBe('The truck arrives at 10:00.\n\nTom');
    expect(t.signature).toBe(disclaimer);
  });

  it('leaves a body with nothing quoted or signed whole, so a mark taught before keeps matching', () => {
    const body = 'Dear team,\n\nPre-alert for AHT/2026/0388, Al Hamra Trading.';
    expect(splitMailText(body, 'Pre-alert AHT/2026/0388')).toEqual({
      newText: body,
      signature: '',
      quoted: '',
      forwardedFrom: null,
    });
  });

  it('computes the split for a message stored before it had one', () => {
    const stored = {
      subject: 'RE: Slot',
      body: 'Fine.\n\nOn Mon, 30 Mar 2026, Dana <d@x.example> wrote:\n> NGM-PO-48402',
    } as MailMessage;
    expect(mailTextOf(stored).newText).toBe('Fine.');
  });

  it('reads a very long line as text without looking for a marker in it', () => {
    const long = `On ${'x'.repeat(100_000)} wrote:`;
    expect(splitMailText(`New.\n${long}`, 'Re: x').newText).toBe(`New.\n${long}`);
  });
});

describe('inherited subjects', () => {
  it('recognises reply and forward prefixes in our senders’ languages, outermost first', () => {
    expect(subjectPrefixes('RE: FW: Delivery slot')).toEqual({
      outermost: 'reply',
      forwardInChain: true,
      rest: 'Delivery slot',
    });
    expect(subjectPrefixes('WG: Zustellnachweis').outermost).toBe('forward');
    for (const s of [
      'AW: Rechnung',
      'TR: Facture',
      'RV: Preaviso',
      'Re[2]: Invoice',
      'Antw: Factuur',
      'رد: فاتورة',
    ])
      expect(isInheritedSubject(s), s).toBe(true);
    for (const s of ['Invoice INV-2026-3310', 'Pre-alert: 3 pallets', 'Reference: PA-2026-0901'])
      expect(isInheritedSubject(s), s).toBe(false);
  });
});

describe('forwardedPart (issue 39)', () => {
  it("gives the forwarded message's sender, subject and text, its own quotes kept", () => {
    const body = [
      'Can you file this?',
      '',
      '---------- Forwarded message ---------',
      'From: Omar <omar@kessler.example>',
      'Date: Mon, 7 Sep 2026 09:00',
      'Subject: POD NGM-2026-0001',
      'To: lena@warehouse.example',
      '',
      'Delivered today.',
      '> an older quote',
    ].join('\n');
    expect(forwardedPart(body, 'FW: POD NGM-2026-0001')).toEqual({
      from: { address: 'omar@kessler.example', name: 'Omar' },
      subject: 'POD NGM-2026-0001',
      body: 'Delivered today.\n> an older quote',
    });
  });
  it('gives nothing for a reply', () => {
    const reply = ['Thanks', '', 'On Mon, 7 Sep 2026, a@b.example wrote:', '> Invoice 7'].join('\n');
    expect(forwardedPart(reply, 'Re: Invoice 7')).toBeNull();
  });
});
