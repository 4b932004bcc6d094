/**
 * Tenant scope. Every store call takes a TenantId as an explicit argument (§13.2: a lesson is
 * scoped to exactly one tenant); nothing reads the tenant from ambient state.
 */
export type TenantId = string & { readonly __brand: 'TenantId' };

const TENANT_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function tenantId(raw: string): TenantId {
  if (!TENANT_RE.test(raw)) {
    throw new Error(
      `"${raw}" is not a usable tenant name: use 1-63 lower-case letters, digits, "-" or "_", starting with a letter or digit (e.g. "demo").`,
    );
  }
  return raw as TenantId;
}

/** The tenant created on first start, holding the spec's demo directory. */
export const DEMO_TENANT = 'demo' as TenantId;
