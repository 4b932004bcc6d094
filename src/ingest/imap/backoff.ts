/** Exponential backoff with a cap and jitter, for reconnects and retried batches. */

export interface BackoffOptions {
  /** First delay, ms. */
  readonly initialMs: number;
  /** Largest delay, ms. */
  readonly maxMs: number;
}

/**
 * The delay before attempt `attempt` (0-based): initialMs·2^attempt capped at maxMs, then "equal jitter"
 * (half fixed, half random) so a fleet of pollers does not reconnect to a restarted server in lock-step.
 */
export function backoffDelayMs(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exp = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(exp / 2 + (exp / 2) * random());
}
