/**
 * GET /metrics: the Prometheus exposition. On the main port it needs `Authorization: Bearer
 * <METRICS_TOKEN>` (compared in constant time; a tenant's token never opens it, since the metrics
 * span tenants); on METRICS_PORT (a listener of its own, for a network only the scraper reaches) it
 * needs none. With neither configured the main port answers 404 saying how to turn metrics on.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import express, { type Router } from 'express';
import type { Metrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

export function metricsRouter(metrics: Metrics, access: { readonly token: string | null }): Router {
  const router = express.Router();
  router.get(METRICS_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (access.token !== null) {
      const header = req.headers.authorization ?? '';
      const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
      if (!timingSafeEqual(digest(given), digest(access.token))) {
        res.status(401).json({
          error: {
            code: 'UNAUTHENTICATED',
            message:
              'GET /metrics needs Authorization: Bearer <METRICS_TOKEN> (the value configured for this server), or scrape METRICS_PORT.',
          },
        });
        return;
      }
    }
    res.setHeader('Content-Type', metrics.contentType);
    res.send(await metrics.scrape());
  });
  return router;
}

/** The main port's /metrics when neither METRICS_TOKEN nor METRICS_PORT is set. */
export function metricsOffRouter(): Router {
  const router = express.Router();
  router.get(METRICS_PATH, (_req, res) => {
    res.status(404).json({
      error: {
        code: 'NOT_FOUND',
        message:
          'Metrics are off on this port. Set METRICS_TOKEN (then scrape with Authorization: Bearer <it>) or METRICS_PORT (a port of their own).',
      },
    });
  });
  return router;
}
