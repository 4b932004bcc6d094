// Invariant: a kind suggestion from the subject is the phrase before the reference, never drawn from a reply's subject when its new text is about another reference, and a short code (INV, POD) is offered as a whole word, never as a substring of longer words (§8, §13.1, issue 14).
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { createLearnables, learnableFor } from '../registry.ts';
import { mail } from '../../../../test/support/definitions.ts';
import { tokenPattern } from '../literal-pattern.ts';
import { subjectPhraseEvidence } from './evidence.ts';

const kinds = learnableFor(createLearnables(), 'kinds')!;

describe('subject phrase evidence for kinds', () => {
  it('takes the words before the reference', () => {
    const [e] = subjectPhraseEvidence(mail({ subject: 'Booking confirmation HBL/2026/00412/A' }));
    expect(e?.text).toBe('Booking confirmation');
  });
  it("offers nothing from a reply's subject when the new text is about another reference: those words are the earlier mail's (§8, issue 14)", () => {
    const body = 'Hello team,\nPlease book NGM-2026-5120 for Thursday.\nDana';
    for (const subject of [
      'Re: Booking confirmation HBL/2026/00412/A',
      'AW: Invoice INV-2026-3310',
      'RE: Fwd: POD 4410',
    ])
      expect(subjectPhraseEvidence(mail({ subject, body })), subject).toEqual([]);
  });
  it("takes the words of a forward's subject, and of a reply's about the same shipment", () => {
    const body = 'Hello team,\nPlease book NGM-2026-5120 for Thursday.\nDana';
    expect(subjectPhraseEvidence(mail({ subject: 'Fwd: Proof of delivery 4410', body }))[0]?.text).toBe(
      'Proof of delivery',
    );
    expect(
      subjectPhraseEvidence(
        mail({ subject: 'Re: Booking confirmation HBL/2026/00412/A', body: 'Thanks, noted.' }),
      )[0]?.text,
    ).toBe('Booking confirmation');
  });
  it('offers a short upper-case code as a whole word the kinds learnable accepts (§13.1)', () => {
    const [e] = subjectPhraseEvidence(mail({ subject: 'INV PA-2026-0901' }));
    expect(e?.text).toBe('INV');
    expect(e?.label).toBe('the code "INV" in the subject');
    const source = tokenPattern(e!.text, e!.shape);
    const r = kinds.absorb(
      'invoice',
      undefined,
      { cue: source, where: 'subject' },
      { activation: 1, taughtBy: 'p', at: 't' },
    );
    if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
    const re = new RE2(kinds.marks('invoice', r.content)[0]!.source, 'iu');
    expect(re.test('INV HBL/2026/00412/A')).toBe(true);
    expect(re.test('Inventory report')).toBe(false);
  });
  it("leaves out a customer's name wherever it stands, so the cue marks the kind in every customer's mail (issue 39)", () => {
    const named = ['Kessler Feinkost GmbH', 'Rift Valley Motors'];
    const cases: [string, string][] = [
      ['Kessler Feinkost GmbH POD 4410', 'POD'],
      ['Rift Valley Motors - PRE-ALERT - RVM/000810', 'PRE-ALERT'],
      ['Aviso de embarque HBL/2026/00412/A kessler feinkost gmbh', 'Aviso de embarque'],
    ];
    for (const [subject, cue] of cases)
      expect(
        subjectPhraseEvidence(mail({ subject }), named).map((e) => e.text),
        subject,
      ).toEqual([cue]);
  });
  it('offers abbreviations and other languages as written, and every phrase in order, without numbers or dates (issue 39)', () => {
    const cases: [string, string[]][] = [
      ['Inv. 4711 for 03.09.2026', ['Inv.']],
      ['BKG CONF HBL/2026/00412/A', ['BKG CONF']],
      ['Retención en aduana: HBL/2026/00412/A', ['Retención en aduana']],
      ['NVM-2026-1234 Abliefernachweis', ['Abliefernachweis']],
      ['PRE-ALERT: shipment NVM-2026-1234', ['PRE-ALERT', 'shipment']],
      ['Pre alert for NVM-2026-1234', ['Pre alert']],
    ];
    for (const [subject, cues] of cases)
      expect(
        subjectPhraseEvidence(mail({ subject })).map((e) => e.text),
        subject,
      ).toEqual(cues);
  });
  it('offers nothing for a lower-case short word', () => {
    expect(subjectPhraseEvidence(mail({ subject: 'to PA-2026-0901' }))).toEqual([]);
  });
});
