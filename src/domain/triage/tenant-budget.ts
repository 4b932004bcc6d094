/**
 * Triage under one memory budget (domain/tenant-memory.ts): every definition triage reads
 * is a use of its tenant, and the compiled matchers are one part of the budget. The matcher cache is
 * keyed by version, so that part remembers which versions each tenant read to say what the tenant's
 * matchers hold and to drop them when the tenant is forgotten.
 *
 * Owns: the versions each tenant read lately. Does not own: the matchers (matcher-cache.ts), the
 * order of use or the eviction (tenant-memory.ts).
 */
import type { TenantId } from '../tenant.ts';
import type { TenantMemory, TenantMemoryPart } from '../tenant-memory.ts';
import type { MatcherCache } from './definition-marks.ts';
import type { DefinitionSource } from './triage-service.ts';

/** Versions remembered per tenant, most recent last (an older one's matcher is left to the cache's own bound). */
const VERSIONS_PER_TENANT = 16;

export interface MatchersByTenant extends TenantMemoryPart {
  /** `tenant` read `versionId` for a task. */
  read(tenant: TenantId, versionId: string): void;
}

export function matchersByTenant(cache: Pick<MatcherCache, 'bytesOf' | 'forget'>): MatchersByTenant {
  const versions = new Map<TenantId, Set<string>>();
  return {
    name: 'matchers',
    read(tenant, versionId) {
      const ids = versions.get(tenant) ?? new Set<string>();
      versions.set(tenant, ids);
      ids.delete(versionId);
      ids.add(versionId);
      if (ids.size > VERSIONS_PER_TENANT) ids.delete(ids.values().next().value!);
    },
    bytesOf: (tenant) => cache.bytesOf(versions.get(tenant) ?? []),
    forget(tenant) {
      cache.forget(versions.get(tenant) ?? []);
      versions.delete(tenant);
    },
  };
}

/** `source` with each definition read counted as a use of its tenant, and its version as one its matchers hold. */
export function withinBudget(
  source: DefinitionSource,
  memory: TenantMemory,
  matchers: Pick<MatchersByTenant, 'read'>,
): DefinitionSource {
  const used = <D extends { readonly versionId: string }>(tenant: TenantId, definition: D): D => {
    matchers.read(tenant, definition.versionId);
    memory.used(tenant);
    return definition;
  };
  return {
    descriptors: () => source.descriptors(),
    async active(tenant, options) {
      const pinned = await source.active(tenant, options);
      used(tenant, pinned.definition);
      return pinned;
    },
    load: async (tenant, versionId) => used(tenant, await source.load(tenant, versionId)),
  };
}
