// Invariant: mappings (the post's ColumnMapping) learns `{ column }` with no pattern key and phrases it exactly as the post does (§9, §10.4); a lesson starts a new field only through its declared `newField` choice (issue 12.3).
import { describe, expect, it } from 'vitest';
import type { EntryContent, Provenance } from '../learnable.ts';
import { MAPPINGS_HOW, createMappingsLearnable } from './mappings.ts';

const stamp = (activation: number): Provenance => ({
  activation,
  taughtBy: 'person:dana',
  at: '2026-08-17T10:00:00.000Z',
});
const mappings = createMappingsLearnable();

describe('mappings', () => {
  it("declares the post's descriptor: a column field and the new-field choice, no pattern key (§6.2, §6.3, §9)", () => {
    const d = mappings.descriptor({ identificationMargin: 0.5 });
    expect(d).toMatchObject({
      collection: 'mappings',
      entry: 'field',
      teaches: 'which column of a manifest holds which field',
      decidedBy: 'rules',
      lessonFields: [
        {
          name: 'column',
          label: 'Column heading',
          kind: 'text',
          help: "Exactly as it appears in the sheet's header row.",
        },
        {
          name: 'newField',
          label: 'A new field?',
          kind: 'choice',
          choices: ['no', 'yes'],
          default: 'no',
        },
      ],
    });
    expect(d.lessonFields.map((f) => f.name)).not.toContain('pattern');
    expect(d.how).toBe(
      'Each field carries the column headings it has been seen under. Headings match case-insensitively, ignoring surrounding spaces, and the first hit wins. No heading matches, the field comes back empty.',
    );
    expect(d.how).toBe(MAPPINGS_HOW);
  });

  it("phrases a lesson as the post's audit line (§10.4)", () => {
    const r = mappings.absorb('waybill', undefined, { column: 'Air Waybill No' }, stamp(1));
    expect(r).toMatchObject({
      outcome: 'learned',
      describes: "reads waybill from the 'Air Waybill No' column",
    });
    expect(mappings.describe({ column: 'Air Waybill No' }, 'waybill')).toBe(
      "reads waybill from the 'Air Waybill No' column",
    );
    if (r.outcome === 'learned') {
      expect(r.content).toEqual({ columns: [{ heading: 'Air Waybill No', added: stamp(1) }] });
      expect(mappings.rules('waybill', r.content)).toEqual([
        { describes: "reads waybill from the 'Air Waybill No' column", provenance: stamp(1) },
      ]);
      expect(mappings.marks('waybill', r.content)).toEqual([]);
    }
  });

  it('lists the headings a field has been seen under, in the order learned (the reader takes the first hit)', () => {
    let content: EntryContent | undefined;
    for (const [i, column] of ['Air Waybill No', 'AWB', 'MAWB'].entries()) {
      const r = mappings.absorb('waybill', content, { column }, stamp(i + 1));
      if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
      content = r.content;
    }
    expect(mappings.headings('waybill', content!)).toEqual(['Air Waybill No', 'AWB', 'MAWB']);
  });

  it('trims, and treats a heading differing only in case or spaces as known (§10.2)', () => {
    const r = mappings.absorb('pieces', undefined, { column: '  Pcs  ' }, stamp(1));
    if (r.outcome !== 'learned') throw new Error(JSON.stringify(r));
    expect(r.content).toEqual({ columns: [{ heading: 'Pcs', added: stamp(1) }] });
    expect(mappings.absorb('pieces', r.content, { column: 'PCS' }, stamp(2))).toEqual({
      outcome: 'unchanged',
      describes: "reads pieces from the 'PCS' column",
    });
  });

  it('refuses an empty, over-long or pattern-shaped value with its own reason (§10.1)', () => {
    const refused = (value: Record<string, unknown>): string => {
      const r = mappings.absorb('waybill', undefined, value, stamp(1));
      if (r.outcome !== 'refused') throw new Error(JSON.stringify(r));
      return r.reason;
    };
    expect(refused({ column: '' })).toMatch(/needs a column/);
    expect(refused({})).toMatch(/needs a column/);
    expect(refused({ column: 'x'.repeat(101) })).toMatch(/at most 100/);
    expect(mappings.absorb('waybill', undefined, { column: 'x'.repeat(100) }, stamp(1)).outcome).toBe(
      'learned',
    );
    expect(refused({ pattern: 'AWB', where: 'body' })).toMatch(
      /"pattern" and "where" are not fields of a field mapping lesson; it takes the column heading \("column"\) and, for a new field, "newField"\./,
    );
    expect(refused({ column: 'Air\nWaybill' })).toMatch(/line break/);
    expect(refused({ column: 'AWB', newField: 'maybe' })).toBe(
      '"maybe" is not an answer to "A new field?" ("newField"); choose yes or no.',
    );
    expect(refused({ column: 'AWB', newField: true })).toMatch(/^a boolean is not an answer/);
  });

  it('asks to create a field only when newField is yes, through the field its card declares (issue 12.3, §6.3)', () => {
    const creation = mappings.creation!;
    expect(creation.asks({ column: 'AWB' })).toBe(false);
    expect(creation.asks({ column: 'AWB', newField: 'no' })).toBe(false);
    expect(creation.asks({ column: 'AWB', newField: '' })).toBe(false);
    expect(creation.asks({ column: 'AWB', newField: 'yes' })).toBe(true);
    expect(creation.asks({ column: 'AWB', newField: ' Yes ' })).toBe(true);
    // A value it refuses goes on to absorb, whose reason the person then reads (§10.1).
    expect(creation.asks({ column: '' })).toBe(true);
    // The words name the declared field, so a blind client's person finds it on the form.
    const field = mappings
      .descriptor({ identificationMargin: 0.5 })
      .lessonFields.find((f) => f.kind === 'choice')!;
    expect(creation.how).toContain(`"${field.label}"`);
    expect(field.choices).toContain('yes');
    // The answer is part of the lesson, not of what it teaches: the same heading either way.
    expect(mappings.describe({ column: 'AWB', newField: 'yes' }, 'waybill')).toBe(
      mappings.describe({ column: 'AWB' }, 'waybill'),
    );
  });
});
