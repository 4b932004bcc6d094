/**
 * Who is calling (§13.2: activation is not authorization; the authority authorizes the writer).
 * A principal is a person or an application acting for one, bound to exactly one tenant.
 */
import type { TenantId } from '../tenant.ts';

export const ROLES = ['read', 'teach', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  /**
   * Stable id of the token holder: for a person, their handle ("dana@warehouse.example", compared
   * with `taughtBy` as people handles are, attribution.ts); for an application, e.g. "app:preshipment".
   */
  readonly id: string;
  /** `operator`: someone at the CLI on the server's own data directory (named by `--as`, no token). */
  readonly kind: 'person' | 'application' | 'service' | 'operator';
  readonly tenant: TenantId;
  readonly roles: readonly Role[];
  /** The public id of the bearer token that authenticated it ("tok_…"); absent without a token. */
  readonly tokenId?: string;
}

export function hasRole(p: Principal, role: Role): boolean {
  return p.roles.includes(role) || p.roles.includes('admin');
}

/** Verifies a bearer token; null when unknown or revoked. Tokens are stored hashed (§13.2). */
export interface TokenVerifier {
  verify(rawToken: string): Promise<Principal | null>;
}
