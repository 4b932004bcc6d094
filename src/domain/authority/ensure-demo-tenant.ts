/**
 * First start: the demo tenant of the spec (Northgate Motors Ltd, Al Hamra Trading, Gulftrade, with
 * their marks, kinds and mappings) is imported when it has no history yet. Reading the directory
 * file is the caller's job; this only decides whether to import and does it through the authority.
 */
import { DEMO_TENANT, type TenantId } from '../tenant.ts';
import type { ActivationResult, Authority, DirectoryImport } from './authority.ts';
import type { Principal } from './principal.ts';

/** Who the demo import is recorded as (a fixture, not a real person's address). */
export const DEMO_TAUGHT_BY = 'demo-directory';

export async function ensureDemoTenant(
  authority: Authority,
  directory: DirectoryImport,
  options: { tenant?: TenantId; taughtBy?: string } = {},
): Promise<ActivationResult | null> {
  const tenant = options.tenant ?? DEMO_TENANT;
  const history = await authority.history(tenant, { limit: 1 });
  if (history.length > 0) return null;
  const bootstrap: Principal = { id: 'system:first-start', kind: 'service', tenant, roles: ['admin'] };
  // Import is idempotent: a second process starting at the same moment learns nothing and gets null.
  return authority.import(tenant, bootstrap, {
    directory,
    taughtBy: options.taughtBy ?? DEMO_TAUGHT_BY,
    reason: 'the demo directory, loaded on first start',
  });
}
