/**
 * Wrong tokens are throttled per source: every 401 a source earns spends one token of its
 * bucket (AUTH_FAILURE_BURST deep, refilled at AUTH_FAILURES_PER_MINUTE); a source whose bucket is
 * empty is answered 429 with Retry-After before its token is even looked up, so guessing costs time
 * while every other source — and the valid callers among them — is served as before. A source is the
 * peer address (`trust proxy` is off: a forwarded header is the sender's claim, not its address).
 *
 * Token comparison needs no constant-time equality here: a presented token is hashed (sha256) and
 * the hash is looked up by an index (src/store/sqlite-token-store.ts); what a lookup's timing could
 * reveal is about the hash, and an attacker who cannot invert sha256 learns nothing about a real
 * token from it. The webhook path compares its endpoint token hashes with timingSafeEqual.
 *
 * Owns the buckets (bounded: the oldest source is forgotten past maxSources) and the middleware.
 * Does not authenticate: it only counts the 401s that bearerAuth and the webhooks answer.
 */
import type { RequestHandler } from 'express';

export interface AuthThrottleLimits {
  /** Failures a source may make at once before it is throttled. Default 20. */
  readonly burst: number;
  /** Failures per minute a source regains. Default 30. */
  readonly perMinute: number;
  /** Sources remembered at once; the oldest is forgotten beyond. Default 10,000. */
  readonly maxSources?: number;
}

export interface AuthThrottle {
  /** Express middleware: mount before every authenticated route. */
  readonly middleware: RequestHandler;
  /** Seconds until `source` may try again, or 0. */
  retryAfterSeconds(source: string, nowMs?: number): number;
  /** Counts one failed authentication of `source`. */
  failed(source: string, nowMs?: number): void;
  /** Failures answered 429 since start. */
  throttled(): number;
}

/** Public routes a throttled source still reads: the card, health, the console's files. */
const PUBLIC = /^\/(?:\.well-known\/|healthz|readyz|console(?:\/|$))/;

export function createAuthThrottle(limits: AuthThrottleLimits): AuthThrottle {
  const maxSources = limits.maxSources ?? 10_000;
  const perMs = limits.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; atMs: number }>();
  let throttledCount = 0;

  const level = (source: string, nowMs: number): number => {
    const b = buckets.get(source);
    if (b === undefined) return limits.burst;
    return Math.min(limits.burst, b.tokens + (nowMs - b.atMs) * perMs);
  };
  const retryAfterSeconds = (source: string, nowMs = Date.now()): number => {
    const tokens = level(source, nowMs);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  };
  const failed = (source: string, nowMs = Date.now()): void => {
    const tokens = Math.max(0, level(source, nowMs) - 1);
    buckets.delete(source); // re-inserted last: the Map's order is the order of last failure
    buckets.set(source, { tokens, atMs: nowMs });
    if (buckets.size > maxSources) buckets.delete(buckets.keys().next().value!);
  };

  const middleware: RequestHandler = (req, res, next) => {
    const source = req.socket.remoteAddress ?? 'unknown';
    if (!PUBLIC.test(req.path)) {
      const wait = retryAfterSeconds(source);
      if (wait > 0) {
        throttledCount++;
        res.setHeader('Retry-After', String(wait));
        res.status(429).json({
          error: {
            code: 'AUTH_THROTTLED',
            message: `Too many requests from ${source} failed authentication; none is checked for ${wait} s. Use a valid token (an operator creates one with \`learnables-triage tokens create\`) and retry after ${wait} s.`,
          },
        });
        req.resume();
        return;
      }
    }
    res.once('finish', () => {
      if (res.statusCode === 401) failed(source);
    });
    next();
  };

  return { middleware, retryAfterSeconds, failed, throttled: () => throttledCount };
}
