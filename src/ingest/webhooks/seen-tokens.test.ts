// Invariant: a Mailgun token is accepted once per tenant while its signature is in the window; the
// memory is bounded per tenant and, when full of live tokens, refuses a new one ("full", a 503 for
// the caller) rather than forget one that could then be replayed; a released token can be used again.
import { describe, expect, it } from 'vitest';
import { tenantId, type TenantId } from '../../domain/tenant.ts';
import { createSeenTokens } from './seen-tokens.ts';

const ACME = tenantId('acme');
const OTHER = tenantId('other');

describe('createSeenTokens', () => {
  it('refuses a token seen before in the window, per tenant, and forgets it once expired', () => {
    const seen = createSeenTokens();
    const claim = (tenant: TenantId, token: string, nowMs: number): string =>
      seen.claim(tenant, token, 10_000, nowMs).kind;
    expect(claim(ACME, 't1', 1_000)).toBe('claimed');
    const again = seen.claim(ACME, 't1', 10_000, 2_000);
    expect(again).toEqual({ kind: 'replayed', firstSeenMs: 1_000 });
    expect(claim(OTHER, 't1', 2_000)).toBe('claimed'); // another tenant's memory
    expect(claim(ACME, 't1', 10_000)).toBe('claimed'); // expired: the stale check refuses it anyway
  });

  it('is bounded per tenant: full of live tokens it refuses a new one, and prunes expired ones first', () => {
    const seen = createSeenTokens(2);
    const claim = (tenant: TenantId, token: string, nowMs: number): string =>
      seen.claim(tenant, token, 10_000, nowMs).kind;
    expect(claim(ACME, 't1', 1_000)).toBe('claimed');
    expect(claim(ACME, 't2', 1_000)).toBe('claimed');
    expect(claim(ACME, 't3', 1_000)).toBe('full'); // t1, t2 still live: never forgotten early
    expect(claim(OTHER, 't3', 1_000)).toBe('claimed'); // one tenant cannot fill another's
    expect(claim(ACME, 't3', 10_000)).toBe('claimed'); // t1, t2 expired and pruned
  });

  it('takes a released token again (a post answered 503, which Mailgun retries with the same signature)', () => {
    const seen = createSeenTokens();
    const first = seen.claim(ACME, 't1', 10_000, 1_000);
    if (first.kind !== 'claimed') throw new Error('expected a claim');
    first.release();
    expect(seen.claim(ACME, 't1', 10_000, 2_000).kind).toBe('claimed');
    first.release(); // a stale release never frees the newer claim
    expect(seen.claim(ACME, 't1', 10_000, 3_000).kind).toBe('replayed');
  });
});
