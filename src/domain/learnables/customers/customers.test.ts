// Invariant: customers owns its vocabulary: it judges, absorbs, phrases and takes back its own marks, and its `how` states the real rule (§6.2, §10).
import { describe, expect, it } from 'vitest';
import type { EntryContent, Provenance } from '../learnable.ts';
import { createCustomersLearnable } from './customers.ts';

const stamp = (activation: number): Provenance => ({
  activation,
  taughtBy: 'person:dana',
  at: '2026-08-17T10:00:00.000Z',
});
const customers = createCustomersLearnable();

function learn(
  content: EntryContent | undefined,
  value: Record<string, unknown>,
  activation: number,
  name = 'northgate',
): EntryContent {
  const r = customers.absorb(name, content, value, stamp(activation));
  if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
  return r.content;
}

describe('customers descriptor (§6.1, §6.2)', () => {
  it('declares the spec example fields', () => {
    const d = customers.descriptor({ identificationMargin: 0.5 });
    expect(d).toMatchObject({
      collection: 'customers',
      entry: 'customer',
      skills: ['triage_inbound', 'recheck_message'],
      teaches: 'which customer a message belongs to',
      decidedBy: 'rules',
    });
    expect(d.lessonFields.map((f) => f.name)).toEqual(['pattern', 'where', 'label', 'alreadyRead']);
    // Issue 26 (§6.3): re-filing mail already read is a choice any client renders blind; the default refuses.
    expect(d.lessonFields[3]).toMatchObject({
      kind: 'choice',
      choices: ['refuse', 're-file'],
      default: 'refuse',
    });
    expect(d.lessonFields[0]).toMatchObject({ label: 'Text that gives it away', kind: 'text' });
    expect(d.lessonFields[0]?.help).toMatch(
      /typed as you see it .*An address is always taken as typed .*Other text with any of .* is a regular expression, matched as written\./,
    );
    expect(d.lessonFields[1]).toEqual({
      name: 'where',
      label: 'Where to look for it',
      kind: 'choice',
      choices: ['from', 'subject', 'body', 'attachments', 'any', 'quoted'],
      default: 'from',
      help: "Narrower is safer. 'body' is what the sender wrote, without quoted or forwarded text; 'any' matches the whole message but that; 'quoted' only the quoted and forwarded text.",
    });
    expect(d.lessonFields[2]).toMatchObject({
      label: "Customer's name, only for a new customer",
      kind: 'text',
    });
  });

  it('states the decision rule with the margin it is configured with (§6.2)', () => {
    const at = (m: number): string => customers.descriptor({ identificationMargin: m }).how;
    expect(at(0.5)).toContain('leads the next by at least 0.5 (the identification margin)');
    expect(at(0.3)).toContain('leads the next by at least 0.3 (the identification margin)');
    expect(at(0.25)).toContain('at least 0.25 ');
    expect(at(0.3)).not.toBe(at(0.5));
    expect(at(0.5)).toMatch(/scores one point for its customer/);
    expect(at(0.5)).toMatch(/share of all points scored/);
    expect(at(0.5)).toMatch(/Nothing matches, nothing is claimed\. A mark that matches in the subject/);
  });

  it('states the strengths of issue 14: the text outranks the sender, a name inside a sibling’s name scores nothing (§6.2)', () => {
    const how = customers.descriptor({ identificationMargin: 0.5 }).how;
    expect(how).toContain(
      "is stronger than one that matches in the sender's address, because a sender may write for others",
    );
    expect(how).toContain(
      'when another customer matches a stronger mark than any of the leader’s, nothing is claimed',
    );
    expect(how).toMatch(/inside another customer's longer name in the same part .* scores nothing\./);
    // objections.ts: weak evidence against the new text.
    expect(how).toContain(
      "A reading that rests only on the sender's address, or only on a subject a reply or forward inherited, does not settle when the new text names another customer, in full or without its legal form",
    );
    // track-record.ts (issue 38): the sender's marks decide alone only while its record is one customer's.
    expect(how).toContain(
      "The sender's address (or domain) settles a message alone only while the mail read from that address (that domain) since the mark was taught was all read or answered as the same customer",
    );
  });

  it("says the body is the new text, and that 'any' leaves the quoted text out (§6.2, issue 14)", () => {
    const how = customers.descriptor({ identificationMargin: 0.5 }).how;
    expect(how).toContain('The body is the new text only');
    expect(how).toContain('without what it quotes or forwards, its signature or its disclaimer');
    expect(how).toContain("A mark counts in those only when taught for 'quoted'");
    expect(how).toContain("'any' means the from, subject, body and attachments");
  });
});

describe('customers absorb and describe (§10.1, §10.4)', () => {
  it('phrases a mark the way the spec does, a regular expression as a pattern (issue 27)', () => {
    expect(customers.describe({ pattern: 'billing@origin\\.example', where: 'from' })).toBe(
      "matches the pattern 'billing@origin\\.example' in the from",
    );
    expect(customers.describe({ pattern: 'PA-2026-0901', where: 'any' })).toBe(
      "matches 'PA-2026-0901' anywhere in the message",
    );
    expect(customers.describe({ pattern: 'PA-2026-0901' })).toBe("matches 'PA-2026-0901' in the from");
    expect(customers.describe({ pattern: 'PA-2026-0901', where: 'quoted' })).toBe(
      "matches 'PA-2026-0901' in the quoted text",
    );
    expect(customers.describe({ label: 'Northgate Motors Ltd' })).toBe("is called 'Northgate Motors Ltd'");
  });

  it('refuses a where outside the six choices, naming them', () => {
    const r = customers.absorb(
      'northgate',
      undefined,
      { pattern: 'PA-2026-0901', where: 'header' },
      stamp(1),
    );
    expect(r).toEqual({
      outcome: 'refused',
      reason:
        '"header" is not a place to look; choose one of from, subject, body, attachments, any and quoted.',
    });
  });

  it("refuses another learnable's vocabulary instead of ignoring it", () => {
    const r = customers.absorb('northgate', undefined, { column: 'Air Waybill No' }, stamp(1));
    expect(r.outcome).toBe('refused');
    if (r.outcome === 'refused')
      expect(r.reason).toMatch(
        /"column" is not a field of a customer lesson; the fields are pattern, where, label and alreadyRead/,
      );
  });

  it('refuses a lone common word such as invoice (§13.1)', () => {
    const r = customers.absorb('northgate', undefined, { pattern: 'invoice', where: 'subject' }, stamp(1));
    expect(r.outcome).toBe('refused');
  });

  it('treats the same pattern in another place as a new mark, and the same pattern in the same place as nothing new (§10.2)', () => {
    const c = learn(undefined, { pattern: 'Northgate Motors', where: 'subject' }, 1);
    expect(
      customers.absorb('northgate', c, { pattern: 'northgate motors', where: 'subject' }, stamp(2)).outcome,
    ).toBe('unchanged');
    const c2 = learn(c, { pattern: 'Northgate Motors', where: 'body' }, 2);
    expect(customers.rules('northgate', c2).map((r) => r.describes)).toEqual([
      "matches 'Northgate Motors' in the subject",
      "matches 'Northgate Motors' in the body",
    ]);
  });

  it('hands the matcher one mark per pattern, on the parts its where names (§13.3)', () => {
    const c = learn(
      learn(undefined, { pattern: 'billing@origin\\.example', where: 'from' }, 1),
      { pattern: 'PA-2026-0901', where: 'any' },
      2,
    );
    expect(customers.marks('northgate', c)).toEqual([
      {
        source: 'billing@origin\\.example',
        parts: ['from'],
        mark: 'billing@origin\\.example',
        where: 'from',
        provenance: stamp(1),
      },
      {
        source: '(?:^|[^\\p{L}\\p{N}/-])PA-2026-0901(?:$|[^\\p{L}\\p{N}/-])', // issue 27: plain, so whole
        parts: ['from', 'subject', 'body', 'attachments', 'quoted'],
        mark: '(?:^|[^\\p{L}\\p{N}/-])PA-2026-0901(?:$|[^\\p{L}\\p{N}/-])',
        where: 'any',
        provenance: stamp(2),
      },
    ]);
  });
});

describe('customer labels', () => {
  it('derives a label from the name for a new customer taught without one', () => {
    expect(customers.label('northgate', learn(undefined, { pattern: 'PA-2026-0901' }, 1))).toBe('Northgate');
    expect(customers.label('al-hamra', learn(undefined, { pattern: 'PA-2026-0901' }, 1, 'al-hamra'))).toBe(
      'Al Hamra',
    );
  });

  it('takes a label with the first mark, or alone (a client sends every field, §6.3)', () => {
    const c = learn(undefined, { pattern: 'PA-2026-0901', where: 'any', label: 'Northgate Motors Ltd' }, 1);
    expect(customers.label('northgate', c)).toBe('Northgate Motors Ltd');
    const alone = learn(undefined, { pattern: '', where: 'from', label: 'Al Hamra Trading' }, 1, 'alhamra');
    expect(customers.label('alhamra', alone)).toBe('Al Hamra Trading');
    expect(customers.rules('alhamra', alone)).toEqual([]);
    expect(customers.absorb('alhamra', alone, { label: 'Al Hamra Trading' }, stamp(2)).outcome).toBe(
      'unchanged',
    );
  });

  it('renames, and a revert of the rename restores the earlier name', () => {
    const c1 = learn(undefined, { label: 'Northgate' }, 1);
    const c2 = learn(c1, { pattern: 'PA-2026-0901' }, 2);
    const c3 = learn(c2, { label: 'Northgate Motors Ltd' }, 3);
    expect(customers.label('northgate', c3)).toBe('Northgate Motors Ltd');
    const r = customers.revert('northgate', c3, { label: 'Northgate Motors Ltd' }, 3);
    if (r.outcome !== 'changed' || r.content === null) throw new Error(JSON.stringify(r));
    expect(customers.label('northgate', r.content)).toBe('Northgate');
    expect(customers.rules('northgate', r.content)).toHaveLength(1);
  });

  it('keeps an entry named by an earlier lesson when the mark that followed is reverted', () => {
    const c1 = learn(undefined, { label: 'Northgate Motors Ltd' }, 1);
    const c2 = learn(c1, { pattern: 'PA-2026-0901' }, 2);
    const r = customers.revert('northgate', c2, { pattern: 'PA-2026-0901' }, 2);
    if (r.outcome !== 'changed' || r.content === null) throw new Error(JSON.stringify(r));
    expect(customers.label('northgate', r.content)).toBe('Northgate Motors Ltd');
    expect(customers.revert('northgate', c1, { label: 'Northgate Motors Ltd' }, 1)).toEqual({
      outcome: 'changed',
      content: null,
    });
  });

  it('falls back to the derived name when the naming lesson is reverted but later marks remain', () => {
    const c1 = learn(undefined, { pattern: 'billing@origin\\.example', label: 'Northgate Motors Ltd' }, 1);
    const c2 = learn(c1, { pattern: 'PA-2026-0901' }, 2);
    const r = customers.revert(
      'northgate',
      c2,
      { pattern: 'billing@origin\\.example', label: 'Northgate Motors Ltd' },
      1,
    );
    if (r.outcome !== 'changed' || r.content === null) throw new Error(JSON.stringify(r));
    expect(customers.label('northgate', r.content)).toBe('Northgate');
    expect(customers.rules('northgate', r.content).map((x) => x.describes)).toEqual([
      "matches 'PA-2026-0901' in the from",
    ]);
  });
});

describe('customers mentions and erase (§14)', () => {
  it('finds an address whether taught escaped or not, and erases only those marks', () => {
    const c = learn(
      learn(undefined, { pattern: 'billing@origin\\.example' }, 1),
      { pattern: 'NGM-PO-\\d{5}', where: 'any' },
      2,
    );
    expect(customers.mentions(c, 'billing@origin.example')).toBe(true);
    expect(customers.mentions(c, 'billing@origin\\.example')).toBe(true);
    expect(customers.mentions(c, 'Billing@Origin.Example')).toBe(true);
    const r = customers.erase(c, 'billing@origin.example');
    if (r.outcome !== 'changed' || r.content === null) throw new Error(JSON.stringify(r));
    expect(customers.marks('northgate', r.content).map((m) => m.mark)).toEqual(['NGM-PO-\\d{5}']);
  });

  it('erases a label that holds the identifier', () => {
    const c = learn(undefined, { pattern: 'PA-2026-0901', label: 'dana@origin.example' }, 1);
    expect(customers.mentions(c, 'DANA@origin.example')).toBe(true);
    const r = customers.erase(c, 'dana@origin.example');
    if (r.outcome !== 'changed' || r.content === null) throw new Error(JSON.stringify(r));
    expect(customers.mentions(r.content, 'dana@origin.example')).toBe(false);
    expect(customers.rules('northgate', r.content)).toHaveLength(1);
  });
});

describe('customers validateContent (§10.3)', () => {
  const stored = (pattern: string): unknown => ({
    label: 'Northgate',
    labelAdded: stamp(1),
    marks: [{ pattern, where: 'from', added: stamp(1) }],
  });

  it("loads a stored mark that today's scope rules would refuse, so a pinned task can finish", () => {
    expect(customers.validateContent('northgate', stored('invoice')).ok).toBe(true);
  });

  it('rejects stored content re2 cannot run, with its reason', () => {
    const v = customers.validateContent('northgate', stored('billing@origin\\.example('));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toMatch(/re2 cannot compile .*missing \)/);
  });

  it('rejects a where outside the choices and marks without provenance', () => {
    expect(
      customers.validateContent('northgate', {
        label: 'N',
        labelAdded: stamp(1),
        marks: [{ pattern: 'PA-2026-0901', where: 'header', added: stamp(1) }],
      }).ok,
    ).toBe(false);
    expect(
      customers.validateContent('northgate', {
        label: 'N',
        labelAdded: stamp(1),
        marks: [{ pattern: 'PA-2026-0901', where: 'from' }],
      }).ok,
    ).toBe(false);
  });
});
