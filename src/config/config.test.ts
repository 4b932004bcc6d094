// Invariant: the configuration is parsed once, strictly, with defaults; every bad setting is reported together.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicBaseUrl } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: './data',
      identificationMargin: 0.5,
      logLevel: 'info',
    });
    expect(c.publicUrl).toBeUndefined();
    expect(c.authorityUrl).toBeUndefined();
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads and coerces settings, trimming a trailing slash from URLs', () => {
    const c = loadConfig({
      PORT: '0',
      PUBLIC_URL: 'https://t.example.com/',
      AUTHORITY_URL: 'http://127.0.0.1:9/',
      AUTHORITY_TOKEN: 'lt_12345678',
      IDENTIFICATION_MARGIN: '0.25',
    });
    expect(c.port).toBe(0);
    expect(c.publicUrl).toBe('https://t.example.com');
    expect(c.authorityUrl).toBe('http://127.0.0.1:9');
    expect(c.identificationMargin).toBe(0.25);
  });

  it('lists every bad setting at once, each with an example of a good one', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', IDENTIFICATION_MARGIN: '2', LOG_LEVEL: 'loud', PUBLIC_URL: 'ftp://x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues.map((i) => i.setting).sort();
    expect(issues).toEqual(['IDENTIFICATION_MARGIN', 'LOG_LEVEL', 'PORT', 'PUBLIC_URL']);
    expect((err as ConfigError).message).toContain('PORT=8080');
    expect((err as ConfigError).code).toBe('CONFIG_INVALID');
  });

  it('derives the public base URL from host and bound port when PUBLIC_URL is unset', () => {
    expect(publicBaseUrl(loadConfig({}), 8080)).toBe('http://127.0.0.1:8080');
    expect(publicBaseUrl(loadConfig({ HOST: '0.0.0.0' }), 9)).toBe('http://127.0.0.1:9');
    expect(publicBaseUrl(loadConfig({ PUBLIC_URL: 'https://a.example' }), 9)).toBe('https://a.example');
  });
});

describe('DATABASE_URL', () => {
  it('takes a postgres:// URL, and is unset (SQLite under DATA_DIR) by default', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    const url = 'postgres://triage:pw@db.internal:5432/triage';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('bounds compiled matchers by MATCHER_MEMORY_BUDGET_MB (issue 15), defaulting from the machine, and refuses a budget that is not a whole number of MiB from 16', () => {
    const fallback = loadConfig({}).matcherMemoryBudgetMb;
    expect(fallback).toBeGreaterThanOrEqual(64);
    expect(fallback).toBeLessThanOrEqual(4096);
    expect(loadConfig({ MATCHER_MEMORY_BUDGET_MB: '256' }).matcherMemoryBudgetMb).toBe(256);
    for (const bad of ['0', '8', 'lots', '1.5'])
      expect(() => loadConfig({ MATCHER_MEMORY_BUDGET_MB: bad })).toThrow(
        new RegExp(
          `MATCHER_MEMORY_BUDGET_MB: "${bad.replace('.', '\\.')}" is not usable.*MATCHER_MEMORY_BUDGET_MB=512`,
          's',
        ),
      );
  });

  it('refuses anything else, saying what to give, without printing the URL (it may hold a password)', () => {
    let err: unknown;
    try {
      loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).message;
    expect(message).toMatch(/DATABASE_URL: \(hidden\) is not usable: must be a postgres:\/\/ URL/);
    expect(message).toContain('unset it to keep SQLite under DATA_DIR');
    expect(message).not.toContain('hunter2');
  });
});

describe('settings that go together', () => {
  it('needs AUTHORITY_TOKEN with AUTHORITY_URL, and never prints the token', () => {
    expect(() => loadConfig({ AUTHORITY_URL: 'http://127.0.0.1:8081' })).toThrow(/AUTHORITY_TOKEN/);
    const c = loadConfig({ AUTHORITY_URL: 'http://127.0.0.1:8081', AUTHORITY_TOKEN: 'lt_secret_value' });
    expect(c.authorityToken).toBe('lt_secret_value');
    try {
      loadConfig({ AUTHORITY_TOKEN: 'short' });
    } catch (e) {
      expect((e as Error).message).not.toContain('short');
    }
  });

  it('refuses ROLE=authority together with a remote authority', () => {
    expect(() =>
      loadConfig({ ROLE: 'authority', AUTHORITY_URL: 'http://x.example', AUTHORITY_TOKEN: 'lt_12345678' }),
    ).toThrow(/ROLE/);
    expect(loadConfig({ ROLE: 'authority' }).role).toBe('authority');
  });
});

describe('mail limits (one config, every path)', () => {
  it('defaults to the limits module and takes MAX_* overrides', async () => {
    const { loadConfig, mailLimitsOf } = await import('./config.ts');
    const { DEFAULT_MAIL_LIMITS } = await import('../domain/mail/index.ts');
    const { DEFAULT_DOCUMENT_LIMITS } = await import('../ingest/mail/attachments/index.ts');
    expect(mailLimitsOf(loadConfig({}))).toEqual({ ...DEFAULT_MAIL_LIMITS, ...DEFAULT_DOCUMENT_LIMITS });
    expect(mailLimitsOf(loadConfig({ MAX_MESSAGE_BYTES: '1048576' })).maxMessageBytes).toBe(1_048_576);
  });
  it('carries the bounds on attached documents (PDF, XLSX) with the mail limits, each with its setting', async () => {
    const { loadConfig, mailLimitsOf } = await import('./config.ts');
    const limits = mailLimitsOf(
      loadConfig({
        MAX_DOCUMENT_BYTES: '1000',
        MAX_PDF_PAGES: '3',
        MAX_XLSX_CELLS: '40',
        MAX_XLSX_INFLATED_BYTES: '5000',
        DOCUMENT_TIMEOUT_MS: '250',
      }),
    );
    expect(limits).toMatchObject({
      maxDocumentBytes: 1000,
      maxPdfPages: 3,
      maxXlsxCells: 40,
      maxXlsxInflatedBytes: 5000,
      documentTimeoutMs: 250,
    });
    expect(() => loadConfig({ MAX_PDF_PAGES: '0' })).toThrow(
      /MAX_PDF_PAGES: "0" is not usable.*MAX_PDF_PAGES=50/s,
    );
  });
  it('names a bad limit with an example of a good one', async () => {
    const { loadConfig } = await import('./config.ts');
    expect(() => loadConfig({ MAX_ATTACHMENTS: 'lots' })).toThrow(
      /MAX_ATTACHMENTS: "lots" is not usable.*MAX_ATTACHMENTS=50/s,
    );
  });

  it("takes over a dead owner's mailbox within seconds by default, and refuses a renew interval not below the lease (issue 15)", () => {
    const c = loadConfig({});
    expect(c.mailboxLeaseMs).toBe(10_000);
    expect(c.mailboxLeaseRenewMs).toBe(3_000);
    expect(loadConfig({ MAILBOX_LEASE_MS: '6000', MAILBOX_LEASE_RENEW_MS: '2000' })).toMatchObject({
      mailboxLeaseMs: 6000,
      mailboxLeaseRenewMs: 2000,
    });
    expect(() => loadConfig({ MAILBOX_LEASE_MS: '3000', MAILBOX_LEASE_RENEW_MS: '3000' })).toThrow(
      /MAILBOX_LEASE_RENEW_MS: 3000 is not below MAILBOX_LEASE_MS \(3000\).*MAILBOX_LEASE_RENEW_MS=1000/s,
    );
  });
});
