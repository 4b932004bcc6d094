/**
 * An OAuth2 authorization server for the IMAP sign-in tests: the one part that stands in for
 * Microsoft Entra ID and Google (nothing of theirs can run here). It answers the token requests
 * the vendors' libraries make (client credentials for MSAL, a refresh token for
 * google-auth-library) and the RFC 7662 introspection Dovecot's `oauth2` passdb makes, so the
 * token the poller got is the token Dovecot checks. Tokens live `lifetimeS` seconds; the test can
 * refuse grants (a revoked app or refresh token) and make tokens inactive (revoked at the server).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequest {
  readonly path: string;
  readonly form: Record<string, string>;
  readonly at: number;
}

export interface OAuth2TestServer {
  readonly url: string;
  /** Token endpoint for MSAL (client credentials) and for google-auth-library (refresh token). */
  readonly microsoftTokenUrl: string;
  readonly googleTokenUrl: string;
  readonly introspectionUrl: string;
  readonly tokenRequests: TokenRequest[];
  /** Tokens Dovecot asked about, in order, with the answer it got. */
  readonly introspections: { token: string; active: boolean }[];
  /** Seconds each new token lives. */
  lifetimeS: number;
  /** While true the token endpoint answers 400 invalid_grant (the app's consent or the refresh token was revoked). */
  refuseGrants: boolean;
  /** Makes every token issued so far inactive at introspection (revoked at the server). */
  revokeIssued(): void;
  /** The next token issued is inactive from the start (the server refuses it; a fresh one works). */
  spoilNext(): void;
  close(): Promise<void>;
}

export async function startOAuth2Server(user: string): Promise<OAuth2TestServer> {
  const issued = new Map<string, { expiresAt: number; active: boolean }>();
  let seq = 0;
  let spoil = false;
  const state = {
    tokenRequests: [] as TokenRequest[],
    introspections: [] as { token: string; active: boolean }[],
    lifetimeS: 3600,
    refuseGrants: false,
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const send = (status: number, json: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      };
      if (path === '/introspect') {
        const t = issued.get(form.token ?? '');
        const active = t !== undefined && t.active && Date.now() < t.expiresAt;
        state.introspections.push({ token: form.token ?? '', active });
        send(200, active ? { active: true, username: user } : { active: false });
        return;
      }
      if (path === '/ms/token' || path === '/google/token') {
        state.tokenRequests.push({ path, form, at: Date.now() });
        if (state.refuseGrants) {
          send(400, { error: 'invalid_grant', error_description: 'the grant was revoked (test)' });
          return;
        }
        const token = `tok-${++seq}-${Math.random().toString(36).slice(2)}`;
        issued.set(token, { expiresAt: Date.now() + state.lifetimeS * 1000, active: !spoil });
        spoil = false;
        send(200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: state.lifetimeS,
          ext_expires_in: state.lifetimeS,
        });
        return;
      }
      send(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    microsoftTokenUrl: `${url}/ms/token`,
    googleTokenUrl: `${url}/google/token`,
    introspectionUrl: `${url}/introspect`,
    revokeIssued() {
      for (const t of issued.values()) t.active = false;
    },
    spoilNext() {
      spoil = true;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
