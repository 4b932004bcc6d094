/**
 * GET /console: the operator console's built bundle (console/dist, made by `npm run build:console`,
 * which `npm ci` and `npm start` run), served as static files with a strict content security
 * policy. Public like the agent card: the page holds no data; everything it shows it fetches with
 * the operator's own token from the public A2A and authority APIs.
 *
 * Also owns the CORS answer of the authority API, so a console served by an agent can talk to an
 * authority in another process (§12.1). `*` is safe here because the API's only credential is a
 * bearer token the page must hold itself: a browser never attaches it on its own.
 *
 * Deliberately not: building the bundle (scripts/build-console.ts), or serving anything but files.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/** Where `npm run build:console` writes the bundle. */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

const CSP = [
  "default-src 'self'",
  // The authority may be another process (§12.1): the console's only other origin, chosen at sign-in.
  "connect-src 'self' http: https:",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Console not built</title>
<h1>The console is not built</h1><p>Run <code>npm run build:console</code> (or <code>npm start</code>, which builds it) and reload this page.</p></html>`;

/** The /console router; mount it at CONSOLE_PATH. `distDir` defaults to CONSOLE_DIST_DIR. */
export function consoleRouter(distDir: string = CONSOLE_DIST_DIR): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.use(express.static(distDir, { index: 'index.html', redirect: true, fallthrough: true }));
  router.get('/', (_req, res) => {
    // Only reached when the bundle is missing: say how to build it rather than a bare 404.
    res
      .status(existsSync(distDir) ? 404 : 503)
      .type('html')
      .send(NOT_BUILT);
  });
  return router;
}

/** CORS for the authority API (see the header): preflights answered before any token check. */
export function authorityCors(): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Max-Age', '600');
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
