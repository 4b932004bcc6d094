// Invariant (issue 38, §13.1): a customer reading that rests on the sender's address or domain alone settles only while the sender's track record is that one customer's, and only while no reference family of the new text belongs to other customers only; read without a record it asks triage for one; with a clean record it settles as before.
import { describe, expect, it } from 'vitest';
import { buildDefinition, mail, type TestLesson } from '../support/definitions.ts';
import { directory, learnables, settings } from '../support/suggest-corpus.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import { definitionMarks, readMessage } from '../../src/domain/triage/index.ts';
import type { Carried, CollectionReading, SenderRecord } from '../../src/domain/learnables/index.ts';

const FORWARDER = 'desk@fwd-cargo.example';
const lessons: TestLesson[] = [
  ...directory,
  { collection: 'customers', entry: 'northgate', value: { pattern: FORWARDER, where: 'from' } },
];
const definition = buildDefinition(lessons);
const matcher = compileMatcher(definitionMarks(definition, learnables));

function carried(entries: Record<string, number>): Map<string, Map<string, Carried>> {
  return new Map([
    [
      'customers',
      new Map(
        Object.entries(entries).map(([e, n]) => [e, { messages: n, lastAt: '2026-10-03T09:00:00.000Z' }]),
      ),
    ],
  ]);
}

function record(over: Partial<SenderRecord> = {}): SenderRecord {
  return { address: FORWARDER, byAddress: new Map(), byDomain: new Map(), byKey: new Map(), ...over };
}

function read(body: string, r?: SenderRecord) {
  const m = mail({ from: { address: FORWARDER, name: 'Desk' }, subject: 'Pre-alert', body });
  const reading = readMessage(definition, 1, matcher, m, learnables, settings, (id) => id, r).readings.get(
    'customers',
  )!;
  return { reading, report: reading.report as CollectionReading };
}

describe('the track record (issue 38)', () => {
  it('asks triage for the record when a reading rests on the sender alone, and settles on a clean one', () => {
    const without = read('Please see below.');
    expect(without.reading.settled).toBe(true);
    expect(without.reading.needsSenderRecord).toBe(true);
    const clean = read('Please see below.', record({ byAddress: carried({ northgate: 4 }) }));
    expect(clean.reading.settled).toBe(true);
    expect(clean.reading.needsSenderRecord).toBeUndefined();
  });

  it('asks, naming both and the lesson to revert, once the address was read or answered as another customer', () => {
    const r = read('Please see below.', record({ byAddress: carried({ northgate: 4, alhamra: 1 }) }));
    expect(r.reading.settled).toBe(false);
    expect(r.report.reads).toContain(
      `Northgate Motors Ltd matches only on the sender's address (${FORWARDER}), but mail from ${FORWARDER} was already read or answered as Al Hamra Trading (1 message, the last first seen on 2026-10-03)`,
    );
    expect(r.report.reads).toMatch(/revert activation \d+/);
    // The domain's record does not speak for an address mark.
    expect(read('Please see below.', record({ byDomain: carried({ alhamra: 3 }) })).reading.settled).toBe(
      true,
    );
  });

  it('asks when the new text carries a reference family the mail already read gives to other customers only', () => {
    const byKey = new Map([['family:AHT-####-####', carried({ alhamra: 3 })]]);
    const r = read(
      'Shipment AHT-2026-0412 attached.',
      record({ byAddress: carried({ northgate: 4 }), byKey }),
    );
    expect(r.reading.settled).toBe(false);
    expect(r.report.reads).toContain(
      'references shaped AHT-####-####, which the mail already read gives to Al Hamra Trading (3 messages)',
    );
    // A family the winner's mail carries too does not object.
    const shared = new Map([['family:AHT-####-####', carried({ alhamra: 3, northgate: 1 })]]);
    expect(read('Shipment AHT-2026-0412 attached.', record({ byKey: shared })).reading.settled).toBe(true);
  });

  it('leaves a reading on a text mark alone (the record is about the sender)', () => {
    const withText: TestLesson[] = [
      ...lessons,
      { collection: 'customers', entry: 'northgate', value: { pattern: 'NGM-2026-0777', where: 'body' } },
    ];
    const d = buildDefinition(withText);
    const m = mail({
      from: { address: FORWARDER, name: '' },
      subject: 'Pre-alert',
      body: 'Ref NGM-2026-0777.',
    });
    const reading = readMessage(
      d,
      1,
      compileMatcher(definitionMarks(d, learnables)),
      m,
      learnables,
      settings,
      (id) => id,
    ).readings.get('customers')!;
    expect(reading.settled).toBe(true);
    expect(reading.needsSenderRecord).toBeUndefined();
  });
});
