/**
 * Sends what the outbox owes: after each commit that may have owed something (`kick`),
 * when a retry falls due, and every `pollMs` (deliveries another process wrote, or left claimed
 * when it died). Each delivery is claimed before it is sent, tried with a timeout, and then marked
 * delivered, retried with exponential backoff and jitter, or given up after `maxAttempts` (or at
 * once when its URL is refused). At least once: a process killed between the POST and the mark
 * sends it again after the claim runs out, with the same id.
 */
import type { DeliveryOutbox, DueDelivery } from '../domain/delivery.ts';
import { sendDelivery, type SendOutcome } from './send.ts';
import type { UrlGuard } from './url-guard.ts';

export interface DispatcherLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface DispatcherOptions {
  readonly outbox: DeliveryOutbox;
  readonly guard: UrlGuard;
  readonly log: DispatcherLog;
  /** DELIVERY_MAX_ATTEMPTS. */
  readonly maxAttempts: number;
  /** One POST's bound, ms. Default 5000 (the SDK's sender's). */
  readonly timeoutMs?: number;
  /** DELIVERY_RETRY_BASE_MS: the first retry's wait, ms; each next doubles, up to MAX_BACKOFF_MS. */
  readonly baseBackoffMs: number;
  /** DELIVERY_RETENTION_DAYS in ms: delivered and given-up rows older than this are pruned. */
  readonly retentionMs: number;
  /** DELIVERY_POLL_MS: how often the outbox is read without a kick, ms. */
  readonly pollMs: number;
  /** Told the backlog after each round (the metric). */
  readonly onBacklog?: (pending: number) => void;
  readonly onOutcome?: (kind: DueDelivery['targetKind'], outcome: 'delivered' | 'retry' | 'failed') => void;
  readonly nowMs?: () => number;
}

export interface Dispatcher {
  /** Something may be owed now. */
  kick(): void;
  start(): void;
  /** Stops timers and waits for the round in progress. */
  stop(): Promise<void>;
}

const BATCH = 32;
/** The longest wait between two tries of one delivery, ms (config.ts says "up to five minutes"). */
export const MAX_BACKOFF_MS = 300_000;
/** How often finished rows are pruned, at most, ms. */
const PRUNE_EVERY_MS = 3_600_000;

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const nowMs = options.nowMs ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 5000;
  const pollMs = options.pollMs;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let prunedAt = -Infinity;

  const schedule = (ms: number): void => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(ms, pollMs)));
    timer.unref();
  };

  async function round(): Promise<void> {
    for (;;) {
      const due = await options.outbox.claimDue(nowMs(), timeoutMs + 5000, BATCH);
      await Promise.all(due.map((d) => deliver(d)));
      if (due.length < BATCH) break;
    }
    if (nowMs() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = nowMs();
      const gone = await options.outbox.prune(new Date(nowMs() - options.retentionMs).toISOString());
      if (gone > 0) options.log.info({ pruned: gone }, 'finished deliveries pruned');
    }
    const pending = await options.outbox.pending();
    options.onBacklog?.(pending.count);
    schedule(pending.nextDueMs === null ? pollMs : pending.nextDueMs - nowMs());
  }

  async function deliver(d: DueDelivery): Promise<void> {
    const outcome: SendOutcome =
      d.target === null
        ? { kind: 'refused', error: 'its config or endpoint was deleted' }
        : await sendDelivery(d, d.target, options.guard, timeoutMs);
    const at = new Date(nowMs()).toISOString();
    const fields = {
      deliveryId: d.id,
      tenant: d.tenant,
      target: d.targetKind,
      taskId: d.taskId,
      attempt: d.attempts,
    };
    if (outcome.kind === 'delivered') {
      await options.outbox.delivered(d.tenant, d.id, at);
      options.onOutcome?.(d.targetKind, 'delivered');
      return;
    }
    if (outcome.kind === 'refused' || d.attempts >= options.maxAttempts) {
      await options.outbox.gaveUp(d.tenant, d.id, at, outcome.error);
      options.log.warn({ ...fields, error: outcome.error }, 'delivery given up');
      options.onOutcome?.(d.targetKind, 'failed');
      return;
    }
    await options.outbox.retryAt(
      d.tenant,
      d.id,
      nowMs() + backoffMs(d.attempts, options.baseBackoffMs),
      outcome.error,
    );
    options.log.info({ ...fields, error: outcome.error }, 'delivery will be retried');
    options.onOutcome?.(d.targetKind, 'retry');
  }

  function run(): void {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = round()
      .catch((e: unknown) => {
        options.log.warn({ error: e instanceof Error ? e.message : String(e) }, 'delivery round failed');
        schedule(pollMs);
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  }

  return {
    kick: run,
    start() {
      stopped = false;
      run();
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}

/** The wait before try `attempt + 1`: base × 2^(attempt − 1), capped at MAX_BACKOFF_MS, ±20 % jitter. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const plain = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (0.8 + random() * 0.4));
}
