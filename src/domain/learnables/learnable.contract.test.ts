// Invariant: every registered learnable, including one whose value has no `pattern` key and the fourth
// defined only in test/fourth-learnable, keeps the same contract, reader included (§9, §10, §11).
import { describe, expect, it } from 'vitest';
import { runLearnableContract } from './learnable.contract.ts';
import { createCustomersLearnable } from './customers/customers.ts';
import { createKindsLearnable } from './kinds/kinds.ts';
import { createMappingsLearnable } from './mappings/mappings.ts';
import { createLearnables } from './registry.ts';
import { csv, mail } from '../../../test/support/definitions.ts';
import { createUnitsLearnable } from '../../../test/fourth-learnable/units/units.ts';

runLearnableContract({
  name: 'customers',
  make: createCustomersLearnable,
  entryName: 'northgate',
  validValue: { pattern: 'billing@origin\\.example', where: 'from' },
  otherValidValue: { pattern: 'PA-2026-0901', where: 'any' },
  invalidValue: { pattern: 'billing@origin\\.example(', where: 'from' },
  equivalentValue: { pattern: '  BILLING@Origin\\.Example ', where: 'From' },
  expectedDescribes: "matches the pattern 'billing@origin\\.example' in the from",
  identifier: 'billing@origin.example',
  matchesText: true,
  readerMessage: mail({ from: { address: 'billing@origin.example', name: 'Billing' }, subject: 'Shipment' }),
  createValue: { pattern: 'billing@origin\\.example', where: 'from', label: 'Northgate Motors Ltd' },
});

runLearnableContract({
  name: 'kinds',
  make: createKindsLearnable,
  entryName: 'pre-alert',
  validValue: { cue: 'pre-?alert', where: 'subject' },
  otherValidValue: { cue: 'voravis', where: 'any' },
  invalidValue: { cue: '.*', where: 'subject' },
  equivalentValue: { cue: 'PRE-?ALERT' },
  expectedDescribes: "is marked by the pattern 'pre-?alert' in the subject",
  identifier: 'pre-?alert',
  matchesText: true,
  readerMessage: mail({ subject: 'Pre-alert for shipment' }),
  createValue: { cue: 'pre-?alert', where: 'subject', label: 'Pre-alert' },
});

runLearnableContract({
  name: 'mappings',
  make: createMappingsLearnable,
  entryName: 'waybill',
  validValue: { column: 'Air Waybill No' },
  otherValidValue: { column: 'MAWB' },
  invalidValue: { column: '   ' },
  equivalentValue: { column: '  air waybill NO ' },
  expectedDescribes: "reads waybill from the 'Air Waybill No' column",
  identifier: 'waybill no',
  matchesText: false,
  readerMessage: mail({ attachments: [csv('manifest.csv', ['Air Waybill No'], [['176-1234']])] }),
  createValue: { column: 'Air Waybill No', newField: 'yes' },
});

runLearnableContract({
  name: 'units (the fourth, defined only in test/fourth-learnable)',
  make: createUnitsLearnable,
  entryName: 'kilogram',
  validValue: { symbol: 'KGS', system: 'metric' },
  otherValidValue: { symbol: 'kg', system: 'metric' },
  invalidValue: { symbol: '12 kg', system: 'metric' },
  equivalentValue: { symbol: ' kgs ', system: 'metric' },
  expectedDescribes: "reads 'KGS' as kilogram (metric)",
  identifier: 'KGS',
  matchesText: false,
  readerMessage: mail({ subject: 'Pre-alert', body: 'Gross weight 1,200 KGS.' }),
});

describe('the contract suite itself', () => {
  it('covers every registered learnable', () => {
    expect(createLearnables().map((l) => l.collection)).toEqual(['customers', 'kinds', 'mappings']);
    expect(createLearnables([createUnitsLearnable()]).map((l) => l.collection)).toEqual([
      'customers',
      'kinds',
      'mappings',
      'units',
    ]);
  });
});
