// Invariant: an address's domain and local part follow one rule everywhere (the last `@`).
import { describe, expect, it } from 'vitest';
import { domainOf, localPartOf } from './address.ts';

describe('the parts of an address', () => {
  it('splits at the last @ (a quoted local part may hold one)', () => {
    expect(domainOf('dana@northvale.example')).toBe('northvale.example');
    expect(localPartOf('dana@northvale.example')).toBe('dana');
    expect(domainOf('"ops@desk"@northvale.example')).toBe('northvale.example');
    expect(localPartOf('"ops@desk"@northvale.example')).toBe('"ops@desk"');
  });

  it('reads an address without @ as a local part with no domain', () => {
    expect(domainOf('postmaster')).toBe('');
    expect(localPartOf('postmaster')).toBe('postmaster');
  });
});
