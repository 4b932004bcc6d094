/**
 * Where a triage request's CPU goes (issue 15): imports 10,000 customers, starts the real server as
 * a child under `node --cpu-prof`, drives it with the server bench's load (every request a new
 * ~2 KB message over JSON-RPC), stops it, and attributes the profile's samples to the stages of the
 * request path (parse, read, match, store, respond, log, metrics, …) by the frames on each stack.
 *
 * `node --import tsx scripts/profile-triage.ts [--seconds=S] [--keep=DIR]`. Prints ms per request
 * by stage. Does not judge: the numbers go to docs/performance.md by hand.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { DEMO_TOKEN_FILE } from '../src/main.ts';
import { importedDataDir, load } from '../bench/server.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages, first match from the top of the stack (leaf) wins for "self"; inclusive is any frame. */
const STAGES: readonly (readonly [string, RegExp])[] = [
  [
    'log (pino, pino-http)',
    /node_modules\/(pino|pino-http|pino-std-serializers|sonic-boom|fast-redact)\/|observability\/(logger|http-log)\.ts|log-redaction/,
  ],
  [
    'metrics (prom-client, observed.ts)',
    /node_modules\/prom-client\/|observability\/(metrics|observed|http-metrics)\.ts/,
  ],
  [
    'mail parse (mailparser)',
    /node_modules\/(mailparser|libmime|libqp|libbase64|iconv-lite|encoding-japanese|linkify-it|html-to-text)\/|ingest\/mail\//,
  ],
  ['match (domain/matching, re2)', /domain\/matching\/|node_modules\/re2\//],
  ['read/decide (domain)', /domain\/(triage|learnables|authority|definitions|mail)\//],
  ['sqlite (better-sqlite3, kysely)', /node_modules\/(better-sqlite3|kysely)\/|src\/store\//],
  ['sdk task store / handler', /node_modules\/@a2a-js\/sdk\//],
  ['a2a adapter (executor, presentation, gate)', /src\/a2a\//],
  ['admission', /src\/admission\//],
  [
    'express / http',
    /node_modules\/(express|router|body-parser|raw-body|finalhandler|send|on-finished|type-is|content-type|qs)\/|node:_http|_http_/,
  ],
  ['http/ adapter (auth, errors)', /src\/http\//],
];

function arg(name: string, fallback: string): string {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

function analyse(profile: Profile, requests: number, fromUs: number, toUs: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const fnSelf = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    // Only the measured load: V8's ticks and hrtime are both CLOCK_MONOTONIC on Linux.
    if (at < fromUs || at > toUs) continue;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000; // ms
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    total += dt;
    const fnKey = `${leaf.callFrame.functionName || '(anon)'} ${leaf.callFrame.url.replace(/^.*node_modules\//, 'nm/').replace(/^.*\/src\//, 'src/')}:${leaf.callFrame.lineNumber}`;
    fnSelf.set(fnKey, (fnSelf.get(fnKey) ?? 0) + dt);
    const seen = new Set<string>();
    let selfStage: string | null = null;
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const url = byId.get(id)!.callFrame.url;
      for (const [stage, re] of STAGES) {
        if (re.test(url)) {
          selfStage ??= stage;
          if (!seen.has(stage)) {
            seen.add(stage);
            inclusive.set(stage, (inclusive.get(stage) ?? 0) + dt);
          }
          break;
        }
      }
    }
    const s =
      selfStage ?? (leaf.callFrame.url === '' ? `(native: ${leaf.callFrame.functionName})` : 'other js');
    self.set(s, (self.get(s) ?? 0) + dt);
  }
  const per = (ms: number): string => (ms / requests).toFixed(3);
  console.log(
    `\n${requests} requests, ${total.toFixed(0)} ms on CPU (main thread), ${per(total)} ms/request; idle ${idle.toFixed(0)} ms`,
  );
  console.log('\nself time by stage (ms/request):');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1])) console.log(`  ${per(v).padStart(7)}  ${k}`);
  console.log('\ninclusive (any frame on the stack, ms/request):');
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]))
    console.log(`  ${per(v).padStart(7)}  ${k}`);
  console.log('\ntop self functions (ms/request):');
  for (const [k, v] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`  ${per(v).padStart(7)}  ${k}`);
}

/** `node --cpu-prof --import tsx src/main.ts` on `dataDir` (NODE_OPTIONS may not carry --cpu-prof). */
async function startProfiled(dataDir: string, profDir: string, logLevel: string) {
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', 'src/main.ts'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: logLevel,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m !== null) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    token: readFileSync(join(dataDir, DEMO_TOKEN_FILE), 'utf8').trim(),
    async close() {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

const seconds = Number(arg('seconds', '10'));
const profDir = arg('keep', mkdtempSync(join(tmpdir(), 'lt-prof-')));
const base = await importedDataDir(10_000);
const server = await startProfiled(base.dir, profDir, arg('log-level', 'info'));
const tag = `p${Date.now().toString(36)}`;
await load(server.pid, server.url, server.token, `${tag}w`, 2, 10, true);
const fromUs = Number(process.hrtime.bigint() / 1000n);
const r = await load(server.pid, server.url, server.token, tag, seconds, 10, true);
const toUs = Number(process.hrtime.bigint() / 1000n);
await server.close();
console.log(
  `load: ${r.reqPerSec} req/s, ${r.cpuMsPerRequest} ms CPU/request (/proc, all threads), ${r.completed} settled, ${r.otherResponses} other`,
);
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error(`no profile written in ${profDir}`);
analyse(
  JSON.parse(readFileSync(join(profDir, file), 'utf8')) as Profile,
  r.completed + r.otherResponses,
  fromUs,
  toUs,
);
console.log(`\nprofile: ${join(profDir, file)}`);
