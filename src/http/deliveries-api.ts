/**
 * /authority/v1/deliveries: a tenant's delivery webhooks for mail pipelines, which hear
 * "question waiting" (`input-required`) and "decided" for every task of the tenant, however its mail
 * arrived. Served by the agent (the outbox lives with its tasks), tenant from the token (§13.2).
 *
 * - `POST` (admin) `{ "url", "events": ["input-required", "decided"] }` → 201 with the endpoint and
 *   its Standard Webhooks `secret`, shown this once. The URL rule is the push notifications'
 *   (delivery/url-guard.ts). §7: sent with `A2A-Extensions: <the extension>`, its bodies carry the
 *   teach block; otherwise they never do.
 * - `GET` (read) → every endpoint with how its deliveries went (delivered, pending, failed, the
 *   last error), and the same summed over the tenant's A2A push notifications: the console shows it.
 * - `DELETE /:id` (admin) → 204; what it was still owed is given up.
 */
import express, { type Router } from 'express';
import { z } from 'zod';
import { DELIVERY_EVENTS, type DeliveryEndpoints } from '../domain/delivery.ts';
import { DomainError } from '../domain/errors.ts';
import { EXTENSION_URI, namesLearnables } from '../domain/extension.ts';
import type { TokenVerifier } from '../domain/authority/index.ts';
import { bearerAuth, principalOf, requireRole } from './auth.ts';

export const DELIVERIES_PATH = '/authority/v1/deliveries';

export interface DeliveriesApiDeps {
  readonly verifier: TokenVerifier;
  readonly endpoints: DeliveryEndpoints;
  /** Throws, in words, when the URL may not be delivered to. */
  readonly checkUrl: (url: string) => Promise<void>;
}

const EXAMPLE = '{ "url": "https://hooks.example.com/triage", "events": ["input-required", "decided"] }';

const Body = z.strictObject({
  url: z.string().min(1),
  events: z.array(z.enum(DELIVERY_EVENTS)).min(1),
});

export function createDeliveriesRouter(deps: DeliveriesApiDeps): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(bearerAuth(deps.verifier));
  router.use(express.json({ limit: 64 * 1024 }));

  router.post('/', requireRole('admin'), async (req, res) => {
    const parsed = Body.safeParse(req.body);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join('.') || '(body)');
      throw new DomainError(
        'REQUEST_MALFORMED',
        `A delivery endpoint is ${EXAMPLE}; events are any of ${DELIVERY_EVENTS.join(', ')}. Wrong: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'the body'}: ${i.message}`).join('; ')}.`,
        { details: { fields } },
      );
    }
    try {
      await deps.checkUrl(parsed.data.url);
    } catch (e) {
      throw new DomainError('REQUEST_MALFORMED', e instanceof Error ? e.message : String(e), {
        details: { fields: ['url'] },
      });
    }
    const activated = namesLearnables(req.get('A2A-Extensions'));
    const created = await deps.endpoints.create(principalOf(res).tenant, {
      url: parsed.data.url,
      events: parsed.data.events,
      teachBlocks: activated,
    });
    if (activated) res.setHeader('A2A-Extensions', EXTENSION_URI);
    res.status(201).json(created);
  });

  router.get('/', requireRole('read'), async (_req, res) => {
    res.json(await deps.endpoints.overview(principalOf(res).tenant));
  });

  router.delete('/:id', requireRole('admin'), async (req, res) => {
    const id = String(req.params.id);
    if (!(await deps.endpoints.remove(principalOf(res).tenant, id)))
      throw new DomainError(
        'NOT_FOUND',
        `There is no delivery endpoint "${id}" here; GET ${DELIVERIES_PATH} lists them.`,
      );
    res.status(204).end();
  });
  return router;
}
