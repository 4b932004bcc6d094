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
