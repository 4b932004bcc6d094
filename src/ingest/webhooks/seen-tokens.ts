/**
 * The Mailgun tokens this process has accepted, per tenant, for as long as their signature would
 * still be accepted: Mailgun signs only `timestamp` + `token`, not the body, so a signature seen once
 * could carry any other message until its timestamp leaves the window. A token is spent when a post
 * carrying it is verified; it is given back only when that post is answered "retry" (503), so
 * Mailgun's own retry of a post we could not take is read.
 *
 * Memory is bounded: at most `maxTokensPerTenant` unexpired tokens per tenant. When a tenant's are
 * all unexpired and it is full, a new token is not taken ("full", the caller answers 503 so Mailgun
 * retries later) rather than forgetting one that could then be replayed.
 *
 * Surviving a restart is the `SpentTokenStore`'s (the ingest store, issue 12.5): when the router
 * has one, a token this memory takes is spent there too, so a replay inside the window after a
 * restart is refused as well.
 *
 * Deliberately does not: verify signatures (mailgun.ts), or share tokens between tenants (one
 * tenant's traffic cannot fill another's memory).
 */
import type { TenantId } from '../../domain/tenant.ts';
export type { SpentTokenStore, TokenSpend } from '../../domain/mail/index.ts';

export type Claim =
  | { readonly kind: 'claimed'; readonly release: () => void }
  | { readonly kind: 'replayed'; readonly firstSeenMs: number }
  | { readonly kind: 'full' };

export interface SeenTokens {
  /** Spend `token` for `tenant` until `expiresAtMs` (when its timestamp leaves the window). */
  claim(tenant: TenantId, token: string, expiresAtMs: number, nowMs: number): Claim;
}

interface Seen {
  readonly expiresAtMs: number;
  readonly firstSeenMs: number;
}

/** Default most unexpired tokens kept per tenant: 100,000 (some 10 MB; Mailgun's peak inside 15 min is far below). */
export const DEFAULT_MAX_TOKENS_PER_TENANT = 100_000;

export function createSeenTokens(maxTokensPerTenant = DEFAULT_MAX_TOKENS_PER_TENANT): SeenTokens {
  const byTenant = new Map<TenantId, Map<string, Seen>>();

  const prune = (tokens: Map<string, Seen>, nowMs: number): void => {
    for (const [token, seen] of tokens) if (seen.expiresAtMs <= nowMs) tokens.delete(token);
  };

  return {
    claim(tenant, token, expiresAtMs, nowMs) {
      let tokens = byTenant.get(tenant);
      if (tokens === undefined) {
        tokens = new Map();
        byTenant.set(tenant, tokens);
      }
      const held = tokens.get(token);
      if (held !== undefined && held.expiresAtMs > nowMs)
        return { kind: 'replayed', firstSeenMs: held.firstSeenMs };
      if (tokens.size >= maxTokensPerTenant) prune(tokens, nowMs);
      if (tokens.size >= maxTokensPerTenant) return { kind: 'full' };
      const seen: Seen = { expiresAtMs, firstSeenMs: nowMs };
      tokens.set(token, seen);
      const own = tokens;
      return {
        kind: 'claimed',
        release: () => {
          if (own.get(token) === seen) own.delete(token);
        },
      };
    },
  };
}
