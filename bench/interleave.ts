/**
 * Before and after, interleaved (issue 29): CPU per settled triage of two checkouts of this server,
 * measured in alternating rounds on the same data so that a change in the machine's load moves both
 * sides alike. Not a section of `npm run bench`: a tool for measuring one cut at a time.
 *
 *   node --import tsx bench/interleave.ts --before=DIR --after=DIR [--rounds=3] [--seconds=8]
 *
 * DIR is a checkout's root with its node_modules (a clone of another revision, say, with this one's
 * node_modules linked in). Each round starts each side's server (`src/main.ts`) on a fresh copy of
 * one imported directory of 10,000 customers, warms it for 2 s, then drives it as the server section
 * does (every request a new ~2 KB message, 10 connections) and reads the process's CPU from /proc.
 * Prints every round, the medians, and the load average before and after; refuses to call a result
 * when the load average was above 2.5.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATABASE_FILE, DEMO_TOKEN_FILE } from '../src/main.ts';
import { spawnListening } from '../test/support/listening-child.ts';
import { median } from './learning/harness.ts';
import { importedDataDir, load } from './server.ts';

const QUIET_LOAD = 2.5;

function arg(name: string, fallback?: string): string {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  if (raw === undefined) throw new Error(`--${name}= is required (see the header of bench/interleave.ts)`);
  return raw;
}

async function measure(root: string, imported: string, seconds: number, tag: string) {
  const dir = mkdtempSync(join(tmpdir(), 'lt-interleave-'));
  copyFileSync(join(imported, DATABASE_FILE), join(dir, DATABASE_FILE));
  const child = await spawnListening(
    'src/main.ts',
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'error' },
    root,
  );
  try {
    const token = readFileSync(join(dir, DEMO_TOKEN_FILE), 'utf8').trim();
    await load(child.pid, child.url, token, `${tag}w`, 2, 10, true);
    const r = await load(child.pid, child.url, token, tag, seconds, 10, true);
    if (r.otherResponses > 0 || r.errors > 0)
      throw new Error(`${root}: ${r.otherResponses} responses were not settled, ${r.errors} errors`);
    return r;
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sides = { before: resolve(arg('before')), after: resolve(arg('after')) };
const rounds = Number(arg('rounds', '3'));
const seconds = Number(arg('seconds', '8'));
const loadBefore = loadavg()[0]!;
const base = await importedDataDir(10_000);
const cpu: Record<keyof typeof sides, number[]> = { before: [], after: [] };
const rps: Record<keyof typeof sides, number[]> = { before: [], after: [] };
const tag = `i${Date.now().toString(36)}`;
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
    const r = await measure(sides[name], base.dir, seconds, `${tag}${round}${name}`);
    cpu[name].push(r.cpuMsPerRequest ?? NaN);
    rps[name].push(r.reqPerSec);
    console.log(
      `round ${round + 1} ${name.padEnd(6)}: ${r.cpuMsPerRequest} ms CPU/request, ${r.reqPerSec} req/s (load ${loadavg()[0]!.toFixed(2)})`,
    );
  }
}
rmSync(base.dir, { recursive: true, force: true });
const loadAfter = loadavg()[0]!;
const m = (xs: number[]) => median(xs).toFixed(3);
console.log(
  `median CPU/request: before ${m(cpu.before)} ms, after ${m(cpu.after)} ms (${((median(cpu.after) / median(cpu.before) - 1) * 100).toFixed(1)} %); ` +
    `req/s ${m(rps.before)} → ${m(rps.after)}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
);
if (Math.max(loadBefore, loadAfter) > QUIET_LOAD)
  console.log(`NOT QUIET: a load average above ${QUIET_LOAD}; discard these figures and run again.`);
