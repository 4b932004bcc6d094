/**
 * §14: the port through which an erase reaches every store and cache outside the definitions that
 * can hold a personal identifier (the corpus, task history, ingest records, the analysis memo, the
 * matcher cache). The composition root registers one per store; the authority calls each, in
 * order, after it has tombstoned the versions, and reports what each changed.
 *
 * Does not own: how a store finds or rewrites the identifier (each implementation does).
 */
import type { TenantId } from '../tenant.ts';

/** How many records one store changed in an erase. */
export interface ErasedFrom {
  /** What was changed, in words ("corpus messages"). */
  readonly store: string;
  readonly changed: number;
}

export interface Eraser {
  /** Takes `identifier` out of what it keeps for `tenant`; one count per kind of record it changed. */
  erase(tenant: TenantId, identifier: string): Promise<readonly ErasedFrom[]>;
}

/** Every eraser, in order, for one identifier: their counts, in the order they ran (§14). */
export async function runErasers(
  erasers: readonly Eraser[],
  tenant: TenantId,
  identifier: string,
): Promise<ErasedFrom[]> {
  const out: ErasedFrom[] = [];
  for (const e of erasers) out.push(...(await e.erase(tenant, identifier)));
  return out;
}
