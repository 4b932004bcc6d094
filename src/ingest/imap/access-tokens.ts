/**
 * OAuth2 access tokens for IMAP sign-in (SASL XOAUTH2 / OAUTHBEARER), fetched with the vendors'
 * own libraries: Microsoft 365 by the client-credentials grant (`@azure/msal-node`, app-only),
 * Google Workspace by a service account with domain-wide delegation or a stored refresh token
 * (`google-auth-library`). No token flow is written here; this file only chooses the library
 * call, asks for a fresh token when told to, and says when the token runs out.
 *
 * The poller (poller.ts) asks at every connect, forces a fresh one after the server refuses a
 * token (once), and reconnects before `expiresAt` (renewAt). A library error (the endpoint
 * refused, or could not be reached) is thrown as a TokenRefused naming the provider, so the log
 * and /readyz say which sign-in failed and why.
 */
import { ConfidentialClientApplication, type Configuration } from '@azure/msal-node';
import { JWT, OAuth2Client } from 'google-auth-library';

/** The scopes IMAP needs, per provider. */
export const MICROSOFT_IMAP_SCOPE = 'https://outlook.office365.com/.default';
export const GOOGLE_MAIL_SCOPE = 'https://mail.google.com/';

export type OAuth2SignIn =
  | {
      readonly provider: 'microsoft';
      /** The Entra ID tenant (directory) id, or a verified domain. */
      readonly tenantId: string;
      readonly clientId: string;
      /** Exactly one of clientSecret and certificate. */
      readonly clientSecret?: string;
      readonly certificate?: { readonly thumbprintSha256: string; readonly privateKey: string };
      /** Default https://login.microsoftonline.com (another for a national cloud). */
      readonly authorityHost?: string;
    }
  | {
      readonly provider: 'google-service-account';
      readonly clientEmail: string;
      readonly privateKey: string;
    }
  | {
      readonly provider: 'google-refresh-token';
      readonly clientId: string;
      readonly clientSecret: string;
      readonly refreshToken: string;
    };

export interface AccessToken {
  readonly token: string;
  /** ms since the epoch; the poller signs in again before it. */
  readonly expiresAt: number;
}

export interface AccessTokens {
  /** Which sign-in this is, for logs and /readyz: never a secret. */
  readonly describe: string;
  /** A token valid now; `fresh` skips every cache (after the server refused the last one, or to renew). */
  get(fresh: boolean): Promise<AccessToken>;
}

/** A token endpoint refused or could not be reached; `message` names the provider and the reason. */
export class TokenRefused extends Error {
  override readonly name = 'TokenRefused';
}

/** Only for tests: where the token endpoint is, in place of the vendor's. */
export interface TokenEndpoints {
  readonly microsoftTokenUrl?: string;
  readonly googleTokenUrl?: string;
}

/** The token source for one mailbox; `user` is the mailbox address (the delegated subject for a service account). */
export function createAccessTokens(
  signIn: OAuth2SignIn,
  user: string,
  endpoints: TokenEndpoints = {},
): AccessTokens {
  switch (signIn.provider) {
    case 'microsoft':
      return microsoftTokens(signIn, endpoints.microsoftTokenUrl);
    case 'google-service-account':
      return googleServiceAccountTokens(signIn, user);
    case 'google-refresh-token':
      return googleRefreshTokens(signIn, endpoints.googleTokenUrl);
  }
}

/**
 * When to sign in again: a fifth of the token's life before it runs out, at most five minutes
 * before (a one-hour token is renewed at 55 minutes).
 */
export function renewAt(expiresAt: number, now: number): number {
  const margin = Math.min(5 * 60_000, Math.max(0, expiresAt - now) / 5);
  return expiresAt - margin;
}

function microsoftTokens(
  signIn: Extract<OAuth2SignIn, { provider: 'microsoft' }>,
  tokenUrl: string | undefined,
): AccessTokens {
  const host = (signIn.authorityHost ?? 'https://login.microsoftonline.com').replace(/\/+$/, '');
  const authority = `${host}/${signIn.tenantId}`;
  const auth: Configuration['auth'] = {
    clientId: signIn.clientId,
    authority,
    ...(signIn.clientSecret === undefined ? {} : { clientSecret: signIn.clientSecret }),
    ...(signIn.certificate === undefined ? {} : { clientCertificate: signIn.certificate }),
    ...(tokenUrl === undefined ? {} : localAuthority(authority, tokenUrl)),
  };
  const app = new ConfidentialClientApplication({ auth });
  const describe = `Microsoft Entra ID (tenant ${signIn.tenantId}, client ${signIn.clientId})`;
  return {
    describe,
    async get(fresh) {
      const r = await refusal(describe, () =>
        app.acquireTokenByClientCredential({ scopes: [MICROSOFT_IMAP_SCOPE], skipCache: fresh }),
      );
      if (r === null || r.accessToken === '') throw new TokenRefused(`${describe} gave no access token`);
      return { token: r.accessToken, expiresAt: r.expiresOn?.getTime() ?? Date.now() + 60 * 60_000 };
    },
  };
}

/** MSAL's discovery answered from configuration, so a test's token endpoint stands in for Entra ID. */
function localAuthority(authority: string, tokenUrl: string): Partial<Configuration['auth']> {
  const host = new URL(authority).host;
  return {
    knownAuthorities: [host],
    cloudDiscoveryMetadata: JSON.stringify({
      tenant_discovery_endpoint: `${authority}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
    }),
    authorityMetadata: JSON.stringify({
      token_endpoint: tokenUrl,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      issuer: `${authority}/v2.0`,
      jwks_uri: `${authority}/discovery/v2.0/keys`,
    }),
  };
}

function googleServiceAccountTokens(
  signIn: Extract<OAuth2SignIn, { provider: 'google-service-account' }>,
  user: string,
): AccessTokens {
  const describe = `Google service account ${signIn.clientEmail} for ${user}`;
  const make = (): JWT =>
    new JWT({
      email: signIn.clientEmail,
      key: signIn.privateKey,
      scopes: [GOOGLE_MAIL_SCOPE],
      subject: user,
    });
  let client = make();
  return {
    describe,
    async get(fresh) {
      if (fresh) client = make(); // the library caches inside the client: a new one asks the endpoint
      const token = await refusal(describe, () => client.getAccessToken());
      return checked(describe, token.token, client.credentials.expiry_date);
    },
  };
}

function googleRefreshTokens(
  signIn: Extract<OAuth2SignIn, { provider: 'google-refresh-token' }>,
  tokenUrl: string | undefined,
): AccessTokens {
  const describe = `Google OAuth client ${signIn.clientId} (stored refresh token)`;
  const client = new OAuth2Client({
    clientId: signIn.clientId,
    clientSecret: signIn.clientSecret,
    ...(tokenUrl === undefined ? {} : { endpoints: { oauth2TokenUrl: tokenUrl } }),
  });
  client.setCredentials({ refresh_token: signIn.refreshToken });
  return {
    describe,
    async get(fresh) {
      // Credentials with only the refresh token make the library ask the endpoint for a new access token.
      if (fresh) client.setCredentials({ refresh_token: signIn.refreshToken });
      const token = await refusal(describe, () => client.getAccessToken());
      return checked(describe, token.token, client.credentials.expiry_date);
    },
  };
}

function checked(
  describe: string,
  token: string | null | undefined,
  expiry: number | null | undefined,
): AccessToken {
  if (typeof token !== 'string' || token === '') throw new TokenRefused(`${describe} gave no access token`);
  return { token, expiresAt: typeof expiry === 'number' ? expiry : Date.now() + 60 * 60_000 };
}

/** The library's error, reworded to name the sign-in; the endpoint's own words kept (never a secret). */
async function refusal<T>(describe: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new TokenRefused(`the token endpoint of ${describe} refused: ${reason(e)}`);
  }
}

function reason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const data = (e as { response?: { data?: { error?: unknown; error_description?: unknown } } }).response
    ?.data;
  const code = (e as { errorCode?: unknown }).errorCode;
  const said = data?.error ?? code;
  const detail = data?.error_description;
  return [typeof said === 'string' ? said : null, typeof detail === 'string' ? detail : e.message]
    .filter((s) => s !== null)
    .join(': ')
    .slice(0, 300);
}
