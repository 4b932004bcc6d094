/**
 * Issue 27 (§13.3, §8): a mark in people's words. Plain text is bounded by the learnable exactly as
 * a suggestion of the same evidence is, a regular expression is matched as written, and what was
 * stored before reads the same.
 */
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { createCustomersLearnable } from './customers/customers.ts';
import { createKindsLearnable } from './kinds/kinds.ts';
import { tokenPattern } from './literal-pattern.ts';
import { boundPlain, isPlainText, plainOf } from './plain-mark.ts';

const customers = createCustomersLearnable();
const kinds = createKindsLearnable();
const stamp = { activation: 1, taughtBy: 'person:dana', at: '2026-08-17T10:00:00.000Z' };

function matcherOf(value: { pattern: string; where?: string }): RE2 {
  const r = customers.absorb('northgate', undefined, value, stamp);
  if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
  const [mark] = customers.marks('northgate', r.content);
  return new RE2(mark!.source, 'iu');
}

describe('plain text is bounded by the learnable (§13.3)', () => {
  it('takes a typed address as the whole sender address, never a longer one', () => {
    const from = matcherOf({ pattern: 'billing@origin.example', where: 'from' });
    expect(from.test('Billing <billing@origin.example>')).toBe(true);
    expect(from.test('billing@origin.example')).toBe(true);
    expect(from.test('ebilling@origin.example.net')).toBe(false);
    expect(from.test('Billing <billing@origin.example.net>')).toBe(false);
    expect(from.test('billing@originXexample')).toBe(false); // a dot is a dot
  });

  it('takes a typed address with + or other address characters as that address, plain and bounded (issue 38)', () => {
    for (const typed of ['billing+ops@origin.example', "o'brien@origin.example", 'ops=desk@origin.example']) {
      expect(isPlainText(typed), typed).toBe(true);
      const from = matcherOf({ pattern: typed, where: 'from' });
      expect(from.test(`Billing <${typed}>`), typed).toBe(true);
      expect(from.test(`Billing <e${typed}>`), typed).toBe(false);
    }
    const plus = matcherOf({ pattern: 'billing+ops@origin.example', where: 'from' });
    expect(plus.test('billinggops@originXexample')).toBe(false);
    expect(plainOf(boundPlain('billing+ops@origin.example', 'from')!, 'from')).toBe(
      'billing+ops@origin.example',
    );
    // A regular expression for addresses still reads as one.
    expect(isPlainText('.*@origin\\.example')).toBe(false);
    expect(isPlainText('(ops|billing)@origin.example')).toBe(false);
  });

  it('takes an address in running text as a whole address, a full stop after it allowed', () => {
    const any = matcherOf({ pattern: 'billing@origin.example', where: 'any' });
    expect(any.test('Please write to billing@origin.example.')).toBe(true);
    expect(any.test('Billing <billing@origin.example>')).toBe(true);
    expect(any.test('cc ebilling@origin.example')).toBe(false);
    expect(any.test('cc billing@origin.example.net')).toBe(false);
  });

  it('takes a domain in the from line as the sender domain, and a reference whole', () => {
    const domain = matcherOf({ pattern: 'origin.example', where: 'from' });
    expect(domain.test('Ops <ops@origin.example>')).toBe(true);
    expect(domain.test('Ops <ops@origin.example.net>')).toBe(false);
    expect(domain.test('Ops <ops@notorigin.example>')).toBe(false);
    const ref = matcherOf({ pattern: 'PA-2026-0901', where: 'subject' });
    expect(ref.test('Pre-alert PA-2026-0901 for you')).toBe(true);
    expect(ref.test('Pre-alert PA-2026-0901-7')).toBe(false);
    expect(ref.test('Pre-alert XPA-2026-0901')).toBe(false);
  });

  it('takes words whole at their ASCII ends, for cues too', () => {
    const name = matcherOf({ pattern: 'Kowloon Imports', where: 'body' });
    expect(name.test('for Kowloon Imports Ltd')).toBe(true);
    expect(name.test('for Kowloon Importsco')).toBe(false);
    const r = kinds.absorb('pre-alert', undefined, { cue: 'pre-alert' }, stamp);
    if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
    const cue = new RE2(kinds.marks('pre-alert', r.content)[0]!.source, 'iu');
    expect(cue.test('Pre-alert PA-2026-0901')).toBe(true);
    expect(cue.test('Re-pre-alerted')).toBe(false);
  });

  it('matches a regular expression as written', () => {
    expect(isPlainText('AJT-\\d{6}')).toBe(false);
    expect(boundPlain('billing@origin\\.example', 'from')).toBeNull();
    const re = matcherOf({ pattern: 'billing@origin\\.example', where: 'from' });
    expect(re.test('ebilling@origin.example.net')).toBe(true); // unbounded, as typed
  });

  it('refuses plain text in the words the person typed, not the bound source', () => {
    const r = customers.absorb('northgate', undefined, { pattern: 'invoice', where: 'subject' }, stamp);
    expect(r.outcome).toBe('refused');
    if (r.outcome === 'refused') expect(r.reason).toMatch(/^"invoice" is not a usable pattern/);
  });
});

describe('the way back: what a stored mark was typed as', () => {
  it('gives back the plain text of every bounded shape, and nothing for a pattern', () => {
    const cases: [string, string][] = [
      ['billing@origin.example', 'from'],
      ['billing@origin.example', 'body'],
      ['@origin.example', 'from'],
      ['PA-2026-0901', 'subject'],
      ['HBL/2026/00412/A', 'body'],
      ['Kowloon Imports', 'body'],
      ['Co. Ltd', 'body'],
      ['فاتورة', 'subject'],
    ];
    for (const [text, where] of cases) expect(plainOf(boundPlain(text, where)!, where), text).toBe(text);
    expect(plainOf('AJT-\\d{6}', 'body')).toBeNull();
    expect(plainOf('billing@origin\\.example', 'from')).toBeNull(); // an old unbounded mark
    expect(plainOf('Kowloon', 'body')).toBeNull(); // stored unbounded before: it is its own pattern
  });

  it('reads a suggestion and its plain text the same: one mark, so teaching either is §10.2-idempotent', () => {
    for (const [text, shape, where] of [
      ['billing@origin.example', 'address', 'from'],
      ['@origin.example', 'domain', 'from'],
      ['PA-2026-0901', 'reference', 'subject'],
      ['Kowloon Imports', 'words', 'body'],
    ] as const) {
      const source = tokenPattern(text, shape);
      expect(boundPlain(plainOf(source, where)!, where), text).toBe(source);
      const first = customers.absorb('northgate', undefined, { pattern: source, where }, stamp);
      if (first.outcome !== 'learned') throw new Error(JSON.stringify(first));
      expect(
        customers.absorb('northgate', first.content, { pattern: text, where }, stamp).outcome,
        text,
      ).toBe('unchanged');
    }
  });

  it('reads versions taught before the same (issue 27): a stored source is matched as stored', () => {
    const old = {
      label: 'Northgate Motors Ltd',
      labelAdded: stamp,
      marks: [
        { pattern: 'billing@origin\\.example', where: 'from', added: stamp },
        { pattern: 'Kowloon', where: 'body', added: stamp },
      ],
    };
    const marks = customers.marks('northgate', old);
    expect(marks.map((m) => m.source)).toEqual(['billing@origin\\.example', 'Kowloon']);
    expect(new RE2(marks[0]!.source, 'iu').test('ebilling@origin.example.net')).toBe(true);
    expect(new RE2(marks[1]!.source, 'iu').test('KowloonImports')).toBe(true);
    expect(customers.rules('northgate', old).map((r) => r.describes)).toEqual([
      "matches the pattern 'billing@origin\\.example' in the from",
      "matches the pattern 'Kowloon' in the body",
    ]);
  });
});
