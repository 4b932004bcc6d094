/**
 * Times every HTTP request by route group (a fixed set: a2a-jsonrpc, a2a-rest, authority, inbound,
 * card, console, probe, other; never a raw path, so the label stays bounded) and status class, and
 * counts admission rejections: a 429, or a 503 that carries Retry-After, is the server turning work
 * away, whichever part of it decided so.
 */
import type { RequestHandler } from 'express';
import type { ServiceMetrics } from './metrics.ts';

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
