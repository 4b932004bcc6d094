// Invariant (issue 51): the memory budget's estimates are what a tenant's reading holds. A child
// process (bench/tenant-estimate.ts, --expose-gc) loads one tenant's active definition through a
// fresh authority and compiles its matcher, then measures what each part frees when it forgets the
// tenant (V8's used heap plus memory outside it, between full collections, the median of three
// rounds, the collector single-threaded so that no concurrent sweep is left when it is read: on a
// loaded machine one round once measured 1,000 customers 40 % short); each part's estimate
// (authority.memory, the matcher cache's bytesOf) is within 25 % of it. Two directory shapes, 1,000
// and 10,000 customers. (10 customers: the measure's noise, tens of KB, is larger than the tenant.)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../bench/tenant-estimate.ts', import.meta.url));

interface Measured {
  readonly definitionMeasured: number;
  readonly definitionEstimated: number;
  readonly matcherMeasured: number;
  readonly matcherEstimated: number;
  readonly entries: number;
}

function measure(customers: number, shape: 'bench' | 'rich'): Measured {
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--single-threaded-gc',
      '--import',
      'tsx',
      script,
      `--customers=${customers}`,
      `--shape=${shape}`,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Measured;
}

describe("the memory budget's estimates against the heap (issue 51)", () => {
  it.each([
    [1_000, 'bench'],
    [1_000, 'rich'],
    [10_000, 'bench'],
  ] as const)(
    '%i customers, %s directory: each part within a quarter of its measure',
    (customers, shape) => {
      const m = measure(customers, shape);
      expect(m.entries).toBe(customers);
      expect(m.definitionEstimated / m.definitionMeasured).toBeGreaterThan(0.75);
      expect(m.definitionEstimated / m.definitionMeasured).toBeLessThan(1.25);
      expect(m.matcherEstimated / m.matcherMeasured).toBeGreaterThan(0.75);
      expect(m.matcherEstimated / m.matcherMeasured).toBeLessThan(1.25);
    },
    120_000,
  );
});
