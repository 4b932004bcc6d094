// Invariant: a reading follows the decision rule the `how` sentence states, says what it saw, and records the version and who taught each matched mark (§6.2, §11, §13.4).
import { describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import { buildDefinition, csv, mail, type TestLesson } from '../support/definitions.ts';
import { customerOf, kindOf, manifestsOf } from '../support/readings.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import { definitionMarks, readMessage } from '../../src/domain/triage/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';

const learnables = createLearnables();
const people: Record<string, string> = {
  'person:1': 'dana@warehouse.example',
  'person:2': 'omar@warehouse.example',
};
const resolve = (id: string): string => people[id] ?? id;

function read(lessons: TestLesson[], message: MailMessage, margin = 0.5) {
  const definition = buildDefinition(lessons, { versionId: 'sha256:v7' });
  const matcher = compileMatcher(definitionMarks(definition, learnables));
  return readMessage(definition, 7, matcher, message, learnables, { identificationMargin: margin }, resolve);
}

const c = (entry: string, value: Record<string, string>, taughtBy?: string): TestLesson =>
  taughtBy === undefined
    ? { collection: 'customers', entry, value }
    : { collection: 'customers', entry, value, taughtBy };
const base: TestLesson[] = [
  c('northgate', { label: 'Northgate Motors Ltd' }),
  c('northgate', { pattern: 'billing@origin\\.example', where: 'from' }, 'person:2'),
  c('gulftrade', { label: 'Gulftrade' }),
  c('gulftrade', { pattern: 'Gulftrade', where: 'subject' }),
  c('alhamra', { label: 'Al Hamra Trading' }),
];

describe('customers reading (§11)', () => {
  it('reads as the customer whose mark matched, on the matched text, with who taught it (§11, §13.4)', () => {
    const r = read(base, mail({ from: { address: 'billing@origin.example', name: 'Billing' } }));
    expect(r.versionId).toBe('sha256:v7');
    expect(r.definitionVersion).toBe(7);
    expect(customerOf(r).settled).toBe(true);
    expect(customerOf(r).winner).toBe('northgate');
    expect(customerOf(r).reads).toBe('Reads as Northgate Motors Ltd, on billing@origin.example');
    const [first] = customerOf(r).candidates;
    expect(first).toMatchObject({
      name: 'northgate',
      label: 'Northgate Motors Ltd',
      score: 1,
      matched: ['billing@origin\\.example'],
    });
    expect(first!.evidence[0]).toMatchObject({
      mark: 'billing@origin\\.example',
      where: 'from',
      part: 'from',
      taughtBy: 'omar@warehouse.example',
      activation: 2,
    });
    // §11's example lists customers that scored nothing, with 0.
    expect(customerOf(r).candidates.find((x) => x.name === 'alhamra')).toMatchObject({
      score: 0,
      matched: [],
    });
  });

  it('says plainly that nothing matched (§11)', () => {
    const r = read(base, mail());
    expect(customerOf(r).settled).toBe(false);
    expect(customerOf(r).winner).toBeUndefined();
    expect(customerOf(r).reads).toBe('Still cannot tell whose this is: nothing matched.');
  });

  it('leaves a tie unsettled and says who matched where (§11)', () => {
    const r = read(
      [...base, c('northgate', { pattern: 'PA-2026-0901', where: 'subject' })],
      mail({ subject: 'Gulftrade PA-2026-0901' }),
    );
    expect(customerOf(r).settled).toBe(false);
    expect(customerOf(r).reads).toBe('Gulftrade and Northgate Motors Ltd both match, on the subject.');
    expect(
      customerOf(r)
        .candidates.slice(0, 2)
        .map((x) => x.score),
    ).toEqual([0.5, 0.5]);
  });

  it('does not penalise a customer for having many marks (§11)', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      c('northgate', { pattern: `NGM-PO-${10000 + i}`, where: 'any' }),
    );
    const r = read([...base, ...many], mail({ from: { address: 'billing@origin.example', name: '' } }));
    expect(customerOf(r).winner).toBe('northgate');
    expect(customerOf(r).candidates[0]!.score).toBe(1);
  });

  it('scores a mark once however many parts it matches in (§6.2 how)', () => {
    const lessons = [...base, c('northgate', { pattern: 'Northgate Motors', where: 'any' })];
    const r = read(lessons, mail({ subject: 'Northgate Motors Gulftrade', body: 'Northgate Motors again' }));
    // one point each: a tie, not 2 to 1
    expect(customerOf(r).settled).toBe(false);
    expect(
      customerOf(r)
        .candidates.slice(0, 2)
        .map((x) => x.score),
    ).toEqual([0.5, 0.5]);
    expect(
      customerOf(r)
        .candidates.find((x) => x.name === 'northgate')!
        .evidence.map((e) => e.part),
    ).toEqual(['subject', 'body']);
  });

  it('settles only when the lead reaches the identification margin (§6.2 how)', () => {
    const lessons = [
      ...base,
      c('northgate', { pattern: 'PA-2026-0901', where: 'subject' }),
      c('northgate', { pattern: 'Northgate Motors', where: 'body' }),
    ];
    // 2 points to 1: lead 0.333
    const m = (): MailMessage => mail({ subject: 'Gulftrade PA-2026-0901', body: 'for Northgate Motors' });
    const under = read(lessons, m(), 0.5);
    expect(customerOf(under).settled).toBe(false);
    expect(
      customerOf(under)
        .candidates.slice(0, 2)
        .map((x) => x.score),
    ).toEqual([0.667, 0.333]);
    expect(customerOf(under).reads).toContain('leads, but not by the margin of 0.5');
    const over = read(lessons, m(), 0.3);
    expect(customerOf(over).settled).toBe(true);
    expect(customerOf(over).winner).toBe('northgate');
    // 3 points to 1: lead exactly 0.5 settles at margin 0.5
    const three = read(
      [...lessons, c('northgate', { pattern: 'billing@origin\\.example', where: 'from' })],
      mail({
        from: { address: 'billing@origin.example', name: '' },
        subject: 'Gulftrade PA-2026-0901',
        body: 'for Northgate Motors',
      }),
      0.5,
    );
    expect(customerOf(three).settled).toBe(true);
  });
});

describe('kinds reading (§11)', () => {
  const kinds: TestLesson[] = [
    { collection: 'kinds', entry: 'pre-alert', value: { label: 'Pre-alert' } },
    { collection: 'kinds', entry: 'pre-alert', value: { cue: 'pre-?alert', where: 'subject' } },
    { collection: 'kinds', entry: 'invoice', value: { label: 'Invoice' } },
    { collection: 'kinds', entry: 'invoice', value: { cue: 'invoice', where: 'subject' } },
  ];

  it('reads as a kind, on the cue in its part', () => {
    const r = read(kinds, mail({ subject: 'Pre-alert PA-2026-0901' }));
    expect(kindOf(r).settled).toBe(true);
    expect(kindOf(r).winner).toBe('pre-alert');
    expect(kindOf(r).reads).toBe("Reads as a pre-alert, on 'Pre-alert' in the subject");
  });

  it('names the kinds that tie, and says nothing matched when nothing did', () => {
    expect(kindOf(read(kinds, mail({ subject: 'Invoice and pre-alert' }))).reads).toBe(
      'An invoice and a pre-alert both match, on the subject.',
    );
    expect(kindOf(read(kinds, mail({ subject: 'Hello' }))).reads).toBe(
      'Still cannot tell what kind of message this is: nothing matched.',
    );
  });
});

describe('manifest reading (§11)', () => {
  const maps: TestLesson[] = [
    { collection: 'mappings', entry: 'waybill', value: { column: 'Air Waybill No' } },
    { collection: 'mappings', entry: 'waybill', value: { column: 'AWB' } },
    { collection: 'mappings', entry: 'weight', value: { column: 'Gross weight (kg)' } },
  ];

  it('finds fields through their headings, case and surrounding spaces ignored, first hit wins', () => {
    const m = mail({
      attachments: [
        csv(
          'manifest.csv',
          [' awb ', 'Air Waybill No', 'Gross Weight (KG)'],
          [
            ['1', '176-1', '40'],
            ['2', '176-2', '50'],
          ],
        ),
      ],
    });
    const [manifest] = manifestsOf(read(maps, m));
    expect(manifest!.settled).toBe(true);
    const waybill = manifest!.fields.find((f) => f.field === 'waybill');
    // 'Air Waybill No' was learned first, so it wins over ' awb '
    expect(waybill).toMatchObject({ settled: true, column: 'Air Waybill No', values: ['176-1', '176-2'] });
    expect(manifest!.fields.find((f) => f.field === 'weight')).toMatchObject({
      settled: true,
      values: ['40', '50'],
    });
  });

  it('leaves a field with no known heading empty and names the headings it saw', () => {
    const m = mail({ attachments: [csv('manifest.csv', ['MAWB', 'Pcs'], [['176-1', '3']])] });
    const [manifest] = manifestsOf(read(maps, m));
    expect(manifest!.settled).toBe(false);
    const waybill = manifest!.fields.find((f) => f.field === 'waybill')!;
    expect(waybill.settled).toBe(false);
    expect(waybill.values).toBeUndefined();
    expect(waybill.reads).toContain("'MAWB' and 'Pcs'");
    expect(manifest!.headingsSeen).toEqual(['MAWB', 'Pcs']);
  });

  it('reads nothing for a message without a CSV manifest', () => {
    expect(manifestsOf(read(maps, mail()))).toEqual([]);
  });
});
