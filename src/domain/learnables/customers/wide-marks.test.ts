// Invariant (issue 26): a reference family or a sender's domain is a wide mark; an address, a whole reference or a name taught as a literal is narrow, whatever anchors literal-pattern.ts put around it.
import { describe, expect, it } from 'vitest';
import { isWideMark } from './wide-marks.ts';

describe('wide marks (issue 26)', () => {
  it('tells a wide mark from a narrow one', () => {
    for (const [mark, where] of [
      ['NGM-\\d{4}-\\d{4}', 'subject'],
      ['@northgatemotors\\.example', 'from'],
      ['@gulftrade-shipping\\.example(?:>|$)', 'from'],
      ['INV-[0-9]+', 'any'],
    ])
      expect(isWideMark({ mark: mark!, where: where! }), mark).toBe(true);
    for (const [mark, where] of [
      ['(?:^|<)billing@origin\\.example(?:>|$)', 'from'],
      ['(?:^|[^\\p{L}\\p{N}/-])NGM-2026-0777(?:$|[^\\p{L}\\p{N}/-])', 'subject'],
      ['\\bAl Hamra Trading\\b', 'body'],
      ['ops@alhamra\\.example', 'from'],
    ])
      expect(isWideMark({ mark: mark!, where: where! }), mark).toBe(false);
  });
});
