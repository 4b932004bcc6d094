/**
 * The mail-pipeline settings of the one config schema (config.ts): MAILBOXES (IMAP pollers) and
 * INBOUND_WEBHOOKS (tokens binding webhook URLs to tenants). Both are JSON arrays; their secrets are
 * never in the JSON itself but in environment variables the JSON names (`passwordEnv`, `tokenEnv`,
 * `mailgunSigningKeyEnv`), resolved once by loadConfig into Secret values that print as "(hidden)".
 */
import { inspect } from 'node:util';
import { z } from 'zod';
import type { OAuth2SignIn } from '../ingest/imap/access-tokens.ts';

/** A secret from the environment. `reveal()` is the only way to the value; printing it shows "(hidden)". */
export class Secret<T = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return '(hidden)';
  }
  toJSON(): string {
    return '(hidden)';
  }
  [inspect.custom](): string {
    return 'Secret((hidden))';
  }
}

/** A placeholder until loadConfig resolves the named variable. */
const UNRESOLVED = new Secret('');

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');
const tenant = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be a tenant name like "demo"');
const PROVIDERS = ['postmark', 'mailgun', 'sendgrid', 'rfc822'] as const;

function jsonArray<T extends z.ZodType>(item: T) {
  return z
    .string()
    .transform((s, ctx): unknown => {
      try {
        return JSON.parse(s);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(z.array(item));
}

/**
 * OAuth2 sign-in for a mailbox (SASL XOAUTH2 / OAUTHBEARER); every secret from a variable it names.
 * Microsoft 365: app-only client credentials (a secret or a certificate). Google Workspace: a
 * service account with domain-wide delegation (its JSON key), or a stored refresh token.
 */
const oauth2 = z.discriminatedUnion('provider', [
  z
    .strictObject({
      provider: z.literal('microsoft'),
      tenantId: z.string().min(1),
      clientId: z.string().min(1),
      clientSecretEnv: envName.optional(),
      certificate: z
        .strictObject({
          thumbprintSha256: z
            .string()
            .regex(/^[0-9A-Fa-f]{64}$/, "must be the certificate's SHA-256 thumbprint (64 hex digits)"),
          privateKeyEnv: envName,
        })
        .optional(),
      authorityHost: z.url({ protocol: /^https$/ }).optional(),
    })
    .refine((o) => (o.clientSecretEnv === undefined) !== (o.certificate === undefined), {
      message: 'give exactly one of clientSecretEnv and certificate',
    }),
  z.strictObject({ provider: z.literal('google-service-account'), keyEnv: envName }),
  z.strictObject({
    provider: z.literal('google-refresh-token'),
    clientId: z.string().min(1),
    clientSecretEnv: envName,
    refreshTokenEnv: envName,
  }),
]);

const mailbox = z
  .strictObject({
    /** Names the mailbox in logs and tasks, and keys its stored place: keep it stable. */
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be 1-63 letters, digits, ".", "_" or "-"'),
    tenant,
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).optional(),
    /** Implicit TLS (993). false: plain IMAP, upgraded with STARTTLS when the server offers it. */
    secure: z.boolean().default(true),
    startTls: z.boolean().optional(),
    user: z.string().min(1),
    /** Exactly one of passwordEnv and oauth2. */
    passwordEnv: envName.optional(),
    oauth2: oauth2.optional(),
    folder: z.string().min(1).default('INBOX'),
    processedFolder: z.string().min(1).default('Processed'),
    failedFolder: z.string().min(1).default('Unreadable'),
    pollIntervalMs: z.number().int().min(1_000).default(30_000),
    /**
     * File each triaged message in a folder named by what it was read as, e.g.
     * "Customers/{customer}" or "Kinds/{kind}"; unset keeps every message in processedFolder.
     */
    fileBy: z
      .string()
      .min(1)
      .regex(/\{[a-z][a-z0-9_-]*\}/, 'must name a reading in braces, e.g. "Customers/{customer}"')
      .optional(),
    /** With fileBy: where a message that asks waits until its question is answered. */
    questionsFolder: z.string().min(1).default('Questions'),
    /**
     * With fileBy: move each message into its folder (default), or leave it where it is marked
     * with an IMAP keyword (`$Customers/Acme`) or a Gmail label (servers with X-GM-EXT-1).
     */
    fileAs: z.enum(['folders', 'keywords', 'labels']).default('folders'),
  })
  .refine((m) => (m.passwordEnv === undefined) !== (m.oauth2 === undefined), {
    message: 'give exactly one of passwordEnv (a password) and oauth2 (Microsoft 365, Google Workspace)',
  })
  .transform((m) => ({
    ...m,
    port: m.port ?? (m.secure ? 993 : 143),
    password: UNRESOLVED,
    /** With oauth2: the sign-in with its secrets read (resolveIngestSecrets). */
    signIn: undefined as Secret<OAuth2SignIn> | undefined,
  }));

const webhook = z
  .strictObject({
    tenant,
    /** The endpoint secret (at least 16 characters): the last segment of /inbound/v1/<provider>/<token>. */
    tokenEnv: envName,
    mailgunSigningKeyEnv: envName.optional(),
    providers: z.array(z.enum(PROVIDERS)).min(1).optional(),
  })
  .transform((w) => ({ ...w, token: UNRESOLVED, mailgunSigningKey: undefined as Secret | undefined }));

export const MAILBOXES_SETTING = {
  env: 'MAILBOXES',
  schema: jsonArray(mailbox).default([]),
  example:
    '[{"name":"prealerts","tenant":"demo","host":"imap.example.com","user":"prealerts@example.com","passwordEnv":"PREALERTS_IMAP_PASSWORD"}]',
} as const;

export const INBOUND_WEBHOOKS_SETTING = {
  env: 'INBOUND_WEBHOOKS',
  schema: jsonArray(webhook).default([]),
  example: '[{"tenant":"demo","tokenEnv":"DEMO_INBOUND_TOKEN","mailgunSigningKeyEnv":"MAILGUN_SIGNING_KEY"}]',
} as const;

export type MailboxSetting = z.output<typeof mailbox>;
export type InboundWebhookSetting = z.output<typeof webhook>;

interface Issue {
  setting: string;
  problem: string;
  example: string;
}

/**
 * Fills each mailbox's password and each webhook's token and signing key from the variables they name,
 * and lists what is missing. Mutates the freshly parsed (not yet frozen) settings.
 */
export function resolveIngestSecrets(
  out: { mailboxes?: MailboxSetting[]; inboundWebhooks?: InboundWebhookSetting[] },
  env: Readonly<Record<string, string | undefined>>,
  issues: Issue[],
): void {
  const read = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const names = new Set<string>();
  for (const m of out.mailboxes ?? []) {
    if (names.has(m.name)) {
      issues.push({
        setting: 'MAILBOXES',
        problem: `two mailboxes are named "${m.name}"; names must differ`,
        example: MAILBOXES_SETTING.example,
      });
    }
    names.add(m.name);
    if (m.oauth2 !== undefined) {
      m.signIn = resolveSignIn(m.name, m.oauth2, read, issues);
      continue;
    }
    const v = m.passwordEnv === undefined ? undefined : read(m.passwordEnv);
    if (v === undefined) {
      issues.push({
        setting: m.passwordEnv ?? 'MAILBOXES',
        problem: `is not set, but mailbox "${m.name}" in MAILBOXES takes its password from it`,
        example: '(the IMAP password)',
      });
    } else {
      m.password = new Secret(v);
    }
  }
  for (const w of out.inboundWebhooks ?? []) {
    const token = read(w.tokenEnv);
    if (token === undefined || token.length < 16) {
      issues.push({
        setting: w.tokenEnv,
        problem: `${token === undefined ? 'is not set' : 'is shorter than 16 characters'}, but INBOUND_WEBHOOKS takes the endpoint token of tenant "${w.tenant}" from it`,
        example: '(a random string, e.g. from `openssl rand -hex 16`)',
      });
    } else {
      w.token = new Secret(token);
    }
    if (w.mailgunSigningKeyEnv !== undefined) {
      const key = read(w.mailgunSigningKeyEnv);
      if (key === undefined || isPlaceholder(key)) {
        issues.push({
          setting: w.mailgunSigningKeyEnv,
          problem:
            key === undefined
              ? `is not set, but INBOUND_WEBHOOKS takes tenant "${w.tenant}"'s Mailgun signing key from it`
              : `holds a placeholder ("${key}"), not a key, but INBOUND_WEBHOOKS checks tenant "${w.tenant}"'s Mailgun signatures with it; paste the real key`,
          example: '(Mailgun: Sending → Webhooks → HTTP webhook signing key)',
        });
      } else {
        w.mailgunSigningKey = new Secret(key);
      }
    }
  }
}

/** The OAuth2 sign-in with its secrets read, or undefined with an issue per missing variable. */
function resolveSignIn(
  mailbox: string,
  o: z.output<typeof oauth2>,
  read: (name: string) => string | undefined,
  issues: Issue[],
): Secret<OAuth2SignIn> | undefined {
  let complete = true;
  const need = (name: string, what: string): string => {
    const v = read(name);
    if (v !== undefined) return v;
    complete = false;
    issues.push({
      setting: name,
      problem: `is not set, but mailbox "${mailbox}" in MAILBOXES takes its ${what} from it`,
      example: `(the ${what})`,
    });
    return '';
  };
  let signIn: OAuth2SignIn;
  switch (o.provider) {
    case 'microsoft':
      signIn = {
        provider: 'microsoft',
        tenantId: o.tenantId,
        clientId: o.clientId,
        ...(o.clientSecretEnv === undefined
          ? {}
          : { clientSecret: need(o.clientSecretEnv, 'Entra ID client secret') }),
        ...(o.certificate === undefined
          ? {}
          : {
              certificate: {
                thumbprintSha256: o.certificate.thumbprintSha256,
                privateKey: need(o.certificate.privateKeyEnv, 'certificate private key (PEM)'),
              },
            }),
        ...(o.authorityHost === undefined ? {} : { authorityHost: o.authorityHost }),
      };
      break;
    case 'google-service-account': {
      const key = serviceAccountKey(need(o.keyEnv, 'service account key (JSON)'));
      if (key === null && complete) {
        complete = false;
        issues.push({
          setting: o.keyEnv,
          problem: `is not a service account key: mailbox "${mailbox}" needs the JSON key file's contents, with client_email and private_key`,
          example: '(Google Cloud: IAM → Service accounts → Keys → Add key → JSON)',
        });
      }
      signIn = {
        provider: 'google-service-account',
        clientEmail: key?.clientEmail ?? '',
        privateKey: key?.privateKey ?? '',
      };
      break;
    }
    case 'google-refresh-token':
      signIn = {
        provider: 'google-refresh-token',
        clientId: o.clientId,
        clientSecret: need(o.clientSecretEnv, 'Google OAuth client secret'),
        refreshToken: need(o.refreshTokenEnv, 'Google refresh token'),
      };
      break;
  }
  return complete ? new Secret(signIn) : undefined;
}

function serviceAccountKey(json: string): { clientEmail: string; privateKey: string } | null {
  try {
    const k = JSON.parse(json) as { client_email?: unknown; private_key?: unknown };
    return typeof k.client_email === 'string' && typeof k.private_key === 'string'
      ? { clientEmail: k.client_email, privateKey: k.private_key }
      : null;
  } catch {
    return null;
  }
}

/** A value copied from documentation rather than from the provider: "…", "...", "<key>", "changeme". */
function isPlaceholder(value: string): boolean {
  return /^(?:…+|\.{3,}|<.*>|changeme|your[-_ ]?key.*)$/i.test(value);
}
