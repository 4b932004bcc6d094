// Invariant: a reply whose inherited subject is the earlier mail's offers words of its new text as a kind's cue, never a greeting, a reference, a number or a customer's name, longest phrase first (§8, issue 39).
import { describe, expect, it } from 'vitest';
import { mail } from '../../../../test/support/definitions.ts';
import { newTextPhraseEvidence } from './new-text-evidence.ts';

const texts = (body: string, named: string[] = []) =>
  newTextPhraseEvidence(mail({ subject: 'Re: Pre-alert NVM-2026-0001', body }), named).map((e) => e.text);

describe('new-text phrase evidence for kinds (issue 39)', () => {
  it('offers the phrases of the first sentences, longest first, trimmed of joining words', () => {
    expect(texts('Hello team,\nWe would like to book this shipment.').slice(0, 2)).toEqual([
      'would like to book',
      'like to book',
    ]);
    expect(texts('Hi,\nPlease find our freight invoice attached.')[0]).toBe('freight invoice');
  });
  it('leaves out references, numbers and names, and looks in the body', () => {
    const found = newTextPhraseEvidence(
      mail({ subject: 'Re: x', body: 'Kessler Feinkost POD for NVM-2026-0001, 12 pallets.' }),
      ['Kessler Feinkost'],
    );
    expect(found.map((e) => e.text)).toEqual(['POD', 'pallets']);
    expect(found.every((e) => e.part === 'body')).toBe(true);
  });
});
