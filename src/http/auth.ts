/**
 * Bearer-token authentication and role checks for HTTP routes (§13.2: activation is not
 * authorization; the writer is authorized independently and scoped to exactly one tenant).
 *
 * `bearerAuth(verifier)` puts the caller's Principal on `res.locals.principal` or answers 401;
 * `requireRole(role)` answers 403 when the principal lacks it. The tenant of every request is the
 * principal's, never a value from the body or the path.
 *
 * Deliberately does not: know how tokens are stored (TokenVerifier port), or log tokens.
 */
import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../domain/errors.ts';
import { hasRole, type Principal, type Role, type TokenVerifier } from '../domain/authority/index.ts';

const BEARER_RE = /^Bearer\s+(\S+)\s*$/i;

/** The raw bearer token of a request, or null when there is no usable Authorization header. */
export function bearerToken(req: Pick<Request, 'headers'>): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = BEARER_RE.exec(header);
  return m?.[1] ?? null;
}

/** 401 unless the request carries a valid bearer token; sets `res.locals.principal`. */
export function bearerAuth(verifier: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req);
    if (token === null) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new DomainError(
        'UNAUTHENTICATED',
        'This request needs a token: send "Authorization: Bearer <token>". An operator creates one with `npx learnables-triage tokens create`.',
      );
    }
    const principal = await verifier.verify(token);
    if (principal === null) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw new DomainError(
        'UNAUTHENTICATED',
        'The bearer token is not valid (unknown or revoked). Ask an operator for a new one.',
      );
    }
    res.locals.principal = principal;
    next();
  };
}

/** The principal `bearerAuth` authenticated; throws if the route was mounted without it. */
export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (p === undefined) throw new Error('principalOf: bearerAuth did not run before this handler');
  return p;
}

/** 403 unless the authenticated principal holds `role` (admin holds every role). */
export function requireRole(role: Role): RequestHandler {
  return (_req, res, next) => {
    const p = principalOf(res);
    if (!hasRole(p, role)) {
      throw new DomainError(
        'FORBIDDEN',
        `The token for ${p.id} does not have the "${role}" role this request needs (it has: ${p.roles.join(', ') || 'none'}). Ask an operator for a token with "${role}".`,
        { details: { required: role } },
      );
    }
    next();
  };
}
