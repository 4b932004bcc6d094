// Invariant (§7): one test of whether a call activated the extension, for lists and header values.
import { describe, expect, it } from 'vitest';
import { EXTENSION_URI, namesLearnables } from './extension.ts';

describe('namesLearnables (§7)', () => {
  it('reads a call context list and an A2A-Extensions header alike', () => {
    expect(namesLearnables([EXTENSION_URI])).toBe(true);
    expect(namesLearnables(['https://other.example/ext'])).toBe(false);
    expect(namesLearnables(`https://other.example/ext, ${EXTENSION_URI}`)).toBe(true);
    expect(namesLearnables(`${EXTENSION_URI}x`)).toBe(false);
    expect(namesLearnables('')).toBe(false);
    expect(namesLearnables(undefined)).toBe(false);
  });
});
