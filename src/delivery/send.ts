/**
 * One POST of one delivery, over node:http(s) with the URL guard's lookup on the socket,
 * so the address connected to is the address checked (url-guard.ts). A push notification carries
 * the client's token (`X-A2A-Notification-Token`, the SDK's header) or its `Authorization`, and the
 * delivery's id in `X-A2A-Notification-Id`; a tenant webhook is signed the Standard Webhooks way
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`, with the `standardwebhooks` package), so
 * a receiver verifies it with the library it already uses. Either way the id is the same on every
 * retry: a receiver drops what it has seen (delivery is at least once).
 */
import http from 'node:http';
import https from 'node:https';
import { A2A_CONTENT_TYPE } from '@a2a-js/sdk';
import { Webhook } from 'standardwebhooks';
import type { DeliveryTarget, DueDelivery } from '../domain/delivery.ts';
import { RefusedUrlError, type UrlGuard } from './url-guard.ts';

/** What a try came to: delivered, worth another try, or never (the URL is refused). */
export type SendOutcome =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'retry'; readonly error: string }
  | { readonly kind: 'refused'; readonly error: string };

export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';
export const NOTIFICATION_ID_HEADER = 'X-A2A-Notification-Id';

export async function sendDelivery(
  delivery: DueDelivery,
  target: DeliveryTarget,
  guard: UrlGuard,
  timeoutMs: number,
): Promise<SendOutcome> {
  let url: URL;
  try {
    // No DNS here: the socket resolves the name once, through the guard (url-guard.ts).
    url = guard.checkRules(target.url);
  } catch (e) {
    return { kind: 'refused', error: e instanceof Error ? e.message : String(e) };
  }
  const headers =
    delivery.targetKind === 'push' ? pushHeaders(delivery, target) : webhookHeaders(delivery, target);
  try {
    const status = await post(url, headers, delivery.body, guard, timeoutMs);
    if (status >= 200 && status < 300) return { kind: 'delivered' };
    return { kind: 'retry', error: `HTTP ${status} from ${url.host}` };
  } catch (e) {
    if (e instanceof RefusedUrlError) return { kind: 'refused', error: e.message };
    const code = (e as { code?: string }).code;
    return {
      kind: 'retry',
      error: `${code ?? 'error'} reaching ${url.host}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

function pushHeaders(delivery: DueDelivery, target: DeliveryTarget): Record<string, string> {
  return {
    'content-type': A2A_CONTENT_TYPE,
    [NOTIFICATION_ID_HEADER]: delivery.id,
    ...(target.authorization !== undefined
      ? { authorization: target.authorization }
      : target.token !== undefined
        ? { [NOTIFICATION_TOKEN_HEADER]: target.token }
        : {}),
  };
}

function webhookHeaders(delivery: DueDelivery, target: DeliveryTarget): Record<string, string> {
  const at = new Date();
  const signature = new Webhook(target.secret ?? '').sign(delivery.id, at, delivery.body);
  return {
    'content-type': 'application/json',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/** POSTs `body`; resolves with the status once the response ends (its body is drained, not kept). */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  guard: UrlGuard,
  timeoutMs: number,
): Promise<number> {
  const payload = Buffer.from(body, 'utf8');
  const lookup = guard.lookupFor(url);
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length), 'user-agent': 'learnables-triage' },
        timeout: timeoutMs,
        ...(lookup === undefined ? {} : { lookup }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    req.on('error', reject);
    req.end(payload);
  });
}
