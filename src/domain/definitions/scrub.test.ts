// Invariant: erase (§14) finds and removes an identifier as typed and as escaped inside a taught value, whatever characters it holds, and finds it inside raw mail in base64 (any alignment, wrapped) and quoted-printable.
import { describe, expect, it } from 'vitest';
import { ERASED, mentionsEncoded, scrubText, textMentions } from './scrub.ts';

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
  it('finds the identifier base64-encoded at each alignment, across line breaks, and quoted-printable', () => {
    const id = 'Dana=Ops@origin.example';
    for (const before of ['', 'x', 'xy', 'note: ']) {
      const b64 = Buffer.from(`${before}${id} wrote`).toString('base64');
      const wrapped = b64.replace(/(.{7})/g, '$1\r\n');
      expect(mentionsEncoded(`Content-Transfer-Encoding: base64\r\n\r\n${wrapped}`, id), before).toBe(true);
      expect(mentionsEncoded(Buffer.from(`${before}${id.toLowerCase()}`).toString('base64'), id)).toBe(true);
    }
    expect(mentionsEncoded('from Dana=3DOps@orig=\r\nin.example', id)).toBe(true);
    expect(mentionsEncoded(Buffer.from('dana.ops@origin.example').toString('base64'), id)).toBe(false);
  });
});
