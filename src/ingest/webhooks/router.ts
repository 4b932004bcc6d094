/**
 * Inbound-mail webhooks: an express Router that server.ts mounts at /inbound/v1, before any body parser
 * of its own (each route reads its body here, inside MAX_MESSAGE_BYTES).
 *
 *   POST /inbound/v1/postmark/<token>   Postmark inbound JSON
 *   POST /inbound/v1/mailgun/<token>    Mailgun route forward (urlencoded or multipart; `.../mime` URLs too)
 *   POST /inbound/v1/sendgrid/<token>   SendGrid Inbound Parse (multipart; parsed or raw mode)
 *   POST /inbound/v1/rfc822/<token>     a raw message, Content-Type: message/rfc822
 *
 * Each endpoint is bound to one tenant by its token: a secret in the URL path, which every provider lets
 * you paste as the destination URL; HTTP Basic auth with the token as the password
 * (`https://any:<token>@host/inbound/v1/postmark`) works too. Mailgun posts are also verified by their
 * HMAC signature. Every body becomes one raw RFC 822 message and goes through the intake (parseMail,
 * dedupe, submit), the same door as the IMAP poller. Status codes follow each provider's retry
 * conventions (refusal.ts).
 * Deliberately not here: which tenants exist, reading the environment, logging tokens or URLs.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Admission } from '../../admission/admission.ts';
import { drained, holdBodyBytes } from '../../admission/hold.ts';
import type { TenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { IngestLog } from '../ports.ts';
import { readForm } from './form.ts';
import { mailgunToRaw, verifyMailgun } from './mailgun.ts';
import { postmarkToRaw } from './postmark.ts';
import { statusFor, WebhookRefusal, type Provider } from './refusal.ts';
import { createSeenTokens, DEFAULT_MAX_TOKENS_PER_TENANT, type SpentTokenStore } from './seen-tokens.ts';
import { sendgridToRaw } from './sendgrid.ts';
import { mailgunReplayGuard } from './mailgun-replay.ts';

const PROVIDERS: readonly Provider[] = ['postmark', 'mailgun', 'sendgrid', 'rfc822'];

export interface InboundEndpoint {
  readonly tenant: TenantId;
  /** The endpoint secret: the last path segment of the URL, or the Basic auth password. */
  readonly token: string;
  /** Mailgun's HTTP webhook signing key; without it the mailgun route is not enabled for this endpoint. */
  readonly mailgunSigningKey?: string;
  /** The providers this endpoint accepts. Default all four. */
  readonly providers?: readonly Provider[];
}

export interface InboundRouterOptions {
  readonly endpoints: readonly InboundEndpoint[];
  readonly intake: Intake;
  readonly log: IngestLog;
  /** Largest raw message accepted, bytes (MAX_MESSAGE_BYTES); request bodies may be 1.4× this plus 64 KiB (base64). */
  readonly maxMessageBytes: number;
  /** The process's admission gate (src/admission): body bytes are reserved before a body is read. */
  readonly admission?: Admission;
  /** Oldest Mailgun timestamp accepted, seconds. Default 900. */
  readonly mailgunMaxAgeSeconds?: number;
  /** Most Mailgun tokens remembered per tenant while their signature is in the window (seen-tokens.ts). Default 100,000. */
  readonly mailgunMaxSeenTokens?: number;
  /** Where spent Mailgun tokens outlive a restart (issue 12.5). Absent: this process's memory only. */
  readonly spentTokens?: SpentTokenStore;
  /** Only for tests. Default Date.now. */
  readonly nowMs?: () => number;
}

const sha = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function createInboundRouter(options: InboundRouterOptions): Router {
  const endpoints = options.endpoints.map((e) => ({ ...e, hash: sha(e.token) }));
  const bodyLimit = Math.ceil(options.maxMessageBytes * 1.4) + 64 * 1024;
  const nowMs = options.nowMs ?? Date.now;
  const maxAgeSeconds = options.mailgunMaxAgeSeconds ?? 900;
  const json = express.json({ limit: bodyLimit, type: () => true });
  const raw = express.raw({ limit: bodyLimit, type: () => true });
  const log = options.log;
  // Owned by this router (one per server), so a test's server and its memory go together.
  const spendMailgunToken = mailgunReplayGuard(
    createSeenTokens(options.mailgunMaxSeenTokens ?? DEFAULT_MAX_TOKENS_PER_TENANT),
    maxAgeSeconds,
    options.spentTokens,
  );

  function bodyError(e: unknown): WebhookRefusal {
    if (e instanceof WebhookRefusal) return e;
    const type = (e as { type?: unknown }).type;
    if (type === 'entity.too.large') {
      return new WebhookRefusal(
        'too-large',
        'REQUEST_TOO_LARGE',
        `The request body is over ${bodyLimit} bytes; the largest message this agent reads is ${options.maxMessageBytes} bytes (MAX_MESSAGE_BYTES).`,
      );
    }
    if (type === 'entity.parse.failed') {
      return new WebhookRefusal('malformed', 'REQUEST_MALFORMED', 'The request body is not valid JSON.');
    }
    return new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      `The request body cannot be read: ${(e as Error).message}`,
    );
  }

  async function toRaw(
    provider: Provider,
    req: Request,
    res: Response,
    endpoint: InboundEndpoint,
    spent: { release?: () => Promise<void> },
  ): Promise<Buffer> {
    try {
      switch (provider) {
        case 'postmark':
          return await postmarkToRaw(await readBody(req, res, json));
        case 'mailgun': {
          if (endpoint.mailgunSigningKey === undefined) {
            throw new WebhookRefusal(
              'not-enabled',
              'NOT_FOUND',
              'Mailgun is not set up for this endpoint: configure its webhook signing key (mailgunSigningKeyEnv).',
            );
          }
          const form = await readForm(req, bodyLimit);
          const now = nowMs();
          verifyMailgun(form, { signingKey: endpoint.mailgunSigningKey, maxAgeSeconds, nowMs: now });
          spent.release = await spendMailgunToken(endpoint.tenant, form.fields, now);
          return await mailgunToRaw(form);
        }
        case 'sendgrid':
          return await sendgridToRaw(await readForm(req, bodyLimit));
        case 'rfc822': {
          if (!/^message\/rfc822\b/i.test(req.headers['content-type'] ?? '')) {
            throw new WebhookRefusal(
              'malformed',
              'REQUEST_MALFORMED',
              `Post the raw message with Content-Type: message/rfc822 (got "${req.headers['content-type'] ?? ''}").`,
            );
          }
          const body = await readBody(req, res, raw);
          if (!Buffer.isBuffer(body) || body.length === 0) {
            throw new WebhookRefusal(
              'malformed',
              'REQUEST_MALFORMED',
              'The request body is empty: post the raw message.',
            );
          }
          return body;
        }
      }
    } catch (e) {
      throw bodyError(e);
    }
  }

  const handle =
    (provider: Provider): RequestHandler =>
    async (req, res) => {
      let tenant: TenantId | undefined;
      const spent: { release?: () => Promise<void> } = {};
      try {
        const endpoint = endpointFor(endpoints, req);
        if (endpoint === null) {
          throw new WebhookRefusal(
            'unauthorized',
            'UNAUTHENTICATED',
            `No inbound endpoint has this token. Use the URL /inbound/v1/${provider}/<token> with a token from the INBOUND_WEBHOOKS setting.`,
          );
        }
        tenant = endpoint.tenant;
        if (endpoint.providers !== undefined && !endpoint.providers.includes(provider)) {
          throw new WebhookRefusal(
            'not-enabled',
            'NOT_FOUND',
            `This endpoint does not accept ${provider} posts (it accepts ${endpoint.providers.join(', ')}).`,
          );
        }
        // Admission: the body's bytes are reserved before it is received (providers retry on 503).
        if (options.admission !== undefined && !holdBodyBytes(options.admission, req, res, bodyLimit)) {
          res.setHeader('Retry-After', String(options.admission.limits.retryAfterSeconds));
          await drained(req); // answered once the provider has finished sending: never a reset
          throw new WebhookRefusal('busy', 'SERVER_BUSY', options.admission.busySentence());
        }
        const message = await toRaw(provider, req, res, endpoint, spent);
        const outcome = await options.intake.accept(
          endpoint.tenant,
          message,
          { kind: 'webhook', name: provider },
          { admission: 'try', bytesHeld: options.admission !== undefined },
        );
        answer(res, outcome);
      } catch (e) {
        await refuse(e, res, { provider, tenant, release: spent.release, log });
      }
    };

  const router = Router();
  for (const provider of PROVIDERS) {
    const h = handle(provider);
    router.post(`/${provider}/:token`, h);
    router.post(`/${provider}/:token/mime`, h); // Mailgun sends body-mime to URLs ending in "mime"
    router.post(`/${provider}`, h);
  }
  return router;
}

function endpointFor<E extends { readonly hash: Buffer }>(endpoints: readonly E[], req: Request): E | null {
  let token = typeof req.params.token === 'string' ? req.params.token : undefined;
  const auth = req.headers.authorization;
  if (token === undefined && auth !== undefined && /^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    token = decoded.slice(decoded.indexOf(':') + 1);
  }
  if (token === undefined || token === '') return null;
  const h = sha(token);
  // Compare against every endpoint so the time taken does not tell which prefix matched.
  let found: E | null = null;
  for (const e of endpoints) if (timingSafeEqual(e.hash, h)) found = e;
  return found;
}

async function readBody(req: Request, res: Response, parser: RequestHandler): Promise<unknown> {
  await new Promise<void>((resolve, reject) => {
    parser(req, res, ((err?: unknown) =>
      err === undefined
        ? resolve()
        : reject(err instanceof Error ? err : new Error(JSON.stringify(err)))) as NextFunction);
  });
  return req.body;
}

/** The intake's outcome as the provider is answered: 200 with the task, or the refusal to throw. */
function answer(res: Response, outcome: Awaited<ReturnType<Intake['accept']>>): void {
  switch (outcome.kind) {
    case 'submitted':
    case 'duplicate':
      res.status(200).json({
        status: outcome.kind === 'submitted' ? 'accepted' : 'duplicate',
        taskId: outcome.taskId,
        state: outcome.state,
      });
      return;
    case 'busy':
      res.setHeader('Retry-After', '30');
      throw new WebhookRefusal(
        'busy',
        'CONFLICT',
        'This message is being triaged right now through another path; retry in a little while.',
      );
    case 'overloaded':
      res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      throw new WebhookRefusal('busy', 'SERVER_BUSY', outcome.reason);
    case 'unreadable':
      throw new WebhookRefusal(
        outcome.code === 'MESSAGE_TOO_LARGE' ? 'too-large' : 'unreadable',
        outcome.code,
        outcome.reason,
      );
  }
}

/**
 * A post refused, in the provider's own status convention (refusal.ts). A post answered "retry" has
 * not spent its signature: Mailgun's retry carries the same one.
 */
async function refuse(
  e: unknown,
  res: Response,
  on: {
    readonly provider: Provider;
    readonly tenant: TenantId | undefined;
    readonly release: (() => Promise<void>) | undefined;
    readonly log: IngestLog;
  },
): Promise<void> {
  const { provider, tenant, release, log } = on;
  const refusal =
    e instanceof WebhookRefusal
      ? e
      : new WebhookRefusal(
          'fault',
          'INTERNAL',
          'The message could not be triaged just now; it is safe to retry.',
        );
  // A post answered "retry" has not spent its signature: Mailgun's retry carries the same one.
  if (refusal.kind === 'busy' || refusal.kind === 'fault') {
    await release?.().catch((releaseError: unknown) =>
      log.error(
        {
          provider,
          tenant,
          error: releaseError instanceof Error ? releaseError.message : String(releaseError),
        },
        'a spent Mailgun token could not be given back; its retry will be refused as a replay',
      ),
    );
  }
  if (!(e instanceof WebhookRefusal)) {
    log.error(
      { provider, tenant, error: e instanceof Error ? e.message : String(e) },
      'inbound webhook failed',
    );
  } else {
    log.warn({ provider, tenant, code: refusal.code, reason: refusal.message }, 'inbound webhook refused');
  }
  if (!res.headersSent) {
    res
      .status(statusFor(provider, refusal.kind))
      .json({ error: { code: refusal.code, message: refusal.message } });
  }
}
