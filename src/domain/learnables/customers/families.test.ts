// Invariant (issue 14): a reference family keeps the customer's letters-only prefix, generalises each numbered segment to its exact length, and is anchored so it never claims a longer prefix, a longer number or a year-led reference.
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { referenceFamily } from './families.ts';

describe('referenceFamily', () => {
  it('keeps the prefix and separators, generalises numbered segments', () => {
    expect(referenceFamily('NGM-2026-0412')).toMatchObject({ prefix: 'NGM', shown: 'NGM-####-####' });
    expect(referenceFamily('HBL/2026/00412/NVMA')).toMatchObject({
      prefix: 'HBL',
      shown: 'HBL/####/#####/NVMA',
    });
    expect(referenceFamily('ABC-12X4')).toMatchObject({ shown: 'ABC-####' });
  });

  it('has none without a letters-only prefix of three letters, or with nothing to generalise', () => {
    for (const ref of ['2026-NGM-0412', 'N1M-2026-0412', 'NG-2026-0412', 'NGM2026', 'NGM-ABC-DEF'])
      expect(referenceFamily(ref), ref).toBeNull();
  });

  it('matches its own shape and never a longer prefix, a longer number or another separator', () => {
    const re = new RE2(referenceFamily('NGM-2026-0412')!.source, 'iu');
    for (const yes of ['NGM-2027-9999', 'Re: NGM-2026-0001.', '(ngm-2026-0002)'])
      expect(re.test(yes), yes).toBe(true);
    for (const no of [
      'XNGM-2026-0412',
      'NGMX-2026-0412',
      'NGM-2026-04123',
      'NGM-2026-0412-1',
      'NGM/2026/0412',
      'NGM-26-0412',
    ])
      expect(re.test(no), no).toBe(false);
  });
});
