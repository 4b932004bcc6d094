/**
 * Counters and gauges registered on one registry, each with its labels typed: the one way the
 * metric files (metrics.ts, http-metrics.ts, imap-metrics.ts) declare a labelled series.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface Series {
  readonly counter: <L extends string>(name: string, help: string, labelNames: readonly L[]) => Counter<L>;
  readonly gauge: <L extends string>(name: string, help: string, labelNames: readonly L[]) => Gauge<L>;
}

export function seriesOn(registry: Registry): Series {
  const registers = [registry];
  return {
    counter: (name, help, labelNames) => new Counter({ name, help, labelNames, registers }),
    gauge: (name, help, labelNames) => new Gauge({ name, help, labelNames, registers }),
  };
}
