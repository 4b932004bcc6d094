// Invariant (issue 50, mailboxes on Microsoft 365 and Google Workspace): the poller signs in to a
// real Dovecot by OAuth2 bearer token (its `oauth2` passdb introspects every token), with the
// token fetched by the vendors' own libraries; it signs in again before a token runs out without
// losing or doubling a message; a token the server refuses is replaced once; a revoked grant stops
// the poller with a clear error (the log, its status, /readyz) without hammering the endpoint, and
// it recovers when the grant is valid again.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { ImapFlow } from 'imapflow';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteIngestStore } from '../../src/store/sqlite-ingest-store.ts';
import { createIntake } from '../../src/ingest/intake.ts';
import { createImapPoller, type ImapPoller } from '../../src/ingest/imap/poller.ts';
import { createAccessTokens, type OAuth2SignIn } from '../../src/ingest/imap/access-tokens.ts';
import { mailboxCheck } from '../../src/observability/readiness.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { startOAuth2Server, type OAuth2TestServer } from '../support/oauth2-server.ts';
import { mail, recordingLog, recordingSubmitter, waitFor } from '../support/ingest.ts';

const USER = 'agent@example.test';
const MICROSOFT: OAuth2SignIn = {
  provider: 'microsoft',
  tenantId: '11111111-2222-3333-4444-555555555555',
  clientId: 'app-client-id',
  clientSecret: 'app-secret',
  authorityHost: 'https://login.microsoftonline.test',
};
const GOOGLE: OAuth2SignIn = {
  provider: 'google-refresh-token',
  clientId: 'client.apps.googleusercontent.test',
  clientSecret: 'google-secret',
  refreshToken: 'stored-refresh-token',
};

let auth: OAuth2TestServer;
let dovecot: Dovecot;
let client: ImapFlow;
let db: Kysely<unknown>;
let store: SqliteIngestStore;
const pollers: ImapPoller[] = [];
let folderSeq = 0;
let folder = '';

beforeAll(async () => {
  auth = await startOAuth2Server(USER);
  dovecot = await startDovecot({ oauth2IntrospectionUrl: auth.introspectionUrl });
  expect(dovecot.user).toBe(USER);
});
afterAll(async () => {
  await dovecot?.dispose();
  await auth?.close();
});
beforeEach(async () => {
  db = await openDatabase({ file: ':memory:' });
  store = new SqliteIngestStore(db);
  folder = `O${++folderSeq}`;
  client = await dovecot.client();
  await client.mailboxCreate(folder);
  auth.lifetimeS = 3600;
  auth.refuseGrants = false;
  auth.tokenRequests.length = 0;
  auth.introspections.length = 0;
});
afterEach(async () => {
  for (const p of pollers.splice(0)) await p.stop();
  await client.logout().catch(() => client.close());
  await db.destroy();
});

function oauthPoller(signIn: OAuth2SignIn, submitter = recordingSubmitter(), log = recordingLog()) {
  const p = createImapPoller(
    {
      name: `oauth-${folder}`,
      tenant: tenantId('acme'),
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      startTls: false,
      user: USER,
      accessTokens: createAccessTokens(signIn, USER, {
        microsoftTokenUrl: auth.microsoftTokenUrl,
        googleTokenUrl: auth.googleTokenUrl,
      }),
      folder,
      processedFolder: `${folder}-done`,
      failedFolder: `${folder}-bad`,
      pollIntervalMs: 10 * 60_000,
      idleDelayMs: 50,
      reconnect: { initialMs: 200, maxMs: 1_000 },
    },
    { intake: createIntake({ submitter, store, log }), store, log, maxMessageBytes: 1024 * 1024 },
  );
  pollers.push(p);
  return { poller: p, submitter, log };
}

async function deliver(...ids: string[]): Promise<void> {
  const mta = await dovecot.client();
  try {
    for (const id of ids) await mta.append(folder, mail(id));
  } finally {
    await mta.logout().catch(() => mta.close());
  }
}

const idsOf = (s: ReturnType<typeof recordingSubmitter>) => s.submissions.map((x) => x.messageId).sort();

describe('IMAP sign-in by OAuth2 bearer token (issue 50)', () => {
  it.each([
    ['Microsoft 365 (MSAL, client credentials)', MICROSOFT, '/ms/token', 'client_credentials'],
    ['Google Workspace (google-auth-library, refresh token)', GOOGLE, '/google/token', 'refresh_token'],
  ] as const)(
    '%s: the token the library fetched is the one Dovecot accepts',
    async (_n, signIn, path, grant) => {
      await deliver('o-1');
      const { poller, submitter } = oauthPoller(signIn);
      await poller.start();
      await waitFor('the first message', () => submitter.submissions.length === 1);
      expect(idsOf(submitter)).toEqual(['o-1@shipper.example']);
      expect(poller.status().connected).toBe(true);
      const asked = auth.tokenRequests.filter((r) => r.path === path);
      expect(asked.length).toBe(1);
      expect(asked[0]!.form.grant_type).toBe(grant);
      if (grant === 'client_credentials')
        expect(asked[0]!.form.scope).toContain('https://outlook.office365.com/.default');
      // Dovecot checked a token at introspection, and it was active: a password never went over the wire.
      expect(auth.introspections.length).toBeGreaterThan(0);
      expect(auth.introspections.every((i) => i.active)).toBe(true);
      // Offered both (as Gmail does), imapflow takes OAUTHBEARER (RFC 7628).
      expect(dovecot.log()).toMatch(/Login: user=<agent@example.test>, method=OAUTHBEARER/);
    },
  );

  it('a token that runs out during the test is renewed before it does: every message once, none lost', async () => {
    auth.lifetimeS = 3;
    const { poller, submitter, log } = oauthPoller(GOOGLE);
    await poller.start();
    const ids = Array.from({ length: 16 }, (_, i) => `renew-${i}`);
    for (const id of ids) {
      await deliver(id);
      await new Promise((r) => setTimeout(r, 450)); // 16 × 450 ms ≈ 7 s: two tokens run out meanwhile
    }
    await waitFor('every message', () => submitter.submissions.length >= ids.length, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(idsOf(submitter)).toEqual(ids.map((id) => `${id}@shipper.example`).sort());
    expect(auth.tokenRequests.length).toBeGreaterThanOrEqual(3);
    expect(log.entries.some((e) => e.message.startsWith('signing in again'))).toBe(true);
    // Never signed in with a token past its life: the renewal comes first.
    expect(auth.introspections.every((i) => i.active)).toBe(true);
  }, 30_000);

  it('a token the server refuses is replaced by a fresh one once, and the poller reads on', async () => {
    auth.spoilNext();
    await deliver('spoiled-1');
    const { poller, submitter, log } = oauthPoller(MICROSOFT);
    await poller.start();
    await waitFor('the first message', () => submitter.submissions.length === 1);
    expect(auth.tokenRequests.length).toBe(2);
    expect(auth.introspections.map((i) => i.active)).toEqual([false, true]);
    expect(log.entries.some((e) => e.message.includes('refused the access token'))).toBe(true);
  });

  it('a revoked grant stops the poller with a clear error, without hammering, and it recovers once valid again', async () => {
    auth.lifetimeS = 2;
    const { poller, submitter, log } = oauthPoller(MICROSOFT);
    await poller.start();
    await deliver('before-revoke');
    await waitFor('the first message', () => submitter.submissions.length === 1);

    auth.refuseGrants = true;
    auth.revokeIssued();
    await waitFor('the poller to stop', () => !poller.status().connected, 10_000);
    await deliver('during-revoke');
    const refusedFrom = Date.now();
    await new Promise((r) => setTimeout(r, 3_000));
    const status = poller.status();
    expect(status.connected).toBe(false);
    expect(status.lastError).toMatch(/Microsoft Entra ID .*refused: invalid_grant/);
    const ready = await mailboxCheck(`oauth-${folder}`, () => poller.status()).check();
    expect(ready).toMatch(/^not connected: the token endpoint of Microsoft Entra ID/);
    const log1 = log.entries.find((e) => e.message === 'could not get an access token for the mailbox');
    expect(log1?.fields.mailbox).toBe(`oauth-${folder}`);
    // Backoff 200 ms doubling to 1 s: about 5 asks in 3 s, never a tight loop.
    const asks = auth.tokenRequests.filter((r) => r.at >= refusedFrom).length;
    expect(asks).toBeGreaterThan(0);
    expect(asks).toBeLessThanOrEqual(8);
    expect(submitter.submissions.length).toBe(1);

    auth.refuseGrants = false;
    await waitFor('the message sent while revoked', () => submitter.submissions.length === 2, 10_000);
    expect(idsOf(submitter)).toEqual(['before-revoke@shipper.example', 'during-revoke@shipper.example']);
    expect(poller.status().connected).toBe(true);
  }, 30_000);

  it('signs in by XOAUTH2 where the server offers it alone, as Microsoft 365 does', async () => {
    const xoauth2Only = await startDovecot({
      oauth2IntrospectionUrl: auth.introspectionUrl,
      oauth2Mechanisms: ['xoauth2'],
    });
    try {
      const mta = await xoauth2Only.client();
      await mta.append('INBOX', mail('x-1'));
      await mta.logout();
      const submitter = recordingSubmitter();
      const log = recordingLog();
      const p = createImapPoller(
        {
          name: 'oauth-xoauth2',
          tenant: tenantId('acme'),
          host: xoauth2Only.host,
          port: xoauth2Only.port,
          secure: false,
          startTls: false,
          user: USER,
          accessTokens: createAccessTokens(MICROSOFT, USER, { microsoftTokenUrl: auth.microsoftTokenUrl }),
          idleDelayMs: 50,
          reconnect: { initialMs: 200, maxMs: 1_000 },
        },
        { intake: createIntake({ submitter, store, log }), store, log, maxMessageBytes: 1024 * 1024 },
      );
      pollers.push(p);
      await p.start();
      await waitFor('the message', () => submitter.submissions.length === 1);
      expect(xoauth2Only.log()).toMatch(/Login: user=<agent@example.test>, method=XOAUTH2/);
      expect(xoauth2Only.log()).not.toMatch(/method=OAUTHBEARER/);
    } finally {
      for (const p of pollers.splice(0)) await p.stop();
      await xoauth2Only.dispose();
    }
  });
});
