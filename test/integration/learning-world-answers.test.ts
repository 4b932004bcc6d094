// Invariant: the learning world carries issue 39's streams, drawn from their own Random: per-customer kind wordings in three languages with abbreviations and the customer's name in some subjects, staff at domains named by initials who name their company only in their signature, and colleague forwards whose customer is named only in the forwarded message.
import { describe, expect, it } from 'vitest';
import { createWorld, DEFAULT_WORLD } from '../../bench/learning/world.ts';
import { splitMailText } from '../../src/domain/mail/index.ts';

const world = createWorld({ ...DEFAULT_WORLD, weeks: 2 });
const customerOf = (name: string) => world.customers.find((c) => c.name === name)!;

describe('the learning world grows issue 39’s streams', () => {
  it('writes kinds as each customer does: abbreviations, other languages, names in subjects', () => {
    const subjects = world.stream.map((m) => m.subject);
    for (const word of ['POD', 'BKG CONF', 'Inv.', 'Abliefernachweis', 'Retención en aduana'])
      expect(
        subjects.some((s) => s.includes(word)),
        word,
      ).toBe(true);
    const named = world.stream.filter(
      (m) =>
        m.sender.role === 'staff' &&
        !m.subject.startsWith('Re:') &&
        m.subject.includes(customerOf(m.truth.customer).label),
    );
    expect(named.length).toBeGreaterThan(20);
  });

  it('names a company at an initials domain only in its staff’s signature', () => {
    const signed = world.stream.filter(
      (m) =>
        m.sender.role === 'staff' &&
        customerOf(m.truth.customer).signsAs !== undefined &&
        !m.phenomena.includes('attachment-only'),
    );
    expect(signed.length).toBeGreaterThan(5);
    for (const m of signed) {
      const c = customerOf(m.truth.customer);
      expect(m.sender.address.endsWith(`@${c.domain}`) || !m.sender.address.includes(c.domain)).toBe(true);
      const text = splitMailText(m.text.replace(/\r\n/g, '\n'), m.subject);
      expect(text.signature).toContain(c.label);
      expect(text.newText).not.toContain(c.label);
    }
  });

  it('has colleagues forward customers’ mail, the customer named only in what they forward', () => {
    const forwards = world.stream.filter((m) => m.phenomena.includes('colleague-forward'));
    expect(forwards.length).toBeGreaterThan(5);
    for (const m of forwards) {
      const text = splitMailText(m.text.replace(/\r\n/g, '\n'), m.subject);
      expect(m.sender.address.endsWith('@forwarder.example')).toBe(true);
      expect(text.newText).not.toContain(customerOf(m.truth.customer).label);
      expect(text.quoted).toContain(customerOf(m.truth.customer).label);
      expect(text.forwardedFrom?.address).toBe(customerOf(m.truth.customer).staff[0]);
    }
  });
});
