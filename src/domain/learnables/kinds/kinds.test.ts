// Invariant: kinds speaks its own vocabulary (cue, not pattern; no from) and states the customers' rule over cues with the real margin (§6.2, §10).
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import type { Provenance } from '../learnable.ts';
import { createKindsLearnable } from './kinds.ts';
import { cueKeys } from './cue-record.ts';
import type { MarkHit } from '../learnable.ts';
import type { MailPart } from '../../mail/index.ts';
import { mail } from '../../../../test/support/definitions.ts';

const stamp = (activation: number): Provenance => ({
  activation,
  taughtBy: 'person:dana',
  at: '2026-08-17T10:00:00.000Z',
});
const kinds = createKindsLearnable();

describe('kinds', () => {
  it('declares cue, where (subject by default, no from) and label (§6.2)', () => {
    const d = kinds.descriptor({ identificationMargin: 0.5 });
    expect(d).toMatchObject({ collection: 'kinds', entry: 'kind of message', decidedBy: 'rules' });
    expect(d.lessonFields.map((f) => f.name)).toEqual(['cue', 'where', 'label', 'alreadyRead']);
    expect(d.lessonFields[1]).toMatchObject({
      choices: ['subject', 'body', 'attachments', 'any', 'quoted'],
      default: 'subject',
    });
  });

  it('states the scoring rule over cues with the configured margin (§6.2)', () => {
    expect(kinds.descriptor({ identificationMargin: 0.5 }).how).toContain(
      'leads the next by at least 0.5 (the identification margin)',
    );
    expect(kinds.descriptor({ identificationMargin: 0.4 }).how).toContain(
      'leads the next by at least 0.4 (the identification margin)',
    );
    expect(kinds.descriptor({ identificationMargin: 0.5 }).how).toMatch(
      /Every cue that matches scores one point for its kind/,
    );
  });

  it('states that an inherited subject is weaker evidence than the new text (§6.2, issue 14)', () => {
    const how = kinds.descriptor({ identificationMargin: 0.5 }).how;
    expect(how).toContain('The body is the new text only');
    expect(how).toContain('is inherited from an earlier mail, so it is weaker evidence than the new text');
    expect(how).toContain('when the new text carries a cue, the subject cues of other kinds do not count');
    expect(how).toContain(
      'unless its new text names a reference the subject does not: then the reply is about another shipment than the mail it answers, its subject alone does not decide, and the reading asks',
    );
  });

  it('looks for a subject cue in the new text too, and for no other cue (issue 14)', () => {
    const r = kinds.absorb('invoice', undefined, { cue: 'invoice' }, stamp(1));
    if (r.outcome !== 'learned') throw new Error('not learned');
    const both = kinds.absorb(
      'invoice',
      r.content,
      { cue: 'POD_\\w+\\.pdf', where: 'attachments' },
      stamp(2),
    );
    if (both.outcome !== 'learned') throw new Error('not learned');
    expect(kinds.marks('invoice', both.content).map((m) => [m.where, m.parts])).toEqual([
      ['subject', ['subject', 'body']],
      ['attachments', ['attachments']],
    ]);
  });

  it('phrases a cue in its own words (§10.4)', () => {
    expect(kinds.describe({ cue: 'pre-?alert' })).toBe(
      "is marked by the pattern 'pre-?alert' in the subject",
    );
    expect(kinds.describe({ cue: 'POD_\\w+\\.pdf', where: 'attachments' })).toBe(
      "is marked by the pattern 'POD_\\w+\\.pdf' in the attachments",
    );
    expect(kinds.describe({ cue: 'HS code', where: 'any' })).toBe(
      "is marked by 'HS code' anywhere in the message",
    );
  });

  it('refuses the from-line and a customer-shaped value, naming what it takes', () => {
    const r = kinds.absorb('invoice', undefined, { cue: 'rechnung', where: 'from' }, stamp(1));
    expect(r).toEqual({
      outcome: 'refused',
      reason: '"from" is not a place to look; choose one of subject, body, attachments, any and quoted.',
    });
    const p = kinds.absorb('invoice', undefined, { pattern: 'rechnung' }, stamp(1));
    expect(p.outcome).toBe('refused');
    if (p.outcome === 'refused')
      expect(p.reason).toMatch(
        /"pattern" is not a field of a kind of message lesson; the fields are cue, where, label and alreadyRead/,
      );
  });

  it('accepts the freight word that names the kind, refuses filler and empty-matching cues', () => {
    expect(kinds.absorb('invoice', undefined, { cue: 'invoice' }, stamp(1)).outcome).toBe('learned');
    for (const bad of ['please', '.*', '(?:)', 'x?']) {
      const r = kinds.absorb('invoice', undefined, { cue: bad }, stamp(1));
      expect(r.outcome, bad).toBe('refused');
      if (r.outcome === 'refused') expect(r.reason, bad).toMatch(/is not a usable cue/);
    }
  });

  it('labels a new kind from its name', () => {
    const r = kinds.absorb('proof-of-delivery', undefined, { cue: 'zustellnachweis' }, stamp(1));
    if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
    expect(kinds.label('proof-of-delivery', r.content)).toBe('Proof of delivery');
    expect(r.content).toEqual({
      label: 'Proof of delivery',
      labelAdded: stamp(1),
      cues: [{ cue: '\\bzustellnachweis\\b', where: 'subject', added: stamp(1) }], // issue 27: a plain word, whole
    });
  });

  it('reads a two- or three-character code (INV, POD) as a whole word, not a substring (§13.1)', () => {
    const r = kinds.absorb('invoice', undefined, { cue: 'INV' }, stamp(1));
    if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
    const [mark] = kinds.marks('invoice', r.content);
    expect(mark?.source).toBe('\\bINV\\b');
    const re = new RE2(mark!.source, 'iu');
    expect(re.test('INV HBL/2026/00412/A')).toBe(true);
    expect(re.test('Inventory update')).toBe(false); // never a substring of a longer word
    expect(kinds.absorb('invoice', r.content, { cue: 'inv' }, stamp(2)).outcome).toBe('unchanged'); // §10.2
    expect(kinds.absorb('invoice', undefined, { cue: 'the' }, stamp(1)).outcome).toBe('refused');
  });
});

describe('the cue record keys (issue 49)', () => {
  const hit = (part: MailPart, text: string, entry = 'pre-alert'): MarkHit => ({
    mark: {
      collection: 'kinds',
      entry,
      source: 'x',
      parts: [part],
      mark: text,
      where: part,
      provenance: { activation: 1, taughtBy: 't', at: '2026-01-01T00:00:00.000Z' },
    },
    part,
    text,
  });

  it('keys each cue by part and words, and leaves out a cue in quoted text or in an inherited subject', () => {
    const fresh = mail({ subject: 'Shipment notice' });
    expect(
      cueKeys(fresh, [hit('subject', 'Shipment notice'), hit('body', 'POD', 'proof-of-delivery')]),
    ).toEqual(['cue:subject:shipment notice', 'cue:body:pod']);
    expect(cueKeys(fresh, [hit('quoted', 'Pre-alert')])).toEqual(['cue:subject:shipment notice']);
    const reply = mail({
      subject: 'Re: Pre-alert PA-2026-0001',
      isReply: true,
      body: 'Customs hold on PA-2026-0777, please advise.',
    });
    const keys = cueKeys(reply, [hit('subject', 'Pre-alert'), hit('body', 'Customs hold', 'customs-query')]);
    expect(keys).toContain('cue:body:customs hold');
    expect(keys.some((k) => k.startsWith('cue:subject:'))).toBe(false);
  });
});
