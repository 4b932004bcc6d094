/**
 * One JSON line per HTTP request (pino-http): request id, method, path, status, tenant (once the
 * bearer token named one), outcome (ok, refused, fault) and duration (`responseTime`, ms). The request id is the
 * caller's `X-Request-Id` when it is a plain token of up to 64 characters, else a new UUID; it is
 * echoed in the response and carried to the triage line of the same call (request-context.ts).
 *
 * The line never holds a credential: the Authorization header is redacted by the logger, and the
 * token in an inbound-webhook path (`/inbound/v1/<provider>/<token>`) is replaced by `[token]`.
 * Probes (`/healthz`, `/readyz`, `/metrics`) are not logged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.ts';
import { withCallContext } from './request-context.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

/** `url` without the secret an inbound webhook carries in its path, and without its query's values. */
export function loggablePath(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const safe = path.replace(/^(\/inbound\/v1\/[^/]+\/)[^/]+/, '$1[token]');
  if (query === undefined) return safe;
  const names = [...new URLSearchParams(query).keys()].map((k) => `${k}=…`);
  return `${safe}?${names.join('&')}`;
}

/** The URL as the client sent it (routers rewrite `req.url` below their mount point). */
function fullUrl(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
}

/** The line written when the response is finished: the outcome, and the tenant once a token named one. */
function finished(
  _req: IncomingMessage,
  res: ServerResponse,
  line: Record<string, unknown>,
): Record<string, unknown> {
  const tenant = tenantOf(res);
  return {
    ...line,
    outcome: res.statusCode >= 500 ? 'fault' : res.statusCode >= 400 ? 'refused' : 'ok',
    ...(tenant === undefined ? {} : { tenant }),
  };
}

function tenantOf(res: ServerResponse): string | undefined {
  const locals = (res as ServerResponse & { locals?: { principal?: { tenant?: string } } }).locals;
  return locals?.principal?.tenant;
}

export function requestLog(logger: Logger): RequestHandler {
  const http = pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET.has((req.url ?? '').split('?', 1)[0] ?? '') },
    customSuccessObject: (req, res, line: Record<string, unknown>) => finished(req, res, line),
    customErrorObject: (req, res, _err, line: Record<string, unknown>) => finished(req, res, line),
    customLogLevel: (_req, res, err) =>
      err !== undefined || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: (req, res) => `${req.method} ${loggablePath(fullUrl(req))} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${loggablePath(fullUrl(req))} ${res.statusCode}`,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: loggablePath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: { type?: string; message?: string }) => ({ type: err.type, message: err.message }),
    },
  });
  return (req, res, next) => {
    http(req, res);
    withCallContext({ requestId: String(req.id as string) }, next);
  };
}
