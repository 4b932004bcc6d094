/**
 * One JSON line per HTTP request: request id, method, path, status, tenant (once the
 * bearer token named one), outcome (ok, refused, fault) and duration (`responseTime`, ms), and what
 * the layers below added to it (the message a call triaged: `triage`, `intake`; request-context.ts).
 * The request id is the caller's `X-Request-Id` when it is a plain token of up to 64 characters,
 * else a new UUID; it is echoed in the response.
 *
 * The line never holds a credential: the Authorization header is redacted by the logger, and the
 * token in an inbound-webhook path (`/inbound/v1/<provider>/<token>`) is replaced by `[token]`.
 * Probes (`/healthz`, `/readyz`, `/metrics`) are not logged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
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

function tenantOf(res: ServerResponse): string | undefined {
  const locals = (res as ServerResponse & { locals?: { principal?: { tenant?: string } } }).locals;
  return locals?.principal?.tenant;
}

/**
 * The request log. Written by hand over the logger rather than with pino-http: pino-http
 * builds a child logger per request (its bindings serialized and censored on every call) and
 * several closures, which measured about a third of the whole log's cost per triage; this writes
 * the same line (same fields, same levels) with one `logger[level]` call when the response ends.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    const path = loggablePath(fullUrl(req));
    let added: Record<string, unknown> | null = null;
    let written = false;
    const addToLine = (fields: Readonly<Record<string, unknown>>): boolean => {
      if (written) return false;
      added = { ...added, ...fields };
      return true;
    };
    if (!QUIET.has(path.split('?', 1)[0] ?? '')) {
      const started = performance.now();
      const done = (): void => {
        res.off('finish', done);
        res.off('close', done);
        written = true;
        const status = res.statusCode;
        const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        const tenant = tenantOf(res);
        logger[level](
          {
            req: { id, method: req.method, path },
            res: { statusCode: status },
            responseTime: Math.round(performance.now() - started),
            outcome: status >= 500 ? 'fault' : status >= 400 ? 'refused' : 'ok',
            ...(tenant === undefined ? {} : { tenant }),
            ...(res.writableFinished ? {} : { aborted: true }),
            ...added,
          },
          `${req.method} ${path} ${status}`,
        );
      };
      res.on('finish', done);
      res.on('close', done);
    }
    withCallContext({ requestId: id, addToLine }, next);
  };
}
