/**
 * The matching engine's metrics: compile time and size, the matcher cache's bytes, budget
 * and evictions (read at scrape time from where `matcherCacheFrom` points), and match time. Registered
 * on the server's registry by createMetrics; no tenant is a label.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { MatcherCacheGauges, ServiceMetrics } from './service-metrics.ts';

export function matcherMetrics(
  registry: Registry,
): Pick<ServiceMetrics, 'matcherCompiled' | 'matcherCacheFrom' | 'matched'> {
  const registers = [registry];
  const compileSeconds = new Histogram({
    name: 'triage_matcher_compile_seconds',
    help: 'Time to compile a definition version into its matcher.',
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const marks = new Gauge({
    name: 'triage_matcher_marks',
    help: 'Marks in the matcher compiled last.',
    registers,
  });
  let readCache: (() => MatcherCacheGauges) | null = null;
  const cacheGauge = (name: string, help: string, value: (g: MatcherCacheGauges) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const v = readCache === null ? null : value(readCache());
        if (v !== null) this.set(v);
      },
    });
  cacheGauge(
    'triage_matcher_cache_bytes',
    'Estimated bytes of the compiled matchers kept, all tenants.',
    (g) => g.bytes,
  );
  cacheGauge(
    'triage_matcher_cache_budget_bytes',
    'MATCHER_MEMORY_BUDGET_MB, in bytes.',
    (g) => g.budgetBytes,
  );
  cacheGauge(
    'triage_matcher_cache_versions',
    'Definition versions kept compiled, all tenants.',
    (g) => g.versions,
  );
  new Counter({
    name: 'triage_matcher_evictions_total',
    help: 'Compiled versions dropped to stay within the matcher memory budget (compiled again on their next task).',
    registers,
    collect() {
      if (readCache === null) return;
      this.reset();
      this.inc(readCache().evictions);
    },
  });
  const matchSeconds = new Histogram({
    name: 'triage_match_duration_seconds',
    help: 'Time to match one message against the compiled marks.',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    registers,
  });
  return {
    matcherCompiled(seconds, n) {
      compileSeconds.observe(seconds);
      marks.set(n);
    },
    matcherCacheFrom(read) {
      readCache = read;
    },
    matched(seconds) {
      matchSeconds.observe(seconds);
    },
  };
}
