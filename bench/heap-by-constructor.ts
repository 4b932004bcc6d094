/**
 * Where a tenant's memory goes (issue 51, item 2): one server process (src/main.ts in a child) over a
 * data directory seeded with one tenant of N customers (bench/tenants.bench.ts's directory), one
 * settled triage, then a V8 heap snapshot of the child (`--heapsnapshot-signal`), summed by
 * constructor (the snapshot's node name; strings, arrays and code by their type). Prints the table
 * docs/memory.md keeps, largest first, with each row's share of the heap.
 *
 *   node --import tsx bench/heap-by-constructor.ts [--customers=10000] [--top=25]
 *
 * A snapshot is ~3× the heap as JSON and is parsed whole here, so keep N at tens of thousands: the
 * shares hold as N grows (every part here grows with the customers), the bench's RSS gives the size.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnListening } from '../test/support/listening-child.ts';
import { AgentClient, reportOf } from './learning/harness.ts';
import { numberOption } from './options.ts';
import { seeded } from './tenants.bench.ts';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Self sizes summed by constructor (objects) or by type (strings, arrays, code, …). */
export function byConstructor(s: Snapshot): { name: string; bytes: number; count: number }[] {
  const f = s.snapshot.meta.node_fields;
  const width = f.length;
  const [iType, iName, iSize] = [f.indexOf('type'), f.indexOf('name'), f.indexOf('self_size')];
  const types = s.snapshot.meta.node_types[0];
  const sums = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + iType]!]!;
    const name = type === 'object' || type === 'closure' ? s.strings[s.nodes[i + iName]!]! : `(${type})`;
    const row = sums.get(name) ?? { bytes: 0, count: 0 };
    row.bytes += s.nodes[i + iSize]!;
    row.count++;
    sums.set(name, row);
  }
  return [...sums].map(([name, r]) => ({ name, ...r })).sort((a, b) => b.bytes - a.bytes);
}

/** What the strings are (by their text: the snapshot names a string node by its value), and how much repeats. */
export function stringKinds(
  s: Snapshot,
): { kind: string; bytes: number; count: number; repeatedBytes: number }[] {
  const f = s.snapshot.meta.node_fields;
  const width = f.length;
  const [iType, iName, iSize] = [f.indexOf('type'), f.indexOf('name'), f.indexOf('self_size')];
  const types = s.snapshot.meta.node_types[0];
  const seen = new Map<string, number>();
  const sums = new Map<string, { bytes: number; count: number; repeatedBytes: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    if (types[s.nodes[i + iType]!] !== 'string') continue;
    const text = s.strings[s.nodes[i + iName]!]!;
    const size = s.nodes[i + iSize]!;
    const row = sums.get(kindOf(text)) ?? { bytes: 0, count: 0, repeatedBytes: 0 };
    row.bytes += size;
    row.count++;
    const copies = (seen.get(text) ?? 0) + 1;
    seen.set(text, copies);
    if (copies > 1) row.repeatedBytes += size;
    sums.set(kindOf(text), row);
  }
  return [...sums].map(([kind, r]) => ({ kind, ...r })).sort((a, b) => b.bytes - a.bytes);
}

function kindOf(text: string): string {
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text)) return "ISO time (a mark's `at`)";
  if (/^(?:sha256:)?[0-9a-f]{64}$/.test(text)) return 'content hash';
  if (/^[^@\s]+@[^@\s]+$/.test(text)) return 'address (`taughtBy`, a sender)';
  if (text.includes('\\')) return 'regex source';
  if (/^[[{]/.test(text)) return 'JSON text';
  if (text.length <= 16) return 'short text (≤ 16 chars)';
  return 'other text';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const customers = numberOption(args, 'customers', 10_000, { least: 'non-negative', whole: true });
  const top = numberOption(args, 'top', 25, { least: 'non-negative', whole: true });
  const snapDir = mkdtempSync(join(tmpdir(), 'learnables-heap-'));
  console.log(`One tenant of ${customers} customers (load ${loadavg()[0]!.toFixed(2)}) …`);
  const one = await seeded(1, customers);
  const child = await spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: one.dir,
    LOG_LEVEL: 'error',
    NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapDir}`,
  });
  try {
    const client = await AgentClient.connect(child.url, one.tokens[0]!);
    const task = await client.triage(
      'From: Ops <ops@k000007-t0.example>\r\nTo: imports@forwarder.example\r\nSubject: Pre-alert 7\r\n' +
        'Message-ID: <heap.7@load.example>\r\nDate: Mon, 07 Sep 2026 09:00:00 +0000\r\n\r\nTwo pallets.\r\n',
    );
    if (reportOf(task)?.customer?.settled !== true) throw new Error('the tenant did not settle its customer');
    process.kill(child.pid, 'SIGUSR2');
    let file: string | undefined;
    for (let i = 0; i < 600 && file === undefined; i++) {
      await new Promise((ok) => setTimeout(ok, 500));
      const done = readdirSync(snapDir).find((f) => f.endsWith('.heapsnapshot'));
      // Written in one go; wait until its JSON closes.
      if (done !== undefined && readFileSync(join(snapDir, done), 'utf8').trimEnd().endsWith('}'))
        file = done;
    }
    if (file === undefined) throw new Error('no heap snapshot was written');
    const snapshot = JSON.parse(readFileSync(join(snapDir, file), 'utf8')) as Snapshot;
    const rows = byConstructor(snapshot);
    const total = rows.reduce((n, r) => n + r.bytes, 0);
    console.log(`heap ${(total / 2 ** 20).toFixed(1)} MiB in the snapshot; largest by constructor:`);
    console.log('| constructor or type | MiB | share | count |\n|---|---|---|---|');
    for (const r of rows.slice(0, top))
      console.log(
        `| ${r.name || '(anonymous)'} | ${(r.bytes / 2 ** 20).toFixed(1)} | ${((100 * r.bytes) / total).toFixed(1)} % | ${r.count} |`,
      );
    console.log('\nStrings by what they hold (repeated: a second and later copy of the same text):');
    console.log('| strings | MiB | count | repeated MiB |\n|---|---|---|---|');
    for (const k of stringKinds(snapshot))
      console.log(
        `| ${k.kind} | ${(k.bytes / 2 ** 20).toFixed(1)} | ${k.count} | ${(k.repeatedBytes / 2 ** 20).toFixed(1)} |`,
      );
  } finally {
    await child.stop();
    rmSync(one.dir, { recursive: true, force: true });
    rmSync(snapDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
