/**
 * What our own layers cost per settled triage (issue 41: metrics and logging each ≤ 0.05 ms), in
 * one process, through the real code: the request log and HTTP metrics middlewares
 * (observability/http-log.ts, http-metrics.ts) and the triage boundary (observed.ts), around a
 * triage port that answers at once. Each message is one request: the middlewares run, the observed
 * triage runs inside the request's call context, the response finishes.
 *
 * Four arrangements, each `--layers-messages=N` messages (default 100,000) after a warm-up, in
 * alternating rounds (`--layers-rounds=R`, default 5): neither layer (the harness alone), metrics
 * only, the log only (LOG_LEVEL=info, lines written synchronously to /dev/null, as to a file), both.
 * A layer's cost is its arrangement's median time per message minus the harness's. Writes
 * `layers.json`.
 */
import { EventEmitter } from 'node:events';
import { openSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { pino } from 'pino';
import { tenantId } from '../src/domain/tenant.ts';
import { requestLog } from '../src/observability/http-log.ts';
import { httpMetrics } from '../src/observability/http-metrics.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createMetrics, type ServiceMetrics } from '../src/observability/metrics.ts';
import { observeTriage } from '../src/observability/observed.ts';
import { median } from './learning/harness.ts';
import { numberOption, round } from './options.ts';
import type { BenchContext } from './run.ts';
import { ISSUE_29_TARGETS } from './summary.ts';

const NO_METRICS: ServiceMetrics = {
  messageRead() {},
  lesson() {},
  activation() {},
  matcherCompiled() {},
  matcherCacheFrom() {},
  matched() {},
  databaseRoundTripsFrom() {},
  admissionRejected() {},
  httpRequest() {},
  onScrape() {},
};

const OUTCOME = { questions: [], pin: { definitionVersion: 7, versionId: 'v7' } };
/** A triage port that answers at once, timing its one match as observeMatcherCache does. */
const portFor = (metrics: ServiceMetrics) => ({
  triage: (_tenant: unknown, _message: never, _pin?: never, _options?: object) => {
    const start = process.hrtime.bigint();
    metrics.matched(Number(process.hrtime.bigint() - start) / 1e9);
    return Promise.resolve(OUTCOME);
  },
});
const TENANT = tenantId('demo');

/** A request and response just real enough for the middlewares (headers, events, status). */
function exchange(i: number): { req: Request; res: Response } {
  const headers = new Map<string, string>();
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: true,
    locals: { principal: { tenant: 'demo' } },
    setHeader: (name: string, value: string) => void headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  });
  const req = {
    method: 'POST',
    url: '/a2a/jsonrpc',
    originalUrl: '/a2a/jsonrpc',
    headers: { 'x-request-id': `r${i}` },
  };
  return { req: req as unknown as Request, res: res as unknown as Response };
}

async function perMessageMs(
  metrics: ServiceMetrics,
  logLevel: 'info' | 'silent',
  n: number,
): Promise<number> {
  const logger = createLogger({
    level: logLevel,
    destination: pino.destination({ fd: openSync('/dev/null', 'w'), sync: true }),
  });
  const layers: RequestHandler[] = [requestLog(logger), httpMetrics(metrics)];
  const observed = observeTriage(portFor(metrics), logger, metrics);
  const one = async (i: number): Promise<void> => {
    const { req, res } = exchange(i);
    let done!: Promise<void>;
    const chain = (k: number): void => {
      if (k === layers.length) {
        done = observed
          .triage(TENANT, {} as never, undefined as never, { taskId: `t${i}`, contextId: `c${i}` })
          .then(() => void res.emit('finish'));
        return;
      }
      void layers[k]!(req, res, () => chain(k + 1));
    };
    chain(0);
    await done;
  };
  for (let i = 0; i < 2_000; i++) await one(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await one(i);
  return Number(process.hrtime.bigint() - started) / 1e6 / n;
}

export async function run(context: BenchContext): Promise<void> {
  const n = numberOption(context.args, 'layers-messages', 100_000, { least: 'positive', whole: true });
  const rounds = numberOption(context.args, 'layers-rounds', 5, { least: 'positive', whole: true });
  const loadBefore = loadavg().map((x) => round(x, 2));
  const samples = {
    none: [] as number[],
    metrics: [] as number[],
    log: [] as number[],
    both: [] as number[],
  };
  for (let r = 0; r < rounds; r++) {
    samples.none.push(await perMessageMs(NO_METRICS, 'silent', n));
    samples.metrics.push(await perMessageMs(createMetrics(), 'silent', n));
    samples.log.push(await perMessageMs(NO_METRICS, 'info', n));
    samples.both.push(await perMessageMs(createMetrics(), 'info', n));
  }
  const harness = median(samples.none);
  const cost = (xs: number[]): number => round(Math.max(0, median(xs) - harness), 4);
  const target = ISSUE_29_TARGETS.layerMs;
  const result = {
    messages: n,
    rounds,
    harnessMs: round(harness, 4),
    metricsMs: cost(samples.metrics),
    logMs: cost(samples.log),
    bothMs: cost(samples.both),
    samplesMs: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x, 4))])),
    targetMs: target,
    loadBefore,
    loadAfter: loadavg().map((x) => round(x, 2)),
  };
  console.log(
    `  per settled triage: metrics ${result.metricsMs} ms, log ${result.logMs} ms (both ${result.bothMs} ms; ` +
      `harness ${result.harnessMs} ms; median of ${rounds} rounds of ${n}); target each <= ${target} ms`,
  );
  writeFileSync(join(context.outDir, 'layers.json'), `${JSON.stringify(result, null, 2)}\n`);
}
