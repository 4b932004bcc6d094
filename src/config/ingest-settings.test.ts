// Invariant: MAILBOXES and INBOUND_WEBHOOKS parse into typed settings whose secrets come only from the variables they name, are listed when missing, and never print.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const MAILBOX = {
  name: 'prealerts',
  tenant: 'demo',
  host: 'imap.example.com',
  user: 'p@example.com',
  passwordEnv: 'PA_PASS',
};

describe('mail pipeline settings', () => {
  it('defaults to no mailboxes and no webhooks', () => {
    const c = loadConfig({});
    expect(c.mailboxes).toEqual([]);
    expect(c.inboundWebhooks).toEqual([]);
  });

  it('reads a mailbox with defaults and its password from the named variable, never printing it', () => {
    const c = loadConfig({ MAILBOXES: JSON.stringify([MAILBOX]), PA_PASS: 'hunter2-imap' });
    const m = c.mailboxes[0]!;
    expect(m).toMatchObject({
      port: 993,
      secure: true,
      folder: 'INBOX',
      processedFolder: 'Processed',
      failedFolder: 'Unreadable',
      pollIntervalMs: 30_000,
    });
    expect(m.password.reveal()).toBe('hunter2-imap');
    expect(JSON.stringify(c)).not.toContain('hunter2-imap');
    expect(inspect(c, { depth: 10 })).not.toContain('hunter2-imap');
    expect(`${String(m.password)}`).toBe('(hidden)');
  });

  describe('OAuth2 sign-in (issue 50)', () => {
    const { passwordEnv: _p, ...BARE } = MAILBOX;
    const oauthMailbox = (oauth2: unknown) => JSON.stringify([{ ...BARE, oauth2 }]);
    const failure = (env: Record<string, string>): ConfigError => {
      try {
        loadConfig(env);
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('loadConfig accepted it');
    };

    it('reads a Microsoft 365 app with its secret from the named variable, never printing it', () => {
      const c = loadConfig({
        MAILBOXES: oauthMailbox({
          provider: 'microsoft',
          tenantId: 'contoso.onmicrosoft.com',
          clientId: 'cid',
          clientSecretEnv: 'MS_SECRET',
        }),
        MS_SECRET: 'entra-secret-value',
      });
      expect(c.mailboxes[0]!.signIn?.reveal()).toEqual({
        provider: 'microsoft',
        tenantId: 'contoso.onmicrosoft.com',
        clientId: 'cid',
        clientSecret: 'entra-secret-value',
      });
      expect(JSON.stringify(c)).not.toContain('entra-secret-value');
      expect(inspect(c, { depth: 10 })).not.toContain('entra-secret-value');
    });

    it('reads a Google service account key and a stored refresh token', () => {
      const key = JSON.stringify({
        client_email: 'sa@p.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----x',
      });
      const sa = loadConfig({
        MAILBOXES: oauthMailbox({ provider: 'google-service-account', keyEnv: 'SA_KEY' }),
        SA_KEY: key,
      });
      expect(sa.mailboxes[0]!.signIn?.reveal()).toMatchObject({
        clientEmail: 'sa@p.iam.gserviceaccount.com',
      });
      const rt = loadConfig({
        MAILBOXES: oauthMailbox({
          provider: 'google-refresh-token',
          clientId: 'c',
          clientSecretEnv: 'G_SECRET',
          refreshTokenEnv: 'G_RT',
        }),
        G_SECRET: 's',
        G_RT: '1//refresh',
      });
      expect(rt.mailboxes[0]!.signIn?.reveal()).toMatchObject({
        refreshToken: '1//refresh',
        clientSecret: 's',
      });
    });

    it('asks for exactly one way to sign in, and names each missing or malformed secret', () => {
      expect(failure({ MAILBOXES: JSON.stringify([BARE]) }).message).toMatch(
        /exactly one of passwordEnv .* and oauth2/,
      );
      const both = { ...MAILBOX, oauth2: { provider: 'google-service-account', keyEnv: 'K' } };
      expect(failure({ MAILBOXES: JSON.stringify([both]), PA_PASS: 'x', K: '{}' }).message).toMatch(
        /exactly one of passwordEnv/,
      );
      expect(
        failure({ MAILBOXES: oauthMailbox({ provider: 'microsoft', tenantId: 't', clientId: 'c' }) }).message,
      ).toMatch(/exactly one of clientSecretEnv and certificate/);
      expect(
        failure({
          MAILBOXES: oauthMailbox({
            provider: 'google-refresh-token',
            clientId: 'c',
            clientSecretEnv: 'GS',
            refreshTokenEnv: 'GR',
          }),
        }).issues.map((i) => i.setting),
      ).toEqual(['GS', 'GR']);
      const bad = failure({
        MAILBOXES: oauthMailbox({ provider: 'google-service-account', keyEnv: 'SA' }),
        SA: 'not json',
      });
      expect(bad.issues[0]).toMatchObject({
        setting: 'SA',
        problem: expect.stringMatching(/not a service account key/),
      });
      expect(failure({ MAILBOXES: oauthMailbox({ provider: 'yahoo' }) }).message).toMatch(/MAILBOXES/);
    });
  });

  it('lists every missing secret and a bad token at once', () => {
    const env = {
      MAILBOXES: JSON.stringify([MAILBOX]),
      INBOUND_WEBHOOKS: JSON.stringify([
        { tenant: 'demo', tokenEnv: 'DEMO_TOKEN', mailgunSigningKeyEnv: 'MG_KEY' },
      ]),
      DEMO_TOKEN: 'short',
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.setting)).toEqual(['PA_PASS', 'DEMO_TOKEN', 'MG_KEY']);
    expect((error as ConfigError).message).toMatch(/shorter than 16 characters/);
  });

  it('refuses malformed JSON and unknown keys, naming the setting', () => {
    expect(() => loadConfig({ MAILBOXES: '[{' })).toThrow(/MAILBOXES: .*not valid JSON/);
    expect(() => loadConfig({ MAILBOXES: JSON.stringify([{ ...MAILBOX, password: 'inline' }]) })).toThrow(
      /MAILBOXES/,
    );
  });

  it('resolves webhook tokens and signing keys', () => {
    const c = loadConfig({
      INBOUND_WEBHOOKS: JSON.stringify([
        { tenant: 'demo', tokenEnv: 'DEMO_TOKEN', mailgunSigningKeyEnv: 'MG_KEY', providers: ['mailgun'] },
      ]),
      DEMO_TOKEN: '0123456789abcdef0123',
      MG_KEY: 'key-abc',
    });
    expect(c.inboundWebhooks[0]!.token.reveal()).toBe('0123456789abcdef0123');
    expect(c.inboundWebhooks[0]!.mailgunSigningKey?.reveal()).toBe('key-abc');
    expect(c.inboundWebhooks[0]!.providers).toEqual(['mailgun']);
  });

  it('refuses a Mailgun signing key copied from the README ("…") at start, naming its variable', () => {
    for (const placeholder of ['…', '...', '<key>', 'changeme']) {
      let error: unknown;
      try {
        loadConfig({
          INBOUND_WEBHOOKS: JSON.stringify([
            { tenant: 'demo', tokenEnv: 'DEMO_TOKEN', mailgunSigningKeyEnv: 'MG_KEY' },
          ]),
          DEMO_TOKEN: '0123456789abcdef0123',
          MG_KEY: placeholder,
        });
      } catch (e) {
        error = e;
      }
      expect(error, placeholder).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.map((i) => i.setting)).toEqual(['MG_KEY']);
      expect((error as ConfigError).message).toMatch(/placeholder.*paste the real key/);
    }
  });
});
