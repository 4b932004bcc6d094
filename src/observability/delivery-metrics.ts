/**
 * The delivery outbox's metrics: what is still owed, and how each try ended. Registered on
 * the server's registry beside createMetrics' own; no tenant or URL is a label.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface DeliveryMetrics {
  backlog(pending: number): void;
  outcome(target: 'push' | 'webhook', outcome: 'delivered' | 'retry' | 'failed'): void;
}

export function deliveryMetrics(registry: Registry): DeliveryMetrics {
  const registers = [registry];
  const pending = new Gauge({
    name: 'delivery_outbox_backlog',
    help: 'Push notifications and delivery webhooks owed and not yet delivered or given up (all tenants).',
    registers,
  });
  const tries = new Counter({
    name: 'delivery_attempts_total',
    help: 'Tries of push notifications (push) and delivery webhooks (webhook), by how they ended: delivered, retry (will be tried again) or failed (given up).',
    labelNames: ['target', 'outcome'] as const,
    registers,
  });
  return {
    backlog: (n) => pending.set(n),
    outcome: (target, outcome) => tries.inc({ target, outcome }),
  };
}
