/**
 * The cost table of issues 29 and 41, printed at the end of `npm run bench` (and alone with
 * `npm run bench -- <folder> --summary`): one row per measure, read from the sections' JSON in the
 * output folder, against its target, with the load average its section saw. A section not run gives
 * "not run"; a section's file from an earlier run than this one says so by its age.
 *
 * Where a row's target has a machine-bound figure and a ratio (CPU per triage: 1.4 ms, ratio 0.6 to
 * the durable minimal agent), "met" is judged on the ratio, which carries from machine to machine.
 * Reads only: every figure is the section's own.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface SummaryRow {
  readonly measure: string;
  readonly value: string;
  readonly target: string;
  /** null: the section was not run, or its file lacks the figure. */
  readonly met: boolean | null;
  /** The highest one-minute load average the section recorded, when it did. */
  readonly load: number | null;
}

/**
 * Issue 29's targets, each named once: the table judges by them, and the sections that print a
 * verdict of their own (tenants, large-mail) import theirs from here.
 */
export const ISSUE_29_TARGETS = {
  /**
   * CPU per settled triage (issue 41: ≤ 2.0 ms, or a ratio ≥ 0.5 to the durable minimal agent's in
   * the same run, judged on the interleaved median; the ratio carries between machines).
   */
  cpuRatio: 0.5,
  cpuMs: 2.0,
  throughputRatio: 0.3,
  /** Issue 41: PostgreSQL, one replica: agent + database CPU per settled triage, and round trips. */
  postgresTotalMs: 3.5,
  postgresRoundTrips: 4,
  /** The estimate within this share of the RSS the cache added. */
  estimateShare: 0.2,
  warmP50Ms: 10,
  coldP50Ms: 150,
  bigRssMiB: 300,
  bigFirstTriageMs: 1000,
  largeMailMs: 1500,
  /** Issue 41: metrics, and the log, each cost at most this per settled triage. */
  layerMs: 0.05,
  /** Bytes per lesson at the largest directory within this many times the smallest's. */
  storageGrowth: 4,
} as const;
const T = ISSUE_29_TARGETS;

/** A section's JSON by its name (`server` for server.json); undefined when it is not there. */
export type SectionReader = (name: string) => unknown;

/* eslint-disable @typescript-eslint/no-explicit-any -- the sections' own JSON, read loosely and checked figure by figure */

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const fmt = (x: number | null, places = 1): string =>
  x === null ? '?' : String(Math.round(x * 10 ** places) / 10 ** places);
/** A count or size: rounded, with thousands separated (10,000). */
const int = (x: number | null): string => (x === null ? '?' : Math.round(x).toLocaleString('en'));
/** The highest of the one-minute load averages given (each a loadavg() array or a number). */
const highestLoad = (...xs: unknown[]): number | null => {
  const loads = xs.flatMap((x) => (Array.isArray(x) ? [num(x[0])] : [num(x)])).filter((x) => x !== null);
  return loads.length === 0 ? null : Math.max(...loads);
};
const notRun = (measure: string, target: string, section: string): SummaryRow => ({
  measure,
  value: `not run (the ${section} section)`,
  target,
  met: null,
  load: null,
});

function cpuRows(server: any): SummaryRow[] {
  const cpuTarget = `≤ ${T.cpuMs.toFixed(1)} ms, or ratio ≥ ${T.cpuRatio}`;
  const tputTarget = `ratio ≥ ${T.throughputRatio}`;
  const t = server?.throughput;
  if (t === undefined)
    return [
      notRun('CPU per settled triage, SQLite, 10,000 customers', cpuTarget, 'server'),
      notRun('throughput, one process, against the minimal in-memory agent', tputTarget, 'server'),
    ];
  const load = highestLoad(t.loadAverage, t.interleaved?.loadBefore, t.interleaved?.loadAfter);
  // The interleaved median (issue 41) when the run has it; an older file has the single-shot figure.
  const i = t.interleaved;
  const ms = num(i?.agentMs ?? t.real?.cpuMsPerRequest);
  const ratio = num(i?.ratio ?? t.cpuRatioAgainstDurable);
  const minimalMs = num(i?.minimalMs ?? t.minimalDurable?.cpuMsPerRequest);
  const spread =
    i === undefined ? 'one run' : `median of ${i.rounds} interleaved rounds, ${i.ratioLow} to ${i.ratioHigh}`;
  const tput = num(t.ratio);
  return [
    {
      measure: `CPU per settled triage, SQLite, ${int(num(t.customers))} customers`,
      value: `${fmt(ms, 3)} ms (ratio to the durable minimal agent's ${fmt(minimalMs, 3)} ms: ${fmt(ratio, 3)}, ${spread})`,
      target: cpuTarget,
      met: ratio === null || ms === null ? null : ratio >= T.cpuRatio || ms <= T.cpuMs,
      load,
    },
    {
      measure: 'throughput, one process, against the minimal in-memory agent',
      value: `${fmt(num(t.real?.reqPerSec))} vs ${fmt(num(t.minimal?.reqPerSec))} req/s (${fmt(tput, 3)})`,
      target: tputTarget,
      met: tput === null ? null : tput >= T.throughputRatio,
      load,
    },
  ];
}

function layersRow(layers: any): SummaryRow {
  const measure = 'of it: metrics / logging, per settled triage';
  const target = `each ≤ ${T.layerMs} ms`;
  if (layers === undefined) return notRun(measure, target, 'layers');
  const [m, l] = [num(layers.metricsMs), num(layers.logMs)];
  return {
    measure,
    value: `${fmt(m, 4)} / ${fmt(l, 4)} ms`,
    target,
    met: m === null || l === null ? null : m <= T.layerMs && l <= T.layerMs,
    load: highestLoad(layers.loadBefore, layers.loadAfter),
  };
}

function postgresRow(scaleOut: any): SummaryRow {
  const measure = 'PostgreSQL, one replica: CPU per settled triage (agent + database); round trips';
  const target = `≤ ${T.postgresTotalMs.toFixed(1)} ms; ≤ ${T.postgresRoundTrips} round trips`;
  const row = (scaleOut?.rows as any[] | undefined)?.find((r) =>
    /^PostgreSQL, 1 replica$/.test(String(r.name)),
  );
  if (row === undefined) return notRun(measure, target, 'scale-out (PostgreSQL)');
  const agent = num(row.cpuMsPerMessage);
  const db = num(row.databaseCpuMsPerMessage);
  const trips = num(row.roundTripsPerMessage);
  return {
    measure,
    value: `${fmt(agent, 3)} + ${fmt(db, 3)} ms; ${fmt(trips, 2)} round trips (${fmt(num(row.transactionControlPerMessage), 2)} begin or commit)`,
    target,
    met:
      agent === null || db === null || trips === null
        ? null
        : agent + db <= T.postgresTotalMs && trips <= T.postgresRoundTrips,
    load: highestLoad(scaleOut.loadAverage),
  };
}

/** RSS within budget + idle; the estimate within its share of the RSS the cache added. */
function withinBudget(b: any): { met: boolean | null; limit: number | null; estimateOff: number | null } {
  const [rss, idle, budget, cache] = [
    num(b?.rssMiB),
    num(b?.idleRssMiB),
    num(b?.budgetMiB),
    num(b?.memoryMiB) ?? num(b?.cacheMiB),
  ];
  if (rss === null || idle === null || budget === null) return { met: null, limit: null, estimateOff: null };
  const grown = rss - idle;
  const estimateOff = cache === null || grown <= 0 ? null : cache / grown - 1;
  return { met: rss <= budget + idle, limit: budget + idle, estimateOff };
}

function tenantRows(tenants: any): SummaryRow[] {
  const shape = `${int(num(tenants?.tenants))} tenants × ${int(num(tenants?.customers))} customers`;
  const roomy = tenants?.roomyBudget;
  const tight = tenants?.tightBudget;
  const load = highestLoad(tenants?.loadBefore, tenants?.loadAfter);
  const warmTarget = `warm ≤ ${T.warmP50Ms} ms, cold ≤ ${T.coldP50Ms} ms`;
  if (roomy === undefined || tight === undefined)
    return [
      notRun(
        'many tenants, roomy memory budget',
        `RSS ≤ budget + the idle process; estimate within ${T.estimateShare * 100} %`,
        'tenants',
      ),
      notRun('the same, warm second round p50', warmTarget, 'tenants'),
      notRun('the same with a tight budget', 'RSS ≤ budget + the idle process', 'tenants'),
    ];
  const r = withinBudget(roomy);
  const t = withinBudget(tight);
  const [warm, cold] = [num(roomy.warmP50Ms), num(roomy.coldP50Ms)];
  return [
    {
      measure: `${shape}, memory budget ${int(num(roomy.budgetMiB))} MiB`,
      value: `RSS ${int(num(roomy.rssMiB))} MiB (idle ${int(num(roomy.idleRssMiB))}), ${int(num(roomy.memoryMiB) ?? num(roomy.cacheMiB))} MiB estimated (${r.estimateOff === null ? '?' : `${int(r.estimateOff * 100)} %`} off the RSS it added), ${int(num(roomy.tenantEvictions) ?? num(roomy.evictions))} evictions`,
      target: `RSS ≤ ${int(r.limit)} MiB; estimate within ${T.estimateShare * 100} %`,
      met:
        r.met === null || r.estimateOff === null ? null : r.met && Math.abs(r.estimateOff) <= T.estimateShare,
      load,
    },
    {
      measure: 'the same, warm second round p50',
      value: `${fmt(warm)} ms (cold first round: ${fmt(cold)} ms)`,
      target: warmTarget,
      met: warm === null || cold === null ? null : warm <= T.warmP50Ms && cold <= T.coldP50Ms,
      load,
    },
    {
      measure: `the same with a ${int(num(tight.budgetMiB))} MiB budget`,
      value: `RSS ${int(num(tight.rssMiB))} MiB, ${int(num(tight.tenantEvictions) ?? num(tight.evictions))} evictions, warm p50 ${fmt(num(tight.warmP50Ms))} ms`,
      target: `RSS ≤ ${int(t.limit)} MiB`,
      met: t.met,
      load,
    },
  ];
}

function bigTenantRow(server: any, tenants: any): SummaryRow {
  const measure = '100,000 marks: RSS; first triage after a start';
  const target = `≤ ${int(T.bigRssMiB)} MiB; ≤ ${int(T.bigFirstTriageMs)} ms, in both sections`;
  const fromServer = server?.memory;
  const fromTenants = tenants?.bigTenant;
  if (fromServer === undefined && fromTenants === undefined)
    return notRun(measure, target, 'server or tenants');
  const rss: [number | null, number | null] = [num(fromServer?.rssMiB), num(fromTenants?.rssMiB)];
  const first: [number | null, number | null] = [
    num(fromServer?.firstTriageMs),
    num(fromTenants?.firstTriageMedianMs),
  ];
  const parts: string[] = [];
  if (fromServer !== undefined) parts.push(`server section: ${int(rss[0])} MiB, ${int(first[0])} ms`);
  if (fromTenants !== undefined)
    parts.push(`tenants section: ${int(rss[1])} MiB, ${int(first[1])} ms (median)`);
  const seen = [...rss, ...first].filter((x) => x !== null);
  return {
    measure,
    value: parts.join('; '),
    target,
    met:
      seen.length === 0
        ? null
        : rss.every((x) => x === null || x <= T.bigRssMiB) &&
          first.every((x) => x === null || x <= T.bigFirstTriageMs),
    load: highestLoad(server?.throughput?.loadAverage, tenants?.loadBefore, tenants?.loadAfter),
  };
}

const TOPOLOGIES = ['embedded', 'processes', 'replicas', 'split'] as const;

function propagationRow(propagation: any, server: any): SummaryRow {
  const measure = 'lesson to effect: embedded / two processes / two replicas / split';
  if (propagation === undefined) return notRun(measure, '≤ 20 / 50 / 100 / 50 ms', 'propagation');
  const medians = TOPOLOGIES.map((t) => num(propagation[t]?.medianMs));
  const targets = TOPOLOGIES.map((t) => num(propagation[t]?.targetMs));
  const l2e = server?.lessonToEffect;
  const serverSays =
    l2e === undefined
      ? ''
      : `; the server section (${int(num(l2e.directoryCustomers))} customers): embedded ${fmt(num(l2e.embedded?.medianMs))} ms, remote ${fmt(num(l2e.remote?.medianMs))} ms`;
  const ran = medians.map((m, i) => (m === null ? null : m <= targets[i]!));
  return {
    measure,
    value: `${medians.map((m) => (m === null ? 'not run' : fmt(m))).join(' / ')} ms${serverSays}`,
    target: `≤ ${targets.map((t) => int(t)).join(' / ')} ms`,
    met: ran.every((x) => x === null) ? null : ran.every((x) => x !== false),
    load: highestLoad(propagation.loadAverageBefore, propagation.loadAverageAfter),
  };
}

function largeMailRow(largeMail: any): SummaryRow {
  const measure = 'reading one 24.6 MB mail, alone';
  if (largeMail === undefined) return notRun(measure, `≤ ${int(T.largeMailMs)} ms`, 'large-mail');
  const ms = num(largeMail.medianMs);
  return {
    measure: `reading one ${fmt(num(largeMail.mailMb))} MB mail, alone`,
    value: `${int(ms)} ms median of ${int(num(largeMail.runs))} (${fmt(num(largeMail.megabytesPerSecond))} MB/s)`,
    target: `≤ ${int(num(largeMail.targetMs))} ms`,
    met: typeof largeMail.met === 'boolean' ? largeMail.met : null,
    load: highestLoad(largeMail.loadBefore, largeMail.loadAfter),
  };
}

function matchingRow(matching: any): SummaryRow {
  const measure = 'matching (re2 and the compiled automaton)';
  if (matching === undefined) return notRun(measure, 'every target of the section; 0 mismatches', 'matching');
  const targets = (matching.targets as any[] | undefined) ?? [];
  const met = targets.filter((t) => num(t.value) !== null && t.value <= t.limit).length;
  const mismatches = num(matching.mismatches);
  return {
    measure,
    value: `${met} of ${targets.length} targets met, ${int(mismatches)} mismatches against the naive oracle${matching.quick === true ? ' (--quick)' : ''}`,
    target: 'every target of the section; 0 mismatches',
    met: targets.length === 0 || mismatches === null ? null : met === targets.length && mismatches === 0,
    load: highestLoad(matching.loadAverage?.before, matching.loadAverage?.after),
  };
}

function storageRow(storage: any): SummaryRow {
  const measure = 'storage per lesson, smallest and largest directory';
  const target = `the largest within ${T.storageGrowth}× of the smallest`;
  const rows = (storage?.rows as any[] | undefined) ?? [];
  if (rows.length < 2) return notRun(measure, target, 'storage');
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const [a, b] = [num(first.objectBytesPerLesson), num(last.objectBytesPerLesson)];
  return {
    measure,
    value: `${int(a)} B at ${int(num(first.customers))} customers, ${int(b)} B at ${int(num(last.customers))} (${a === null || b === null ? '?' : fmt(b / a, 2)}×)`,
    target,
    met: a === null || b === null ? null : b <= a * T.storageGrowth,
    load: null,
  };
}

/** Every row of the cost table (issues 29 and 41), in its order. */
export function summaryRows(read: SectionReader): SummaryRow[] {
  const server = read('server') as any;
  const tenants = read('tenants') as any;
  return [
    ...cpuRows(server),
    layersRow(read('layers')),
    postgresRow(read('scale-out')),
    ...tenantRows(tenants),
    bigTenantRow(server, tenants),
    propagationRow(read('propagation'), server),
    largeMailRow(read('large-mail')),
    matchingRow(read('matching')),
    storageRow(read('storage')),
  ];
}

/** The table as Markdown, with a line that counts what was met. */
export function summaryTable(rows: readonly SummaryRow[]): string {
  const verdict = (m: boolean | null): string => (m === null ? '–' : m ? 'met' : '**MISSED**');
  const lines = [
    '| measure | now | target | | load |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.measure} | ${r.value} | ${r.target} | ${verdict(r.met)} | ${r.load === null ? '–' : r.load.toFixed(2)} |`,
    ),
  ];
  const met = rows.filter((r) => r.met === true).length;
  const missed = rows.filter((r) => r.met === false).length;
  lines.push('', `${met} met, ${missed} missed, ${rows.length - met - missed} not measured.`);
  return lines.join('\n');
}

/** Reads `<outDir>/<section>.json`; a file older than `since` (ms since the epoch) is labelled by its age. */
export function printSummary(outDir: string, since: number): void {
  const old: string[] = [];
  const read: SectionReader = (name) => {
    const file = join(outDir, `${name}.json`);
    if (!existsSync(file)) return undefined;
    const at = statSync(file).mtimeMs;
    if (at < since) old.push(`${name} (${new Date(at).toISOString()})`);
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  };
  const table = summaryTable(summaryRows(read));
  console.log(
    `\n=== summary: the cost table of issues 29 and 41 against their targets (${outDir}) ===\n${table}`,
  );
  if (old.length > 0) console.log(`From earlier runs in this folder: ${old.join(', ')}.`);
  console.log('Load: the highest one-minute load average the section recorded; discard a row above 2.5.');
}
