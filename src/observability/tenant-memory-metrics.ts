/**
 * The memory budget's metrics: what every tenant's reading holds together, estimated,
 * against the budget, and how many tenants were forgotten whole to keep within it. Registered on
 * the server's registry beside createMetrics' own; no tenant is a label.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { TenantMemoryStats } from '../domain/tenant-memory.ts';

export function tenantMemoryMetrics(registry: Registry, read: () => TenantMemoryStats): void {
  const registers = [registry];
  const gauge = (name: string, help: string, value: (s: TenantMemoryStats) => number): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(value(read()));
      },
    });
  };
  gauge(
    'triage_tenant_memory_bytes',
    "Estimated bytes every tenant's definitions, objects and compiled matchers hold together.",
    (s) => s.bytes,
  );
  gauge('triage_tenant_memory_budget_bytes', 'MATCHER_MEMORY_BUDGET_MB, in bytes.', (s) => s.budgetBytes);
  gauge('triage_tenant_memory_tenants', 'Tenants holding memory in this process.', (s) => s.tenants);
  new Counter({
    name: 'triage_tenant_memory_evictions_total',
    help: 'Tenants forgotten whole (definitions, objects, matchers) to stay within the memory budget.',
    registers,
    collect() {
      this.reset();
      this.inc(read().evictions);
    },
  });
}
