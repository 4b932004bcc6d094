/**
 * The authority's long-poll wake-up (split topology): `ring(tenant)` when a new
 * activation of the tenant is known in this process (its own commit, or a replica's NOTIFY on
 * PostgreSQL); `wait` resolves at the first ring for the tenant, after `ms`, or when `signal`
 * aborts, whichever comes first. GET /authority/v1/head?after= waits on it (authority-api.ts).
 *
 * Deliberately not: the truth. A waiter re-reads the head after every wake-up and at least every
 * second anyway, so an activation no bell rang (another process on the same SQLite file, the CLI)
 * still reaches it.
 */
import type { TenantId } from '../domain/tenant.ts';

export interface HeadBell {
  ring(tenant: TenantId): void;
  wait(tenant: TenantId, ms: number, signal: AbortSignal): Promise<void>;
}

export function createHeadBell(): HeadBell {
  const waiting = new Map<TenantId, Set<() => void>>();
  return {
    ring(tenant) {
      const set = waiting.get(tenant);
      if (set === undefined) return;
      waiting.delete(tenant);
      for (const wake of set) wake();
    },
    wait(tenant, ms, signal) {
      return new Promise<void>((resolve) => {
        let set = waiting.get(tenant);
        if (set === undefined) waiting.set(tenant, (set = new Set()));
        const wake = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', wake);
          const s = waiting.get(tenant);
          s?.delete(wake);
          if (s?.size === 0) waiting.delete(tenant);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        signal.addEventListener('abort', wake, { once: true });
        set.add(wake);
      });
    },
  };
}
