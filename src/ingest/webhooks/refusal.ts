/**
 * Why a webhook request was refused, and the one place that turns a refusal into an HTTP status in each
 * provider's retry conventions (from each provider's webhook documentation):
 * - Postmark retries anything but 200, and stops on 403.
 * - Mailgun retries anything but 2xx, and stops on 406.
 * - SendGrid retries anything but 2xx for three days; nothing stops it.
 *
 * | kind          | meaning                                                    | postmark | mailgun | sendgrid, rfc822 |
 * |---------------|------------------------------------------------------------|----------|---------|------------------|
 * | unauthorized  | no or unknown endpoint token (a fixable setup mistake)     | 401      | 401     | 401              |
 * | forged        | Mailgun signature wrong, stale or already used (replayed)  | —        | 406     | —                |
 * | malformed     | the payload is not the provider's format                   | 403      | 406     | 400 (415 rfc822) |
 * | too-large     | over MAX_MESSAGE_BYTES                                     | 403      | 406     | 413              |
 * | unreadable    | parseMail refused the message                              | 403      | 406     | 422              |
 * | not-enabled   | the provider is not set up for this endpoint               | 404      | 404     | 404              |
 * | busy          | the same message is being triaged by another path now      | 503      | 503     | 503              |
 * | fault         | our fault (store, triage): retrying helps                  | 503      | 503     | 503              |
 *
 * Retrying a permanent refusal cannot help, so where the provider has a "stop" status it gets it; the
 * refusal is logged with its reason, and the provider shows our body in its activity log.
 */
import type { ErrorCode } from '../../domain/errors.ts';

export type RefusalKind =
  'unauthorized' | 'forged' | 'malformed' | 'too-large' | 'unreadable' | 'not-enabled' | 'busy' | 'fault';

export type Provider = 'postmark' | 'mailgun' | 'sendgrid' | 'rfc822';

export class WebhookRefusal extends Error {
  readonly kind: RefusalKind;
  readonly code: ErrorCode;

  constructor(kind: RefusalKind, code: ErrorCode, message: string) {
    super(message);
    this.name = 'WebhookRefusal';
    this.kind = kind;
    this.code = code;
  }
}

export function statusFor(provider: Provider, kind: RefusalKind): number {
  switch (kind) {
    case 'unauthorized':
      return 401;
    case 'not-enabled':
      return 404;
    case 'busy':
    case 'fault':
      return 503;
    case 'forged':
      return provider === 'mailgun' ? 406 : 401;
    case 'malformed':
    case 'too-large':
    case 'unreadable':
      if (provider === 'postmark') return 403;
      if (provider === 'mailgun') return 406;
      if (kind === 'too-large') return 413;
      if (kind === 'unreadable') return 422;
      return provider === 'rfc822' ? 415 : 400;
  }
}
