/**
 * Load at a fixed rate (issue 16): JSON-RPC calls at `rate` per second for `seconds`, driven by
 * autocannon against a server in its own process — a mix of triage (a different message each time,
 * half from a known customer), rechecks of earlier tasks and GetTask reads — while the server's
 * resident memory is sampled every second. Prints p50/p99 latency, errors (target 0), RSS over
 * time (target flat: the last third against the first), and the open file descriptors and active
 * handles at the end, against those before the load.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- wire JSON, read loosely */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

type Options = Parameters<typeof autocannon>[0];
type RequestSpec = NonNullable<Options['requests']>[number];
import {
  mailPart,
  mib,
  numberArg,
  openFds,
  removeDir,
  rpcHeaders,
  rssBytes,
  sendParams,
  sleep,
  startServer,
  tempDir,
} from './support.ts';

export interface LoadFigures {
  readonly rate: number;
  readonly seconds: number;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly wrongAnswers: number;
  readonly rssSamples: readonly number[];
  readonly fdsBefore: number;
  readonly fdsAfter: number;
}

export async function runLoad(options: { rate: number; seconds: number }): Promise<LoadFigures> {
  const dir = tempDir('load');
  const server = await startServer(dir);
  try {
    await sleep(500);
    const fdsBefore = openFds(server.child.pid);
    const rssSamples: number[] = [rssBytes(server.child.pid)];
    const sampler = setInterval(() => rssSamples.push(rssBytes(server.child.pid)), 1000);
    const taskIds: string[] = [];
    let n = 0;
    let wrongAnswers = 0;
    const body = (): string => {
      n++;
      const kind = n % 10;
      let params: unknown;
      let method = 'SendMessage';
      if (kind < 7 || taskIds.length === 0) {
        const from = n % 2 === 0 ? 'ops@northgatemotors.example' : `billing@unknown-${n}.example`;
        params = sendParams([
          mailPart(
            `From: ${from}\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert LOAD-${n}\r\nMessage-ID: <load-${n}-${randomUUID()}@origin.example>\r\n\r\nShipment ${n}.\r\n`,
          ),
        ]);
      } else if (kind < 9) {
        params = sendParams([{ data: { recheck: { taskId: taskIds[n % taskIds.length] } } }]);
      } else {
        method = 'GetTask';
        params = { id: taskIds[n % taskIds.length], historyLength: 0 };
      }
      return JSON.stringify({ jsonrpc: '2.0', id: n, method, params });
    };
    // overallRate (a fixed rate) is autocannon's; bench/autocannon.d.ts does not declare it
    const cannon: Options & { overallRate: number } = {
      url: `${server.url}/a2a/jsonrpc`,
      connections: 8,
      duration: options.seconds,
      overallRate: options.rate,
      method: 'POST',
      headers: rpcHeaders(server.token),
      requests: [
        {
          method: 'POST',
          setupRequest: (req: RequestSpec) => ({ ...req, body: body() }),
          onResponse: (status: number, text: string) => {
            let parsed: any;
            try {
              parsed = JSON.parse(text);
            } catch {
              wrongAnswers++;
              return;
            }
            const task = parsed?.result?.task ?? parsed?.result;
            if (status !== 200 || parsed.error !== undefined || typeof task?.id !== 'string') wrongAnswers++;
            else if (taskIds.length < 500) taskIds.push(task.id);
          },
        },
      ],
    };
    const result = await autocannon(cannon);
    clearInterval(sampler);
    await sleep(1000);
    const fdsAfter = openFds(server.child.pid);
    return {
      rate: options.rate,
      seconds: options.seconds,
      requests: result.requests.total,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      wrongAnswers,
      rssSamples,
      fdsBefore,
      fdsAfter,
    };
  } finally {
    await server.child.stop();
    removeDir(dir);
  }
}

export function printLoad(f: LoadFigures): void {
  const third = Math.max(1, Math.floor(f.rssSamples.length / 3));
  const avg = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const first = avg(f.rssSamples.slice(1, 1 + third));
  const last = avg(f.rssSamples.slice(-third));
  const every = Math.max(1, Math.floor(f.rssSamples.length / 12));
  process.stdout.write(
    `load: ${f.requests} calls at ${f.rate}/s for ${f.seconds} s (70% triage, 20% recheck, 10% GetTask): p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, max ${f.maxMs} ms; ` +
      `errors ${f.errors}, non-2xx ${f.non2xx}, wrong answers ${f.wrongAnswers} (target 0)\n` +
      `load: RSS ${f.rssSamples
        .filter((_, i) => i % every === 0)
        .map(mib)
        .join(
          ' → ',
        )}; first third ${mib(first)}, last third ${mib(last)} (${((last / first - 1) * 100).toFixed(0)}%)\n` +
      `load: open file descriptors ${f.fdsBefore} before, ${f.fdsAfter} after\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = numberArg;
  printLoad(await runLoad({ rate: arg('rate', 50), seconds: arg('seconds', 180) }));
}
