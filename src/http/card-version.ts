/**
 * Which agent card a GET of the well-known path gets (A2A v1.0 §3.6, §8.2). The card is the
 * discovery document of §8, and a v1.0 card declares every protocol version it serves in
 * `supportedInterfaces` (§8.3.1), so a request without `A2A-Version` gets the v1.0 card: that is
 * what the v1.0 conformance suite (CARD-STRUCT-001) and any v1.0 client reading a card it has not
 * seen before expect. §3.6.2's "empty means 0.3" governs the semantics of protocol operations, which
 * this server honours on /a2a (a header-less JSON-RPC call is still served as v0.3).
 *
 * v0.3 clients keep working: `A2A-Version: 0.3` (header, or the `A2A-Version` query parameter §3.6.1
 * allows) gets the SDK's v0.3 translation of the same card, and so does the pre-1.0 path
 * `/.well-known/agent.json`. Both answers carry `Vary: A2A-Version`.
 *
 * Works by setting the request's version before the a2a adapter's card router, which picks the
 * shape by that header.
 */
import type { RequestHandler } from 'express';

const HEADER = 'a2a-version';

/** `negotiate`: the header, else the query parameter, else 1.0. `0.3`: always the v0.3 card. */
export function versionedCard(mode: 'negotiate' | '0.3'): RequestHandler {
  return (req, res, next) => {
    res.append('Vary', 'A2A-Version');
    if (mode === '0.3') req.headers[HEADER] = '0.3';
    else {
      const header = req.headers[HEADER];
      const query = req.query['A2A-Version'];
      const asked =
        typeof header === 'string' && header.trim() !== ''
          ? header.trim()
          : typeof query === 'string'
            ? query
            : '';
      req.headers[HEADER] = asked === '' ? '1.0' : asked;
    }
    next();
  };
}
