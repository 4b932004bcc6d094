// Invariant (issue 26): a reference family or a sender's domain is a wide mark; an address, a whole reference or a name taught as a literal is narrow, whatever anchors literal-pattern.ts put around it.
import { describe, expect, it } from 'vitest';
import { boundPlain } from '../plain-mark.ts';
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

  it('takes every literal a person types as narrow, in every part (one list of anchors, issue 38)', () => {
    for (const [typed, where] of [
      ['billing@origin.example', 'body'],
      ['billing@origin.example', 'any'],
      ['billing+ops@origin.example', 'from'],
      ['origin.example', 'body'],
      ['PA-2026-0901', 'attachments'],
      ['Kowloon Imports', 'body'],
    ]) {
      const mark = boundPlain(typed!, where!)!;
      expect(isWideMark({ mark, where: where! }), `${typed} in ${where}: ${mark}`).toBe(false);
    }
    expect(isWideMark({ mark: boundPlain('origin.example', 'from')!, where: 'from' })).toBe(true);
  });
});

describe('an address a person typed with its bounds (issue 49)', () => {
  it('is one address, not a family or a domain', () => {
    const typed = { mark: '(?:^|[^a-z0-9._%+-])dana@origin\\.example(?:$|[^a-z0-9.-])', where: 'from' };
    expect(isWideMark(typed)).toBe(false);
    expect(isWideMark({ mark: '(?:^|[^a-z0-9])BMB\\.\\d', where: 'body' })).toBe(true);
    expect(
      isWideMark({ mark: '(?:^|[^a-z0-9._%+-])@origin\\.example(?:$|[^a-z0-9.-])', where: 'from' }),
    ).toBe(true);
  });
});
