// Invariant: free-mail and shared platform domains are recognised, so a sender's domain there is never suggested (§8, §13.1).
import { describe, expect, it } from 'vitest';
import { isSharedDomain } from './shared-domains.ts';
import { domainNamedLike } from './evidence.ts';

describe('isSharedDomain', () => {
  it('knows free-mail and platform domains, their subdomains, and test domains named for them', () => {
    for (const d of [
      'gmail.com',
      'GMX.de',
      'web.de',
      'qq.com',
      '163.com',
      'proton.me',
      'outlook.com',
      'yahoo.co.uk',
      'eu.amazonses.com',
      'freemail.example',
      'webmail.example',
      // Issue 49: a free-mail brand under any top-level domain.
      'gmail.example',
      'hotmail.co.uk',
      'icloud.example',
    ])
      expect(isSharedDomain(d), d).toBe(true);
  });

  it('leaves a company’s own domain alone', () => {
    for (const d of [
      'northgatemotors.example',
      'alhamra-trading.example',
      'gmail-logistics.example',
      'origin.example',
    ])
      expect(isSharedDomain(d), d).toBe(false);
  });
});

describe('domainNamedLike', () => {
  it('recognises a customer’s own domain by its name, and not a broker’s', () => {
    expect(domainNamedLike('northgatemotors.example', 'Northgate Motors Ltd')).toBe(true);
    expect(domainNamedLike('alhamra-trading.example', 'Al Hamra Trading')).toBe(true);
    expect(domainNamedLike('mail.gulftrade.example', 'Gulftrade')).toBe(true);
    expect(domainNamedLike('sharedbroker.example', 'Gulftrade')).toBe(false);
    expect(domainNamedLike('meridianfreight.example', 'Al Hamra Trading')).toBe(false);
  });

  it("takes a customer's initials with a word of its name as its own domain (issue 38)", () => {
    expect(domainNamedLike('ki-imports.example', 'Kowloon Imports Co Ltd')).toBe(true);
    expect(domainNamedLike('bh-hardware.example', 'Bayou Hardware LLC')).toBe(true);
    expect(domainNamedLike('ki-exports.example', 'Kowloon Imports Co Ltd')).toBe(false);
    expect(domainNamedLike('swiftfwd-logistics.example', 'Brightway Furniture LLC')).toBe(false);
    expect(domainNamedLike('dll-imports.example', 'Kowloon Imports Co Ltd')).toBe(false);
  });
});
