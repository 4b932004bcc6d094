/**
 * One memory budget for everything a process keeps to read its tenants' mail: each part
 * that holds memory per tenant (the definitions and their objects, the compiled matchers) says how
 * many bytes it holds for a tenant, estimated, and how to forget them. A tenant used is the most
 * recent; while the parts together hold more than the budget, the least recently used tenant is
 * forgotten whole, by every part at once, and reads again from the store on its next message. The
 * tenant just used always stays, even alone over the budget (a tenant larger than the budget is
 * still served).
 *
 * What a tenant holds is read again from its parts each time it is used, with the few tenants used
 * just before it (a tenant's matcher is compiled after its definition is read, so it is counted at
 * the next use of any tenant), and every tenant's when the sum passes the budget (a part may have
 * shrunk meanwhile: an erase, another bound).
 *
 * Owns: the order of use and the eviction. Does not own: what any part holds or how it estimates.
 */
import type { TenantId } from './tenant.ts';

/**
 * Resident bytes per byte the parts hold: what a process's RSS grows by for a byte of live data
 * (the collector's free room in its pages, the allocator's, native memory V8 does not count).
 * Measured with the tenants bench (one server, a round robin over 100 and 200 tenants of 1,000
 * customers, nothing forgotten): RSS grew 1.35–1.45 × the parts' estimate of what they held.
 */
export const RESIDENT_PER_HELD = 1.4;

/** Tenants used last whose holdings are read again at each use (their tasks' compiles done since). */
const READ_AGAIN_RECENT = 8;

export interface TenantMemoryPart {
  /** A name for metrics and logs ("definitions", "matchers"). */
  readonly name: string;
  /** Estimated bytes this part holds for `tenant` now. */
  bytesOf(tenant: TenantId): number;
  /** Drops everything this part holds for `tenant` (it is read again on its next use). */
  forget(tenant: TenantId): void;
}

export interface TenantMemoryStats {
  readonly tenants: number;
  /** Estimated resident bytes held (the parts' estimates × RESIDENT_PER_HELD), as last read. */
  readonly bytes: number;
  readonly budgetBytes: number;
  /** Tenants forgotten whole to keep within the budget, since the ledger was made. */
  readonly evictions: number;
}

export interface TenantMemory {
  /** `tenant` was just used: it becomes the most recent, then others leave until within the budget. */
  used(tenant: TenantId): void;
  /** Forgets `tenant` in every part (§14 reaches the parts itself; this is for callers that want all). */
  forget(tenant: TenantId): void;
  stats(): TenantMemoryStats;
}

export function createTenantMemory(options: {
  readonly budgetBytes: number;
  readonly parts: readonly TenantMemoryPart[];
}): TenantMemory {
  const { budgetBytes, parts } = options;
  if (!(budgetBytes > 0 && Number.isFinite(budgetBytes)))
    throw new RangeError(`budgetBytes must be a number of bytes above 0, got ${String(budgetBytes)}.`);
  /** Bytes each tenant held when last read, least recently used first. */
  const held = new Map<TenantId, number>();
  /** The tenants used last, most recent last (at most READ_AGAIN_RECENT). */
  const recent: TenantId[] = [];
  let total = 0;
  let evictions = 0;
  const read = (tenant: TenantId): number =>
    Math.round(RESIDENT_PER_HELD * parts.reduce((sum, part) => sum + part.bytesOf(tenant), 0));
  const set = (tenant: TenantId, bytes: number): void => {
    total += bytes - (held.get(tenant) ?? 0);
    held.delete(tenant);
    held.set(tenant, bytes);
  };
  /** Reads `tenant` again, leaving its place in the order. */
  const refresh = (tenant: TenantId): void => {
    const bytes = read(tenant);
    total += bytes - held.get(tenant)!;
    held.set(tenant, bytes);
  };
  const forget = (tenant: TenantId): void => {
    for (const part of parts) part.forget(tenant);
    total -= held.get(tenant) ?? 0;
    held.delete(tenant);
  };
  return {
    used(tenant) {
      for (const t of recent) if (held.has(t)) refresh(t);
      const at = recent.indexOf(tenant);
      if (at >= 0) recent.splice(at, 1);
      recent.push(tenant);
      if (recent.length > READ_AGAIN_RECENT) recent.shift();
      set(tenant, read(tenant));
      if (total <= budgetBytes) return;
      // Over by the last figures: read every tenant again before forgetting any.
      for (const t of held.keys()) refresh(t);
      for (const t of [...held.keys()]) {
        if (total <= budgetBytes) break;
        if (t === tenant) continue;
        forget(t);
        evictions++;
      }
    },
    forget,
    stats: () => ({ tenants: held.size, bytes: total, budgetBytes, evictions }),
  };
}
