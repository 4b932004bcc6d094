// Invariant (issues 40, 50): the dispatcher waits DELIVERY_RETRY_BASE_MS before the first retry and doubles it up to five minutes, gives a delivery up after DELIVERY_MAX_ATTEMPTS, and prunes finished deliveries older than DELIVERY_RETENTION_DAYS.
import { describe, expect, it } from 'vitest';
import type { DeliveryOutbox, DueDelivery } from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { backoffMs, createDispatcher, MAX_BACKOFF_MS } from './dispatcher.ts';
import { createUrlGuard } from './url-guard.ts';
import { freePort } from '../../test/support/receiver.ts';

describe('the retry wait', () => {
  it('starts at the base, doubles each try, stops at five minutes, within ±20 %', () => {
    const middle = () => 0.5;
    expect(backoffMs(1, 2000, middle)).toBe(2000);
    expect(backoffMs(2, 2000, middle)).toBe(4000);
    expect(backoffMs(4, 2000, middle)).toBe(16_000);
    expect(backoffMs(30, 2000, middle)).toBe(MAX_BACKOFF_MS);
    expect(MAX_BACKOFF_MS).toBe(300_000);
    expect(backoffMs(1, 2000, () => 0)).toBe(1600);
    expect(backoffMs(1, 2000, () => 0.999999)).toBe(2400);
  });
});

describe('the dispatcher', () => {
  it('retries after the configured base, gives up after the last try, and prunes past the retention', async () => {
    const port = await freePort();
    const now = Date.UTC(2026, 11, 6);
    const calls: string[] = [];
    let attempts = 0;
    const due = (): DueDelivery => ({
      id: 'd1',
      tenant: 'acme' as TenantId,
      targetKind: 'push',
      targetId: 'c',
      taskId: 't1',
      event: 'decided',
      body: '{}',
      attempts: ++attempts,
      target: { url: `http://127.0.0.1:${port}/hook` },
    });
    let owed = 2;
    const outbox: DeliveryOutbox = {
      claimDue: () => Promise.resolve(owed-- > 0 ? [due()] : []),
      delivered: () => Promise.resolve(),
      retryAt: (_t, _id, dueMs) => {
        calls.push(`retry +${dueMs - now}`);
        return Promise.resolve();
      },
      gaveUp: (_t, _id, _at, error) => {
        calls.push(`gave up: ${error}`);
        return Promise.resolve();
      },
      pending: () => Promise.resolve({ count: 0, nextDueMs: null }),
      prune: (before) => {
        calls.push(`prune ${before}`);
        return Promise.resolve(0);
      },
    };
    // A real guard and a port nothing listens on: every send fails as a receiver that is down.
    const guard = createUrlGuard({ allowedHosts: [`127.0.0.1:${port}`] });
    const dispatcher = createDispatcher({
      outbox,
      guard,
      log: { info: () => {}, warn: () => {} },
      maxAttempts: 2,
      baseBackoffMs: 700,
      retentionMs: 30 * 86_400_000,
      pollMs: 5000,
      nowMs: () => now,
    });
    dispatcher.start();
    await new Promise((r) => setTimeout(r, 200));
    dispatcher.kick();
    await new Promise((r) => setTimeout(r, 200));
    await dispatcher.stop();
    // Pruned once (at most hourly), of what finished before the retention window.
    expect(calls.filter((c) => c.startsWith('prune'))).toEqual([
      `prune ${new Date(now - 30 * 86_400_000).toISOString()}`,
    ]);
    const retry = calls.find((c) => c.startsWith('retry'));
    expect(Number(retry?.slice('retry +'.length))).toBeGreaterThanOrEqual(560);
    expect(Number(retry?.slice('retry +'.length))).toBeLessThanOrEqual(840);
    expect(calls.some((c) => c.startsWith('gave up'))).toBe(true);
  });
});
