// Invariant: every registered learnable, including one whose value has no `pattern` key, keeps the same contract (§9, §10).
import { describe, expect, it } from 'vitest';
import { runLearnableContract } from './learnable.contract.ts';
import { createCustomersLearnable } from './customers/customers.ts';
import { createKindsLearnable } from './kinds/kinds.ts';
import { createMappingsLearnable } from './mappings/mappings.ts';
import { createLearnables } from './registry.ts';

runLearnableContract({
  name: 'customers',
  make: createCustomersLearnable,
  entryName: 'northgate',
  validValue: { pattern: 'billing@origin\\.example', where: 'from' },
  otherValidValue: { pattern: 'PA-2026-0901', where: 'any' },
  invalidValue: { pattern: 'billing@origin\\.example(', where: 'from' },
  equivalentValue: { pattern: '  BILLING@Origin\\.Example ', where: 'From' },
  expectedDescribes: "matches 'billing@origin\\.example' in the from",
  identifier: 'billing@origin.example',
  matchesText: true,
});

runLearnableContract({
  name: 'kinds',
  make: createKindsLearnable,
  entryName: 'pre-alert',
  validValue: { cue: 'pre-?alert', where: 'subject' },
  otherValidValue: { cue: 'voravis', where: 'any' },
  invalidValue: { cue: '.*', where: 'subject' },
  equivalentValue: { cue: 'PRE-?ALERT' },
  expectedDescribes: "is marked by 'pre-?alert' in the subject",
  identifier: 'pre-?alert',
  matchesText: true,
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
});

describe('the contract suite itself', () => {
  it('covers every registered learnable', () => {
    expect(createLearnables().map((l) => l.collection)).toEqual(['customers', 'kinds', 'mappings']);
  });
});
