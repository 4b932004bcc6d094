/**
 * Many tenants per process (issue 15), a section of `npm run bench`: one server process (`src/main.ts`
 * in a child) over a SQLite data directory seeded with T tenants of C customers each (a generated
 * directory per tenant, one `@…\.example` mark per customer, imported through the authority's own
 * `import`, the store API the CLI uses; one read token per tenant), then:
 *
 * - a round robin over every tenant (each request a new ~2 KB message from one of its customers,
 *   through the real SDK client), twice: the first round is every tenant's cold first triage, the
 *   second is warm for whatever the budget kept; the server's RSS, the cache's bytes, budget and
 *   evictions (its /metrics) and p50 triage of cold and warm tenants;
 * - the same with a budget that holds about a third of the tenants (every request then misses:
 *   evictions counted, each triage a compile from kept analyses);
 * - one tenant of 100,000 customers: RSS, and the first triage after a start (median of runs, each
 *   a fresh process on the same data directory).
 *
 * Options: --tenants=N (default 1000), --tenant-customers=N (default 1000), --big-customers=N
 * (default 100000; 0 skips), --cold-runs=N (default 3).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthority } from '../src/domain/authority/index.ts';
import { systemClock } from '../src/domain/clock.ts';
import { createLearnables } from '../src/domain/learnables/index.ts';
import { tenantId, type TenantId } from '../src/domain/tenant.ts';
import { openStore } from '../src/store/open-store.ts';
import { createSqliteDefinitionStore } from '../src/store/sqlite-definition-store.ts';
import { createSqliteTokenStore } from '../src/store/sqlite-token-store.ts';
import { spawnListening } from '../test/support/listening-child.ts';
import { AgentClient, median, reportOf } from './learning/harness.ts';
import { numberOption, round } from './options.ts';
import { ISSUE_29_TARGETS } from './summary.ts';

export interface BenchContext {
  readonly outDir: string;
  readonly args: readonly string[];
}

const TEACHER = 'bench@forwarder.example';
const METRICS_TOKEN = 'bench-metrics-token';
const TARGETS = {
  bigRssMiB: ISSUE_29_TARGETS.bigRssMiB,
  bigFirstTriageMs: ISSUE_29_TARGETS.bigFirstTriageMs,
} as const;

const customerId = (i: number): string => `k${String(i).padStart(6, '0')}`;
/** Tenant t's customers' domains are their own: k000042-t17.example. */
const domain = (t: number, i: number): string => `${customerId(i)}-t${t}.example`;

/**
 * A directory's shape: `bench` (a label and a sender's domain per customer, as before) or `rich`
 * (as the demo directory's: the name in the text, and an order number's regex besides).
 */
export type DirectoryShape = 'bench' | 'rich';

function directoryOf(t: number, customers: number, shape: DirectoryShape = 'bench') {
  const entries: Record<string, unknown[]> = {};
  for (let i = 0; i < customers; i++)
    entries[customerId(i)] = [
      { label: `Kestrel ${customerId(i)} Trading` },
      { pattern: `@${domain(t, i).replace(/\./g, '\\.')}`, where: 'from' },
      ...(shape === 'rich'
        ? [
            { pattern: `Kestrel ${customerId(i)} Trading`, where: 'any' },
            { pattern: `K${i}-PO-\\d{5}`, where: 'any' },
          ]
        : []),
    ];
  // A kind the load mail's subject reads as, so each triage settles (as bench/server.ts's directory).
  const kinds = { 'pre-alert': [{ label: 'Pre-alert' }, { cue: 'pre-?alert', where: 'subject' }] };
  return { collections: { customers: entries, kinds } };
}

export function mailFrom(t: number, i: number, n: number, customers: number): string {
  const c = (n * 7919 + t) % customers;
  const lines = [
    `From: Operations <ops@${domain(t, c)}>`,
    'To: imports@forwarder.example',
    `Subject: Pre-alert ${customerId(c).toUpperCase()}-${t}-${n}`,
    `Message-ID: <tenants.${t}.${n}.${i}@load.example>`,
    'Date: Mon, 07 Sep 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
  ];
  while (lines.join('\r\n').length < 1900)
    lines.push(
      `The cargo for reference ${t}-${n} line ${lines.length} was received in good order and condition.`,
    );
  return lines.join('\r\n');
}

/** A data directory with `tenants` tenants of `customers` customers each; returns it and each tenant's token. */
export async function seeded(
  tenants: number,
  customers: number,
  first = 0,
  shape: DirectoryShape = 'bench',
): Promise<{ dir: string; tokens: string[]; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-tenants-'));
  const started = performance.now();
  const db = await openStore({ databaseUrl: undefined, dataDir: dir });
  const tokenStore = createSqliteTokenStore(db);
  const authority = createAuthority({
    store: createSqliteDefinitionStore(db),
    learnables: createLearnables(),
    settings: { identificationMargin: 0 },
    clock: systemClock,
    isServiceAccount: (t, name) => tokenStore.isServiceAccount(t, name),
    erasers: [],
  });
  const tokens: string[] = [];
  try {
    for (let t = first; t < first + tenants; t++) {
      const tenant: TenantId = tenantId(`bench-t${t}`);
      await authority.import(
        tenant,
        { id: TEACHER, kind: 'operator', tenant, roles: ['admin'] },
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a generated directory, checked by import
        { directory: directoryOf(t, customers, shape) as any, taughtBy: TEACHER },
      );
      const { token } = await tokenStore.create({
        tenant,
        principal: 'app:bench',
        kind: 'application',
        roles: ['read'],
      });
      tokens.push(token);
    }
  } finally {
    await db.destroy();
  }
  return { dir, tokens, seconds: (performance.now() - started) / 1000 };
}

export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : round(Number(m[1]) / 1024);
  } catch {
    return null;
  }
}

async function startServer(dir: string, env: Record<string, string>) {
  const child = await spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    LOG_LEVEL: 'error',
    METRICS_TOKEN,
    ...env,
  });
  return child;
}

/** The matcher cache's and the memory budget's gauges from the server's /metrics. */
async function cacheMetrics(url: string): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const out: Record<string, number> = {};
  const gauges = {
    bytes: 'triage_matcher_cache_bytes',
    versions: 'triage_matcher_cache_versions',
    evictions: 'triage_matcher_evictions_total',
    memoryBytes: 'triage_tenant_memory_bytes',
    tenantsHeld: 'triage_tenant_memory_tenants',
    tenantEvictions: 'triage_tenant_memory_evictions_total',
  };
  for (const [key, name] of Object.entries(gauges)) {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    if (m !== null) out[key] = Number(m[1]);
  }
  return out;
}

/** Two round robins over every tenant; each triage's ms, by round. */
async function roundRobin(url: string, tokens: readonly string[], customers: number, tag: number) {
  const clients: AgentClient[] = [];
  for (const token of tokens) clients.push(await AgentClient.connect(url, token));
  const rounds: number[][] = [];
  let unsettled = 0;
  for (let r = 0; r < 2; r++) {
    const ms: number[] = [];
    for (const [t, client] of clients.entries()) {
      const started = performance.now();
      const task = await client.triage(mailFrom(t, tag, r, customers));
      ms.push(performance.now() - started);
      if (reportOf(task)?.customer?.settled !== true) unsettled++;
    }
    rounds.push(ms);
  }
  return { cold: rounds[0]!, warm: rounds[1]!, unsettled };
}

export async function run(context: BenchContext): Promise<void> {
  const tenants = numberOption(context.args, 'tenants', 1000, { least: 'non-negative', whole: true });
  const customers = numberOption(context.args, 'tenant-customers', 1000, {
    least: 'non-negative',
    whole: true,
  });
  const big = numberOption(context.args, 'big-customers', 100_000, { least: 'non-negative', whole: true });
  const coldRuns = Math.max(
    1,
    numberOption(context.args, 'cold-runs', 3, { least: 'non-negative', whole: true }),
  );
  const results: Record<string, unknown> = {
    tenants,
    customers,
    loadBefore: loadavg().map((x) => round(x, 2)),
  };
  console.log(`Seeding ${tenants} tenants × ${customers} customers …`);
  const many = await seeded(tenants, customers);
  console.log(`  seeded in ${many.seconds.toFixed(1)} s`);
  try {
    // Budgets: roomy (every tenant fits) and tight (about a third does). A tenant of 1,000 customers
    // is estimated at ~2.5 MB: its matcher ~1.9, its definition and objects ~0.6 (tenant-estimate.ts).
    const perTenantMiB = 2.5 * (customers / 1000);
    const budgets = {
      roomy: Math.max(64, Math.ceil(tenants * perTenantMiB * 1.5)),
      tight: Math.max(16, Math.ceil((tenants * perTenantMiB) / 3)),
    };
    for (const [name, budgetMb] of Object.entries(budgets)) {
      const server = await startServer(many.dir, { MATCHER_MEMORY_BUDGET_MB: String(budgetMb) });
      try {
        const idle = rssMiB(server.pid);
        const rr = await roundRobin(server.url, many.tokens, customers, name === 'roomy' ? 1 : 2);
        await new Promise((ok) => setTimeout(ok, 300));
        const rss = rssMiB(server.pid);
        const cache = await cacheMetrics(server.url);
        const r = {
          budgetMiB: budgetMb,
          idleRssMiB: idle,
          rssMiB: rss,
          cacheMiB: cache.bytes === undefined ? null : round(cache.bytes / 2 ** 20),
          memoryMiB: cache.memoryBytes === undefined ? null : round(cache.memoryBytes / 2 ** 20),
          versionsKept: cache.versions ?? null,
          tenantsHeld: cache.tenantsHeld ?? null,
          evictions: cache.evictions ?? null,
          tenantEvictions: cache.tenantEvictions ?? null,
          coldP50Ms: round(median(rr.cold)),
          warmP50Ms: round(median(rr.warm)),
          unsettled: rr.unsettled,
        };
        results[`${name}Budget`] = r;
        console.log(
          `  ${tenants} tenants × ${customers}, budget ${budgetMb} MiB: RSS ${rss} MiB (idle ${idle}), ${r.memoryMiB} MiB estimated in ${r.tenantsHeld} tenants (matchers ${r.cacheMiB} MiB in ${r.versionsKept} versions), ${r.tenantEvictions} tenants forgotten; ` +
            `p50 first round (cold) ${r.coldP50Ms} ms, second round ${r.warmP50Ms} ms; ${rr.unsettled} unsettled`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(many.dir, { recursive: true, force: true });
  }

  if (big > 0) {
    console.log(`One tenant of ${big} customers …`);
    const one = await seeded(1, big);
    console.log(`  seeded in ${one.seconds.toFixed(1)} s`);
    try {
      const firsts: number[] = [];
      let rss: number | null = null;
      let idle: number | null = null;
      for (let run = 0; run < coldRuns; run++) {
        const server = await startServer(one.dir, {});
        try {
          idle = rssMiB(server.pid);
          const client = await AgentClient.connect(server.url, one.tokens[0]!);
          const started = performance.now();
          const task = await client.triage(mailFrom(0, 9, run, big));
          firsts.push(performance.now() - started);
          if (reportOf(task)?.customer?.settled !== true)
            throw new Error('the big tenant did not settle its customer');
          await new Promise((ok) => setTimeout(ok, 300));
          rss = rssMiB(server.pid);
        } finally {
          await server.stop();
        }
      }
      const firstMs = round(median(firsts), 0);
      results.bigTenant = {
        marks: big,
        idleRssMiB: idle,
        rssMiB: rss,
        firstTriageMedianMs: firstMs,
        firstTriageSamplesMs: firsts.map((x) => round(x, 0)),
        targets: TARGETS,
      };
      console.log(
        `  RSS ${rss} MiB (idle ${idle}; target <= ${TARGETS.bigRssMiB}); first triage after a start: median ${firstMs} ms of ${coldRuns} (${firsts.map((x) => round(x, 0)).join(', ')}; target <= ${TARGETS.bigFirstTriageMs})`,
      );
    } finally {
      rmSync(one.dir, { recursive: true, force: true });
    }
  }
  results.loadAfter = loadavg().map((x) => round(x, 2));
  writeFileSync(join(context.outDir, 'tenants.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Wrote ${join(context.outDir, 'tenants.json')}`);
}
