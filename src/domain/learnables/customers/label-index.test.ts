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
      { entry: 'alhamra', text: 'AL HAMRA TRADING', full: true },
      { entry: 'gulftrade', text: 'Gulftrade', full: true },
    ]);
  });

  it('does not find a label inside a longer word, nor labels too short to mean anything', () => {
    expect(namedEntries(customers, entries, 'Gulftraders and AB Cargo')).toEqual([]);
  });

  it('finds labels in other scripts', () => {
    expect(namedEntries(customers, entries, 'نيابة عن شركة الحمراء للتجارة')).toEqual([
      { entry: 'arabic', text: 'شركة الحمراء', full: true },
    ]);
  });

  // Issue 38: names as people write them.
  const directory = buildDefinition([
    { collection: 'customers', entry: 'maquinaria', value: { label: 'Maquinaria Monterrey SA de CV' } },
    { collection: 'customers', entry: 'kowloon', value: { label: 'Kowloon Imports Co Ltd' } },
    { collection: 'customers', entry: 'smith', value: { label: 'Smith & Sons Trading LLC' } },
    { collection: 'customers', entry: 'acme', value: { label: 'Acme Trading LLC' } },
    { collection: 'customers', entry: 'acmecontracting', value: { label: 'Acme Trading & Contracting WLL' } },
    { collection: 'customers', entry: 'gulf', value: { label: 'Gulftrade' } },
    { collection: 'customers', entry: 'gulfllc', value: { label: 'Gulftrade LLC' } },
    { collection: 'customers', entry: 'rift', value: { label: 'Rift Valley Motors (Pty) Ltd' } },
  ]).collections.get('customers')!;
  const named = (text: string) => namedEntries(customers, directory, text);

  it('finds a name without its legal form, as written, as weaker than the full name', () => {
    expect(
      named('the arrival notice for our client Maquinaria Monterrey. Consignee: MAQUINARIA  MONTERREY'),
    ).toEqual([{ entry: 'maquinaria', text: 'Maquinaria Monterrey', full: false }]);
    expect(named('Kowloon Imports: export docs')).toEqual([
      { entry: 'kowloon', text: 'Kowloon Imports', full: false },
    ]);
    expect(named('Rift Valley Motors - PRE-ALERT')).toEqual([
      { entry: 'rift', text: 'Rift Valley Motors', full: false },
    ]);
    expect(named('for Maquinaria Monterrey SA de CV')).toEqual([
      { entry: 'maquinaria', text: 'Maquinaria Monterrey SA de CV', full: true },
    ]);
  });

  it('varies & and and, and spacing', () => {
    expect(named('for Smith and Sons Trading')).toEqual([
      { entry: 'smith', text: 'Smith and Sons Trading', full: false },
    ]);
    expect(named('for Smith &\n Sons Trading LLC')).toEqual([
      { entry: 'smith', text: 'Smith &\n Sons Trading LLC', full: true },
    ]);
  });

  it('gives a form two near-duplicate names share only to the one whose full name it is', () => {
    // "Gulftrade" is one customer's full name and the other's short form.
    expect(named('Booking for Gulftrade')).toEqual([{ entry: 'gulf', text: 'Gulftrade', full: true }]);
    expect(named('Booking for Gulftrade LLC').map((n) => n.entry)).toContain('gulfllc');
    // The short form stands inside the longer sibling's name: both are found, and the callers keep the longer (names.ts).
    const both = named('for Acme Trading & Contracting');
    expect(both.map((n) => n.entry).sort()).toEqual(['acme', 'acmecontracting']);
  });

  it('does not find a short form inside a longer word', () => {
    expect(named('Kowloon Importsco and Maquinaria Monterreyx')).toEqual([]);
  });
});
