// Invariant: canonical JSON is key-order independent and refuses non-JSON, so equal content hashes alike (§10.3).
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.ts';

describe('canonicalJson', () => {
  it('encodes objects with sorted keys regardless of insertion order', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).toBe(canonicalJson({ a: [true, null, 'x'], b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
  it('refuses values that are not JSON', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/not a JSON number/);
    expect(() => canonicalJson(new Date())).toThrow(/plain objects/);
  });
});
