// Invariant: a message names an entry only where the entry's whole label stands in its text, in any script.
import { describe, expect, it } from 'vitest';
import { createLearnables } from '../registry.ts';
import { buildDefinition } from '../../../../test/support/definitions.ts';
import { namedEntries } from './label-index.ts';

const customers = createLearnables()[0]!;
const definition = buildDefinition([
  { collection: 'customers', entry: 'alhamra', value: { label: 'Al Hamra Trading' } },
  { collection: 'customers', entry: 'gulftrade', value: { label: 'Gulftrade' } },
  { collection: 'customers', entry: 'arabic', value: { label: 'شركة الحمراء' } },
  { collection: 'customers', entry: 'ab', value: { label: 'AB' } },
]);
const entries = definition.collections.get('customers')!;

describe('namedEntries', () => {
  it('finds whole labels, case-insensitively, as written', () => {
    expect(namedEntries(customers, entries, 'Shipment for AL HAMRA TRADING, and Gulftrade.')).toEqual([
      { entry: 'alhamra', text: 'AL HAMRA TRADING' },
      { entry: 'gulftrade', text: 'Gulftrade' },
    ]);
  });

  it('does not find a label inside a longer word, nor labels too short to mean anything', () => {
    expect(namedEntries(customers, entries, 'Gulftraders and AB Cargo')).toEqual([]);
  });

  it('finds labels in other scripts', () => {
    expect(namedEntries(customers, entries, 'نيابة عن شركة الحمراء للتجارة')).toEqual([
      { entry: 'arabic', text: 'شركة الحمراء' },
    ]);
  });
});
