/**
 * The service's Prometheus metrics (prom-client), on a registry of their own (one per server, so two
 * servers in a test never share counters). Owns the triage metrics, the one bound on label
 * cardinality, and the port; each other area is a file of its own on the same registry
 * (matcher-metrics.ts, http-metrics.ts, imap-metrics.ts, delivery-metrics.ts,
 * tenant-memory-metrics.ts). Adapters record through the small `ServiceMetrics` port and never see
 * prom-client.
 *
 * Label cardinality: `tenant` takes at most `maxTenants` distinct values (default 50) per process; the
 * tenants after those are counted under `tenant="_other"`. `path` is `a2a`, `imap`, or `webhook:<provider>`;
 * `collection` is a registered learnable's collection; `mailbox` a configured mailbox name. No label
 * holds an address, an entry name or a lesson value.
 *
 * Does not own: when to record (observed.ts wraps the triage and authority ports; http-log.ts and
 * readiness.ts are the HTTP edges).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { httpRequestMetrics } from './http-metrics.ts';
import { imapMetrics } from './imap-metrics.ts';
import { matcherMetrics } from './matcher-metrics.ts';
import type { ServiceMetrics } from './service-metrics.ts';
import { seriesOn } from './series.ts';

export const OTHER_TENANTS = '_other';
/** The rolling window of `triage_questions_per_hundred_messages`, ms. */
export const QUESTION_RATE_WINDOW_MS = 60 * 60 * 1000;
const SLOT_MS = 60 * 1000;

export type {
  Activation,
  LessonOutcome,
  MatcherCacheGauges,
  ScrapeSetters,
  ServiceMetrics,
} from './service-metrics.ts';

export interface Metrics extends ServiceMetrics {
  readonly registry: Registry;
  /** The Prometheus text exposition. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export function createMetrics(options: { maxTenants?: number; now?: () => number } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'triage_process_' });
  const now = options.now ?? Date.now;
  const maxTenants = options.maxTenants ?? 50;
  const seen = new Set<string>();
  /** §13.2 tenants are data: bounded, never an unbounded label. */
  const tenantLabel = (tenant: string): string => {
    if (seen.has(tenant)) return tenant;
    if (seen.size >= maxTenants) return OTHER_TENANTS;
    seen.add(tenant);
    return tenant;
  };
  const registers = [registry];
  const { counter } = seriesOn(registry);
  const read = counter(
    'triage_messages_read_total',
    'Messages triaged, by tenant and by the path they arrived on (a2a, imap, webhook:<provider>).',
    ['tenant', 'path'] as const,
  );
  const questions = counter(
    'triage_questions_total',
    'Questions asked (one per collection a message could not be settled in).',
    ['tenant', 'collection'] as const,
  );
  const tasks = counter(
    'a2a_task_states_total',
    'Triage tasks by the state they reached (TASK_STATE_COMPLETED, TASK_STATE_INPUT_REQUIRED, …).',
    ['state'] as const,
  );
  const readSeconds = new Histogram({
    name: 'triage_read_duration_seconds',
    help: 'Time to triage one message: read, match, decide, record.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  // Questions per hundred messages per tenant over a rolling window, in one-minute slots.
  const slots = new Map<string, Map<number, { messages: number; asked: number }>>();
  new Gauge({
    name: 'triage_questions_per_hundred_messages',
    help: `Questions asked per hundred messages read (two questions about one message count as two), per tenant, over the last ${QUESTION_RATE_WINDOW_MS / 60000} minutes.`,
    labelNames: ['tenant'] as const,
    registers,
    collect() {
      this.reset();
      const from = Math.floor((now() - QUESTION_RATE_WINDOW_MS) / SLOT_MS);
      for (const [tenant, bySlot] of slots) {
        let messages = 0;
        let asked = 0;
        for (const [slot, c] of bySlot) {
          if (slot <= from) bySlot.delete(slot);
          else {
            messages += c.messages;
            asked += c.asked;
          }
        }
        if (messages > 0) this.set({ tenant }, (100 * asked) / messages);
      }
    },
  });
  const lessons = counter(
    'triage_lessons_total',
    'Lessons posted to the authority, by outcome: learned, unchanged (already known), refused (§10.4).',
    ['tenant', 'outcome'] as const,
  );
  const activations = counter(
    'triage_activations_total',
    'Definition versions activated, by what activated them (teach, rollback, revert, erase, import).',
    ['tenant', 'action'] as const,
  );
  const rollbacks = counter('triage_rollbacks_total', 'Rollbacks.', ['tenant'] as const);
  const reverts = counter('triage_reverts_total', 'Reverts.', ['tenant'] as const);
  const erasures = counter('triage_erasures_total', 'Erasures (§14).', ['tenant'] as const);
  let readTrips: (() => { readonly all: number; readonly transactionControl: number }) | null = null;
  new Counter({
    name: 'triage_database_round_trips_total',
    help: 'Queries sent to PostgreSQL by this process, one round trip each; kind="transaction" counts those that began or ended a transaction.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      if (readTrips === null) return;
      const t = readTrips();
      this.reset();
      this.inc({ kind: 'statement' }, t.all - t.transactionControl);
      this.inc({ kind: 'transaction' }, t.transactionControl);
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    messageRead(m) {
      const tenant = tenantLabel(m.tenant);
      read.inc({ tenant, path: m.path });
      for (const collection of m.questions) questions.inc({ tenant, collection });
      tasks.inc({ state: m.state });
      readSeconds.observe(m.seconds);
      let bySlot = slots.get(tenant);
      if (bySlot === undefined)
        slots.set(tenant, (bySlot = new Map<number, { messages: number; asked: number }>()));
      const slot = Math.floor(now() / SLOT_MS);
      const c = bySlot.get(slot) ?? { messages: 0, asked: 0 };
      c.messages++;
      c.asked += m.questions.length;
      bySlot.set(slot, c);
    },
    lesson(tenant, outcome) {
      lessons.inc({ tenant: tenantLabel(tenant), outcome });
    },
    activation(tenant, action) {
      const t = tenantLabel(tenant);
      activations.inc({ tenant: t, action });
      if (action === 'rollback') rollbacks.inc({ tenant: t });
      if (action === 'revert') reverts.inc({ tenant: t });
      if (action === 'erase') erasures.inc({ tenant: t });
    },
    databaseRoundTripsFrom(read) {
      readTrips = read;
    },
    ...matcherMetrics(registry),
    ...httpRequestMetrics(registry),
    ...imapMetrics(registry),
  };
}
