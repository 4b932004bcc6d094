/**
 * Times every HTTP request by route group (a fixed set: a2a-jsonrpc, a2a-rest, authority, inbound,
 * card, console, probe, other; never a raw path, so the label stays bounded) and status class, and
 * counts admission rejections: a 429, or a 503 that carries Retry-After, is the server turning work
 * away, whichever part of it decided so.
 */
import type { RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';
import type { ServiceMetrics } from './service-metrics.ts';
import { seriesOn } from './series.ts';

const GROUPS: readonly (readonly [string, string])[] = [
  ['/a2a/jsonrpc', 'a2a-jsonrpc'],
  ['/a2a/rest', 'a2a-rest'],
  ['/authority/v1', 'authority'],
  ['/inbound/v1', 'inbound'],
  ['/.well-known/', 'card'],
  ['/console', 'console'],
  ['/healthz', 'probe'],
  ['/readyz', 'probe'],
  ['/metrics', 'probe'],
];

export function routeGroup(path: string): string {
  for (const [prefix, group] of GROUPS) if (path.startsWith(prefix)) return group;
  return 'other';
}

export function httpMetrics(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeGroup(req.originalUrl);
      metrics.httpRequest(route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
      if (res.statusCode === 429 || (res.statusCode === 503 && res.getHeader('Retry-After') !== undefined))
        metrics.admissionRejected(route, res.statusCode);
    });
    next();
  };
}

/**
 * Request time by route group and status class, and admission rejections by route (the series the
 * middleware above records). Registered on the server's registry by createMetrics.
 */
export function httpRequestMetrics(
  registry: Registry,
): Pick<ServiceMetrics, 'admissionRejected' | 'httpRequest'> {
  const registers = [registry];
  const { counter } = seriesOn(registry);
  const admission = counter(
    'http_admission_rejections_total',
    'Requests turned away because the server is at capacity (429 or 503), by route.',
    ['route', 'status'] as const,
  );
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route group and status class.',
    labelNames: ['route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });
  return {
    admissionRejected(route, status) {
      admission.inc({ route, status: String(status) });
    },
    httpRequest(route, status, seconds) {
      http.observe({ route, status: `${Math.floor(status / 100)}xx` }, seconds);
    },
  };
}
