// Invariant: a person's answer names an entry by name or label, as data or text, case-insensitively; anything else is not understood (§8: identical with or without a teach block).
import { describe, expect, it } from 'vitest';
import { Part } from '@a2a-js/sdk';
import { describeChoices, resolveAnswer } from './answers.ts';

const choices = [
  { name: 'northgate', label: 'Northgate Motors Ltd' },
  { name: 'alhamra', label: 'Al Hamra Trading' },
];
const keys = ['entry', 'customers', 'customer'];
const p = (json: object): Part => Part.fromJSON(json);

describe('resolveAnswer', () => {
  it('understands a data part naming the entry under any accepted key', () => {
    expect(resolveAnswer([p({ data: { entry: 'northgate' } })], choices, keys)).toMatchObject({
      ok: true,
      entry: 'northgate',
    });
    expect(resolveAnswer([p({ data: { customer: 'ALHAMRA' } })], choices, keys)).toMatchObject({
      ok: true,
      entry: 'alhamra',
    });
  });

  it('understands text naming the entry or its label, case-insensitively', () => {
    expect(resolveAnswer([p({ text: ' northgate motors ltd. ' })], choices, keys)).toMatchObject({
      ok: true,
      entry: 'northgate',
    });
    expect(resolveAnswer([p({ text: 'Alhamra' })], choices, keys)).toMatchObject({
      ok: true,
      entry: 'alhamra',
    });
  });

  it('does not guess: an unknown name or no answer is not understood', () => {
    expect(resolveAnswer([p({ text: 'Northgate Motors' })], choices, keys)).toEqual({
      ok: false,
      said: 'Northgate Motors',
    });
    expect(resolveAnswer([], choices, keys)).toEqual({ ok: false, said: null });
  });

  it('lists the valid answers for the message that asks again', () => {
    expect(describeChoices(choices)).toBe('"northgate" (Northgate Motors Ltd), "alhamra" (Al Hamra Trading)');
  });
});
