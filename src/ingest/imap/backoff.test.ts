// Invariant: reconnect delays double from the initial delay, never exceed the cap, and keep at least half their value under jitter.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.ts';

const options = { initialMs: 500, maxMs: 60_000 };

describe('backoffDelayMs', () => {
  it('doubles per attempt up to the cap (no jitter at random()=1)', () => {
    expect([0, 1, 2, 3, 10, 100].map((a) => backoffDelayMs(a, options, () => 1))).toEqual([
      500, 1_000, 2_000, 4_000, 60_000, 60_000,
    ]);
  });

  it('jitters within [half, full] of the step', () => {
    expect(backoffDelayMs(3, options, () => 0)).toBe(2_000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelayMs(4, options);
      expect(d).toBeGreaterThanOrEqual(4_000);
      expect(d).toBeLessThanOrEqual(8_000);
    }
  });
});
