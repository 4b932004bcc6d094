// Invariant: the kind of a reply or forward is read from what the sender wrote in it: a reply subject carrying another kind's cue gives way to a cue in the new text, and alone it decides nothing when the new text is about another shipment; a forward passes the earlier mail on; a cue found only in the quoted text never counts; a cue in the new text decides (issue 14, the kinds `how`, §6.2, §11).
import { describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import { definitionMarks, readMessage } from '../../src/domain/triage/index.ts';
import { buildDefinition, mail, type TestLesson } from '../support/definitions.ts';
import { kindOf } from '../support/readings.ts';

const learnables = createLearnables();

function read(message: MailMessage) {
  const definition = buildDefinition(KINDS, { versionId: 'sha256:kinds' });
  const matcher = compileMatcher(definitionMarks(definition, learnables));
  return kindOf(
    readMessage(definition, 1, matcher, message, learnables, { identificationMargin: 0.5 }, (id) => id),
  );
}

const k = (entry: string, value: Record<string, string>): TestLesson => ({
  collection: 'kinds',
  entry,
  value,
});
/** A directory as the learning world's operator leaves it: subject cues, and a body cue per kind typed from replies. */
const KINDS: TestLesson[] = [
  k('pre-alert', { label: 'Pre-alert' }),
  k('pre-alert', { cue: 'Pre-alert', where: 'subject' }),
  k('invoice', { label: 'Invoice' }),
  k('invoice', { cue: 'Freight invoice', where: 'subject' }),
  k('proof-of-delivery', { label: 'Proof of delivery' }),
  k('proof-of-delivery', { cue: 'Delivered', where: 'subject' }),
  k('booking', { label: 'Booking' }),
  k('booking', { cue: 'Booking request', where: 'subject' }),
  k('customs-query', { label: 'Customs query' }),
  k('customs-query', { cue: 'Customs query', where: 'subject' }),
  k('customs-query', { cue: 'customs have a query', where: 'body' }),
];

/** A reply as the world and mail clients write it: new text, sign-off, attribution, quoted lines. */
function reply(subject: string, newText: string, quoted: string): MailMessage {
  const body = [
    'Hello team,',
    '',
    newText,
    'Flight EK412, 12 pieces, 840 kg.',
    '',
    'Kind regards,',
    'Dana',
    '',
    'On Mon, 7 Sep 2026 at 10:02, ops@northvale.example wrote:',
    ...quoted.split('\n').map((l) => `> ${l}`),
  ].join('\r\n');
  return mail({ subject, body, isReply: subject.startsWith('Re:') });
}

describe('the kind of a reply or forward (issue 14)', () => {
  it("asks when a reply's subject carries another kind's cue and its new text, about another shipment, none", () => {
    const r = read(
      reply(
        'Re: Freight invoice for NVMA-2026-1453',
        'We would like to book this shipment. Our reference NVMA-2026-2210.',
        'Subject: Freight invoice for NVMA-2026-1453\nPlease find our freight invoice attached.',
      ),
    );
    expect(r.settled).toBe(false);
    expect(r.reads).toBe(
      "Still cannot tell what kind of message this is: nothing matched. Set aside: 'Freight invoice' (an invoice), in a subject inherited from an earlier mail, while the new text is about another reference and carries no cue.",
    );
  });

  it("reads a reply by its new text's cue, setting the inherited subject's other kind aside", () => {
    const r = read(
      reply(
        'Re: Pre-alert NVMA-2026-1453',
        'Customs have a query on this shipment. Our reference NVMA-2026-2210.',
        'Subject: Pre-alert NVMA-2026-1453\nHere is the pre-alert for this one.',
      ),
    );
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('customs-query');
    expect(r.reads).toBe(
      "Reads as a customs query, on 'Customs have a query' in the body. Set aside: 'Pre-alert' (a pre-alert), in a subject inherited from an earlier mail, while the new text says otherwise.",
    );
  });

  it("reads a reply about the same shipment by its subject: an acknowledgment's subject stands", () => {
    const r = read(
      reply(
        'Re: Delivered: NVMA-2026-1453',
        'Thanks, received for NVMA-2026-1453.',
        'Subject: Delivered: NVMA-2026-1453\nThe goods were delivered.',
      ),
    );
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('proof-of-delivery');
  });

  it("reads a forward of another kind by its new text's cue, and a bare forward by what it passes on", () => {
    const forwarded = (newText: string): MailMessage =>
      mail({
        subject: 'Fwd: Freight invoice for NVMA-2026-1453',
        isForward: true,
        body: [
          newText,
          '',
          '---------- Forwarded message ---------',
          'From: Billing <billing@northvale.example>',
          'Subject: Freight invoice for NVMA-2026-1453',
          '',
          'Please find our freight invoice attached. Reference NVMA-2026-2210.',
        ].join('\n'),
      });
    const other = read(forwarded('Customs have a query on this one, see below.'));
    expect(other.winner).toBe('customs-query');
    expect(other.reads).toMatch(/Set aside: 'Freight invoice' \(an invoice\), in a subject inherited/);
    const bare = read(forwarded('FYI'));
    expect(bare.settled).toBe(true);
    expect(bare.winner).toBe('invoice');
  });

  it('never counts a cue found only in the quoted text', () => {
    const r = read(
      reply(
        'Re: Pre-alert NVMA-2026-1453',
        'Thanks, noted for NVMA-2026-1453.',
        'Subject: Customs query NVMA-2026-1453\nCustoms have a query on this shipment.',
      ),
    );
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('pre-alert');
    expect(r.reads).toBe(
      "Reads as a pre-alert, on 'Pre-alert' in the subject. Set aside: 'Customs have a query' (a customs query), found only in the quoted or forwarded text, a signature or a disclaimer.",
    );
  });

  it('reads a fresh message by a body cue in its new text', () => {
    const r = read(
      mail({
        subject: 'Shipment NVMA-2026-2210',
        body: 'Hello,\nCustoms have a query on this shipment.\nDana',
      }),
    );
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('customs-query');
  });
});
