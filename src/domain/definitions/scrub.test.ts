// Invariant: erase (§14) finds and removes an identifier as typed and as escaped inside a taught value, whatever characters it holds.
import { describe, expect, it } from 'vitest';
import { ERASED, scrubText, textMentions } from './scrub.ts';

describe('scrub (§14)', () => {
  it('handles identifiers with hyphens, dots and slashes, raw and regex-escaped', () => {
    const id = 'ops-desk@north-gate.example';
    const text = "matches 'ops-desk@north-gate\\.example' in the from; taught by OPS-DESK@north-gate.example";
    expect(textMentions(text, id)).toBe(true);
    expect(scrubText(text, id)).toBe(`matches '${ERASED}' in the from; taught by ${ERASED}`);
    expect(scrubText('HBL/2026/00412/A and HBL\\/2026\\/00412\\/A', 'HBL/2026/00412/A')).toBe(
      `${ERASED} and ${ERASED}`,
    );
  });
  it('leaves text without the identifier untouched', () => {
    expect(textMentions('nothing here', 'a-b@c.example')).toBe(false);
    expect(scrubText('nothing here', 'a-b@c.example')).toBe('nothing here');
  });
});
