// Invariant (issue 38): the from part shows a sender's display name, but nothing in that name can pass for the address: a from-line mark bounded by `<`/`>` or the part's ends, or one that looks for an `@`, meets only the address.
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { fromLine } from '../mail/index.ts';
import { tokenPattern } from './literal-pattern.ts';

const address = new RE2(tokenPattern('billing@origin.example', 'address'), 'iu');
const domain = new RE2(tokenPattern('@origin.example', 'domain'), 'iu');
const unbounded = new RE2('billing@origin\\.example', 'iu');

describe('the from part (issue 38)', () => {
  it('never lets a display name pass for the taught address or domain', () => {
    for (const name of [
      'billing@origin.example>',
      'billing@origin.example',
      '<billing@origin.example>',
      'x <billing@origin.example>',
      'ops@origin.example>',
      '@origin.example>',
    ]) {
      const line = fromLine({ name, address: 'attacker@evil.test' });
      expect(address.test(line), line).toBe(false);
      expect(domain.test(line), line).toBe(false);
      expect(unbounded.test(line), line).toBe(false);
      expect(line.endsWith('<attacker@evil.test>'), line).toBe(true);
    }
  });

  it('still shows the name, and the real address still matches', () => {
    expect(fromLine({ name: 'Origin Billing', address: 'billing@origin.example' })).toBe(
      'Origin Billing <billing@origin.example>',
    );
    for (const name of ['', 'Origin Billing', 'billing@origin.example>']) {
      const line = fromLine({ name, address: 'billing@origin.example' });
      expect(address.test(line), line).toBe(true);
      expect(domain.test(line), line).toBe(true);
    }
  });
});
