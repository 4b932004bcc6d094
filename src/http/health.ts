/**
 * GET /healthz: public liveness for load balancers and the Dockerfile's HEALTHCHECK. It answers
 * while the process serves HTTP; it reveals nothing about tenants or configuration.
 */
import express, { type Router } from 'express';

export const HEALTH_PATH = '/healthz';

export function healthRouter(): Router {
  const router = express.Router();
  router.get(HEALTH_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  return router;
}
