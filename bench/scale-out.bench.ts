/**
 * Scale-out on one machine (issue 15, "Measure it"), a section of `npm run bench` (`--only=scale-out`):
 * triage throughput and CPU per message of the real server, every request a different ~2 KB
 * message over JSON-RPC (the server bench's load), with a directory of 10,000 customers, in one run:
 *
 * - the minimal in-memory SDK agent in one process (bench/minimal-agent.ts), the baseline;
 * - SQLite: one process, and WORKERS=2 (two processes on one data directory, node:cluster, src/cluster.ts);
 * - PostgreSQL (a throwaway cluster, test/support/postgres.ts): one replica, and two replicas (two
 *   processes on their own ports on one database, the load split evenly between them).
 *
 * CPU per message is the CPU time (user + system, all threads, /proc) of every server process
 * (a cluster's primary included) over the messages answered; for PostgreSQL, the database's own
 * processes are reported apart. Ratios are to the minimal agent measured in the same run.
 *
 * Honest about the machine: these machines have 2 cores, shared by the load generator (this process,
 * autocannon), PostgreSQL, every server process and whatever else runs. Two processes can at best
 * use the second core the load generator and the database also want; CPU per message is what a
 * larger machine multiplies.
 *
 * Options: --scale-duration=S (seconds per load, default 10), --scale-connections=N (default 10,
 * split between replicas).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DATABASE_FILE, DEMO_TOKEN_FILE } from '../src/main.ts';
import { startCluster } from '../test/support/postgres.ts';
import { AgentClient, ROOT, reportOf, startChild, type Host } from './learning/harness.ts';
import {
  cpuMs,
  importedDataDir,
  load,
  loadMail,
  startMinimalAgentChild,
  type BenchContext,
  type LoadResult,
} from './server.ts';
import { numberOption, round } from './options.ts';

const CUSTOMERS = 10_000;

/** `pid` and every process below it (a cluster's workers), from /proc. */
function processTree(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of children === '' ? [] : children.split(' ')) out.push(...processTree(Number(c)));
    }
  } catch {
    // gone: counted as far as it was read
  }
  return out;
}

/** The CPU ms so far of every process in the trees of `roots`, by pid. */
function cpuOf(roots: readonly number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of roots) for (const p of processTree(r)) m.set(p, cpuMs(p) ?? 0);
  return m;
}

/** CPU ms spent between two snapshots (a process that appeared in between counts from 0). */
function spent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** The postmaster of the throwaway cluster listening on `port` (its command line names it). */
function postmasterOf(port: string): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      const p = cmd.indexOf('-p');
      // pg_ctl's `-o "-p PORT …"` reaches the postmaster as one argument or as two.
      const listens = (p >= 0 && cmd[p + 1] === port) || cmd.some((a) => a.startsWith(`-p ${port} `));
      if (cmd.some((a) => a.endsWith('postgres')) && listens) return Number(d);
    } catch {
      // exited meanwhile
    }
  }
  return null;
}

interface Measured {
  readonly name: string;
  readonly processes: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly answered: number;
  readonly settled: number;
  readonly other: number;
  /** Server processes' CPU per answered message, ms. */
  readonly cpuMsPerMessage: number;
  /** PostgreSQL's processes' CPU per answered message, ms (PostgreSQL rows only). */
  readonly databaseCpuMsPerMessage: number | null;
  /** Queries sent to PostgreSQL per answered message, each one round trip, and of them begin/commit (PostgreSQL rows only). */
  readonly roundTripsPerMessage: number | null;
  readonly transactionControlPerMessage: number | null;
}

/** Every replica opens /metrics to this token, so the bench can read its round trips. */
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

/** The round trips the hosts have made to PostgreSQL so far (summed), from their /metrics. */
async function roundTripsOf(hosts: readonly { url: string }[]): Promise<{ all: number; control: number }> {
  let all = 0;
  let control = 0;
  for (const h of hosts) {
    const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    for (const m of text.matchAll(/^triage_database_round_trips_total\{kind="(\w+)"\} (\d+)$/gm)) {
      all += Number(m[2]);
      if (m[1] === 'transaction') control += Number(m[2]);
    }
  }
  return { all, control };
}

/** Load on every host at once (connections split evenly), CPU measured over all their processes. */
async function measure(
  name: string,
  hosts: readonly { url: string; token: string | null; pid: number }[],
  tag: string,
  seconds: number,
  connections: number,
  expectSettled: boolean,
  database: number | null,
): Promise<Measured> {
  const each = Math.max(1, Math.round(connections / hosts.length));
  const warm = hosts.map((h, i) => load(undefined, h.url, h.token, `${tag}w${i}`, 2, each, expectSettled));
  await Promise.all(warm);
  const roots = hosts.map((h) => h.pid);
  const before = cpuOf(roots);
  const dbBefore = database === null ? null : cpuOf([database]);
  const tripsBefore = database === null ? null : await roundTripsOf(hosts);
  const results: LoadResult[] = await Promise.all(
    hosts.map((h, i) => load(undefined, h.url, h.token, `${tag}${i}`, seconds, each, expectSettled)),
  );
  const after = cpuOf(roots);
  const dbAfter = database === null ? null : cpuOf([database]);
  const tripsAfter = database === null ? null : await roundTripsOf(hosts);
  const answered = results.reduce((n, r) => n + r.completed + r.otherResponses, 0);
  const m: Measured = {
    name,
    processes: after.size,
    reqPerSec: round(
      results.reduce((n, r) => n + r.reqPerSec, 0),
      1,
    ),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    answered,
    settled: results.reduce((n, r) => n + r.completed, 0),
    other: results.reduce((n, r) => n + r.otherResponses, 0),
    cpuMsPerMessage: round(spent(before, after) / Math.max(1, answered), 3),
    databaseCpuMsPerMessage:
      dbBefore === null || dbAfter === null
        ? null
        : round(spent(dbBefore, dbAfter) / Math.max(1, answered), 3),
    roundTripsPerMessage:
      tripsBefore === null || tripsAfter === null
        ? null
        : round((tripsAfter.all - tripsBefore.all) / Math.max(1, answered), 2),
    transactionControlPerMessage:
      tripsBefore === null || tripsAfter === null
        ? null
        : round((tripsAfter.control - tripsBefore.control) / Math.max(1, answered), 2),
  };
  console.log(
    `  ${name}: ${m.reqPerSec} req/s, p50 ${m.p50Ms} ms, ${m.cpuMsPerMessage} ms CPU/message over ${m.processes} processes` +
      (m.databaseCpuMsPerMessage === null ? '' : ` (+ PostgreSQL ${m.databaseCpuMsPerMessage} ms)`) +
      (m.roundTripsPerMessage === null
        ? ''
        : `, ${m.roundTripsPerMessage} round trips/message (${m.transactionControlPerMessage} of them begin or commit)`) +
      ` (${m.settled} settled, ${m.other} other)`,
  );
  return m;
}

/** A copy of an imported data directory (no token yet: the first start makes one). */
function copyOf(dir: string): string {
  const to = mkdtempSync(join(tmpdir(), 'learnables-bench-'));
  copyFileSync(join(dir, DATABASE_FILE), join(to, DATABASE_FILE));
  return to;
}

/** A server child on `dataDir` whose first triage reads the load mail as settled (the matcher compiled). */
async function started(env: Record<string, string>, dataDir: string, tag: string): Promise<Host> {
  const host = await startChild(env, dataDir);
  const task = await (await AgentClient.connect(host.url, host.token)).triage(loadMail(0, CUSTOMERS, tag));
  if (reportOf(task)?.customer?.settled !== true)
    throw new Error(`the load message is not read as settled: ${JSON.stringify(reportOf(task))}`);
  return host;
}

export async function run(context: BenchContext): Promise<void> {
  const seconds = numberOption(context.args, 'scale-duration', 10, { least: 'positive' });
  const connections = numberOption(context.args, 'scale-connections', 10, { least: 'positive' });
  const tag = `s${Date.now().toString(36)}`;
  const rows: Measured[] = [];
  const open: { close(): Promise<void> }[] = [];
  try {
    console.log(`Importing ${CUSTOMERS} customers with the import verb …`);
    const base = await importedDataDir(CUSTOMERS);
    console.log(
      `Load: ${seconds} s per row, ${connections} connections, every request a new ~2 KB message; ${availableParallelism()} cores, load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );

    const minimal = await startMinimalAgentChild();
    open.push(minimal);
    rows.push(
      await measure(
        'minimal in-memory agent, 1 process',
        [{ ...minimal, token: null }],
        `${tag}m`,
        seconds,
        connections,
        false,
        null,
      ),
    );
    await minimal.close();
    open.length = 0;

    for (const workers of [1, 2]) {
      // A copy of the imported directory: its first start makes the demo tenant's token.
      const host = await started(
        workers === 1 ? {} : { WORKERS: String(workers) },
        copyOf(base.dir),
        `${tag}q${workers}`,
      );
      open.push(host);
      rows.push(
        await measure(
          `SQLite, ${workers} process${workers === 1 ? '' : 'es'} (WORKERS=${workers})`,
          [{ url: host.url, token: host.token, pid: host.pid! }],
          `${tag}l${workers}`,
          seconds,
          connections,
          true,
          null,
        ),
      );
      await host.close();
      open.length = 0;
    }

    const cluster = await startCluster();
    open.push({ close: () => cluster.stop() });
    const url = cluster.url;
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'migrate-to-postgres', '--data-dir', base.dir, '--to', url],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, maxBuffer: 16 * 1024 * 1024 },
    );
    // The first replica's first start makes the token; every later one is handed it in its directory.
    let token: string | null = null;
    const postmaster = postmasterOf(new URL(url).port);
    for (const replicas of [1, 2]) {
      const hosts: Host[] = [];
      for (let i = 0; i < replicas; i++) {
        const dir = mkdtempSync(join(tmpdir(), 'learnables-bench-'));
        if (token !== null) writeFileSync(join(dir, DEMO_TOKEN_FILE), `${token}\n`);
        const h = await started({ DATABASE_URL: url, METRICS_TOKEN }, dir, `${tag}p${replicas}${i}`);
        token ??= h.token;
        hosts.push(h);
        open.push(h);
      }
      rows.push(
        await measure(
          `PostgreSQL, ${replicas} replica${replicas === 1 ? '' : 's'}`,
          hosts.map((h) => ({ url: h.url, token: h.token, pid: h.pid! })),
          `${tag}g${replicas}`,
          seconds,
          connections,
          true,
          postmaster,
        ),
      );
      for (const h of hosts) {
        await h.close();
        open.splice(open.indexOf(h), 1);
      }
    }
    rmSync(base.dir, { recursive: true, force: true });
  } finally {
    for (const h of open.reverse()) await h.close().catch(() => {});
  }
  const baseline = rows[0]!;
  const table = rows.map((r) => ({
    ...r,
    throughputRatio: round(r.reqPerSec / baseline.reqPerSec, 3),
    cpuRatio: round(baseline.cpuMsPerMessage / r.cpuMsPerMessage, 3),
  }));
  console.log('  ratios to the minimal in-memory agent (throughput; CPU per message, minimal / this):');
  for (const r of table) console.log(`    ${r.name}: ${r.throughputRatio}; ${r.cpuRatio}`);
  const result = {
    customers: CUSTOMERS,
    seconds,
    connections,
    cores: availableParallelism(),
    loadAverage: loadavg().map((x) => round(x, 2)),
    note: 'The load generator, PostgreSQL and every server process share these cores.',
    rows: table,
  };
  writeFileSync(join(context.outDir, 'scale-out.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Wrote ${join(context.outDir, 'scale-out.json')}`);
}
