/**
 * The cost table `npm run bench` prints (bench/summary.ts, issue 29): each row is judged against
 * its own target from the section's figures, a section not run is said to be not run, and nothing
 * is judged on a figure that is absent. The figures here are made up around each limit.
 */
import { describe, expect, it } from 'vitest';
import { summaryRows, summaryTable, type SummaryRow } from '../../bench/summary.ts';

const row = (rows: SummaryRow[], measure: RegExp): SummaryRow => {
  const found = rows.find((r) => measure.test(r.measure));
  if (found === undefined) throw new Error(`no row ${measure}`);
  return found;
};

const server = (cpuRatio: number, cpuMs = 2.5, interleaved?: object) => ({
  throughput: {
    customers: 10_000,
    real: { cpuMsPerRequest: cpuMs, reqPerSec: 900 },
    minimal: { reqPerSec: 2000 },
    minimalDurable: { cpuMsPerRequest: 0.8 },
    ratio: 0.45,
    cpuRatioAgainstDurable: cpuRatio,
    loadAverage: [0.7, 0.5, 0.4],
    ...(interleaved === undefined ? {} : { interleaved }),
  },
});

const budget = (rssMiB: number, cacheMiB: number) => ({
  budgetMiB: 400,
  idleRssMiB: 200,
  rssMiB,
  cacheMiB,
  evictions: 3,
  coldP50Ms: 100,
  warmP50Ms: 8,
});

describe('the bench cost table (issue 29)', () => {
  it('says "not run" for every section whose JSON is absent, and judges nothing', () => {
    const rows = summaryRows(() => undefined);
    expect(rows.length).toBe(12);
    for (const r of rows) {
      expect(r.met).toBeNull();
      expect(r.value).toMatch(/^not run/);
    }
    expect(summaryTable(rows)).toContain('0 met, 0 missed, 12 not measured.');
  });

  it('judges CPU per triage on the ratio to the durable minimal agent, or on 2.0 ms (issue 41)', () => {
    const cpu = (s: object) =>
      row(
        summaryRows((n) => (n === 'server' ? s : undefined)),
        /^CPU per settled triage, SQLite/,
      );
    expect(cpu(server(0.5)).met).toBe(true);
    expect(cpu(server(0.49)).met).toBe(false);
    expect(cpu(server(0.3, 2.0)).met).toBe(true);
    expect(cpu(server(0.5)).load).toBe(0.7);
    expect(
      row(
        summaryRows((n) => (n === 'server' ? server(0.5) : undefined)),
        /^throughput/,
      ).met,
    ).toBe(true);
  });

  it('judges CPU per triage on the interleaved median when the run has it, and prints its spread', () => {
    const interleaved = (ratio: number, agentMs: number) => ({
      rounds: 5,
      agentMs,
      minimalMs: 0.8,
      ratio,
      ratioLow: ratio - 0.05,
      ratioHigh: ratio + 0.05,
      loadBefore: 0.4,
      loadAfter: 1.2,
    });
    const cpu = (s: object) =>
      row(
        summaryRows((n) => (n === 'server' ? s : undefined)),
        /^CPU per settled triage, SQLite/,
      );
    const missed = cpu(server(0.9, 1.0, interleaved(0.3, 2.7)));
    expect(missed.met).toBe(false);
    expect(missed.value).toContain('2.7 ms');
    expect(missed.value).toContain('median of 5 interleaved rounds, 0.25 to 0.35');
    expect(missed.load).toBe(1.2);
    expect(cpu(server(0.1, 9, interleaved(0.5, 2.7))).met).toBe(true);
  });

  it('holds many tenants to budget + idle, and the estimate to 20 % of the RSS it added', () => {
    const tenants = (roomy: object, tight: object) => ({
      tenants: 1000,
      customers: 1000,
      roomyBudget: roomy,
      tightBudget: tight,
      loadBefore: [0.2],
      loadAfter: [1.9],
    });
    const within = summaryRows((n) =>
      n === 'tenants' ? tenants(budget(600, 360), budget(600, 380)) : undefined,
    );
    const roomy = row(within, /tenants × .* customers, memory budget/);
    expect(roomy.measure).toContain('1,000 tenants × 1,000 customers');
    expect(roomy.met).toBe(true);
    expect(roomy.load).toBe(1.9);
    expect(row(within, /with a .* budget/).met).toBe(true);
    expect(row(within, /warm second round/).met).toBe(true);
    // Over budget + idle; an estimate 40 % under what the cache added.
    const over = summaryRows((n) =>
      n === 'tenants' ? tenants(budget(601, 360), budget(700, 300)) : undefined,
    );
    expect(row(over, /tenants × .* customers, memory budget/).met).toBe(false);
    expect(row(over, /with a .* budget/).met).toBe(false);
    const offEstimate = summaryRows((n) =>
      n === 'tenants' ? tenants(budget(500, 180), budget(500, 180)) : undefined,
    );
    expect(row(offEstimate, /tenants × .* customers, memory budget/).met).toBe(false);
  });

  it('judges lesson to effect on every topology that ran, against its own target', () => {
    const prop = (replicas: number) => ({
      embedded: { medianMs: 15, targetMs: 20 },
      processes: { medianMs: 30, targetMs: 50 },
      replicas: { medianMs: replicas, targetMs: 100 },
      split: { medianMs: 40, targetMs: 50 },
      loadAverageBefore: [0.3],
    });
    expect(
      row(
        summaryRows((n) => (n === 'propagation' ? prop(99) : undefined)),
        /^lesson to effect/,
      ).met,
    ).toBe(true);
    expect(
      row(
        summaryRows((n) => (n === 'propagation' ? prop(101) : undefined)),
        /^lesson to effect/,
      ).met,
    ).toBe(false);
  });

  it('takes the PostgreSQL row from the one-replica line of scale-out: agent + database, and round trips (issue 41)', () => {
    const scaleOut = (db: number, trips: number | null) => ({
      loadAverage: [1],
      rows: [
        { name: 'SQLite, 1 process', cpuMsPerMessage: 1 },
        {
          name: 'PostgreSQL, 1 replica',
          cpuMsPerMessage: 1.9,
          databaseCpuMsPerMessage: db,
          ...(trips === null ? {} : { roundTripsPerMessage: trips }),
          transactionControlPerMessage: 2,
        },
        { name: 'PostgreSQL, 2 replicas', cpuMsPerMessage: 9, databaseCpuMsPerMessage: 9 },
      ],
    });
    const pg = (db: number, trips: number | null = 4) =>
      row(
        summaryRows((n) => (n === 'scale-out' ? scaleOut(db, trips) : undefined)),
        /PostgreSQL/,
      );
    expect(pg(1.5).met).toBe(true);
    expect(pg(1.7).met).toBe(false);
    expect(pg(1.5, 4.1).met).toBe(false);
    expect(pg(1.5, null).met).toBeNull(); // an older file, without the count
    expect(pg(1.5).value).toBe('1.9 + 1.5 ms; 4 round trips (2 begin or commit)');
  });
});
