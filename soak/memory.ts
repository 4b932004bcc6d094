/**
 * Memory under concurrent large mail (issue 16): N messages of ~24.6 MB each (under the 25 MiB
 * limit: three 6 MB attachments, base64) sent at once over JSON-RPC to a server in its own process,
 * whose resident memory (VmRSS) is sampled every 50 ms. Each message must be triaged or told to
 * retry (503 + Retry-After); the refused ones are then sent again until every one is read. Prints
 * idle, peak and after-idle RSS (the process as it runs: no forced GC), and each mail's latency: the
 * request that read it (median, max) and from its first send to its reading, retries included.
 * The target is a peak under 1 GiB and after-idle near idle.
 *
 * Run alone: `node --import tsx soak/memory.ts [--mails=16] [--mail-mb=24.6] [--runs=1] [--SETTING=value…]`
 * (settings go to the server's environment); `npm run soak` runs it once.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access -- wire JSON, read loosely */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  MiB,
  mailPart,
  mib,
  numberArg,
  rpcHeaders,
  removeDir,
  rssBytes,
  sendParams,
  sleep,
  startServer,
  tempDir,
} from './support.ts';

export interface MemoryFigures {
  readonly mails: number;
  readonly mailBytes: number;
  readonly idleRss: number;
  readonly peakRss: number;
  readonly afterRss: number;
  /** RSS after `settleS` seconds idle (V8's memory reducer and the task copies' expiry have run). */
  readonly settledRss: number;
  readonly settleS: number;
  readonly firstRound: { readonly triaged: number; readonly toldToRetry: number; readonly other: number };
  readonly rounds: number;
  readonly allTriaged: boolean;
  readonly seconds: number;
  /** Sends that lost their connection before an answer, and were sent again. */
  readonly resets: number;
  /** The request that read each mail, ms: median and slowest. */
  readonly readMs: { readonly median: number; readonly max: number };
  /** From each mail's first send to its reading, retries and their waits included, ms. */
  readonly doneMs: { readonly median: number; readonly max: number };
}

function spread(values: readonly number[]): { median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

/** One mail of about `bytes`: a short body and attachments of random bytes (base64, 76-char lines). */
export function largeMail(bytes: number): Buffer {
  const attachments = 3;
  const decodedEach = Math.floor((bytes * 0.98) / attachments / 1.37);
  const boundary = `b-${randomUUID()}`;
  const head =
    `From: bulk@large-sender.example\r\nTo: imports@warehouse.example\r\nSubject: Scans ${randomUUID()}\r\n` +
    `Message-ID: <${randomUUID()}@large-sender.example>\r\nMIME-Version: 1.0\r\n` +
    `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nScans of the shipment attached.\r\n`;
  const parts = [Buffer.from(head)];
  for (let i = 0; i < attachments; i++) {
    const b64 = randomBytes(decodedEach).toString('base64').replace(/.{76}/g, '$&\r\n');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n` +
          `Content-Disposition: attachment; filename="scan-${i}.bin"\r\n\r\n${b64}\r\n`,
      ),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * The allocator settings the Dockerfile runs the server with (docs/memory.md): without them glibc
 * keeps what large mail freed (measured: 16 mails left ~1 GiB resident when idle).
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

export async function runMemory(options: {
  mails: number;
  mailMb: number;
  env?: Record<string, string>;
  /** Seconds idle before the settled RSS is read. Default 30. */
  settleS?: number;
}): Promise<MemoryFigures> {
  const settleS = options.settleS ?? 30;
  const dir = tempDir('memory');
  const server = await startServer(dir, { ...MALLOC_ENV, ...options.env });
  const started = Date.now();
  try {
    await sleep(500);
    const idleRss = rssBytes(server.child.pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssBytes(server.child.pid));
    }, 50);
    const bodies = Array.from({ length: options.mails }, () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: sendParams([mailPart(largeMail(options.mailMb * 1e6))]),
      }),
    );
    const mailBytes = Math.round(options.mailMb * 1e6);
    let pending = bodies.map((_, i) => i);
    let rounds = 0;
    let firstRound = { triaged: 0, toldToRetry: 0, other: 0 };
    const readMs: number[] = [];
    const doneMs: number[] = [];
    const sentAt = Date.now();
    let resets = 0;
    while (pending.length > 0 && rounds < 40) {
      rounds++;
      const answers = await Promise.all(
        pending.map(async (i) => {
          const t0 = Date.now();
          let res: Response;
          let body: any;
          try {
            res = await fetch(`${server.url}/a2a/jsonrpc`, {
              method: 'POST',
              headers: rpcHeaders(server.token),
              body: bodies[i],
            });
            body = await res.json();
          } catch (e) {
            // The connection went before an answer (a kept-alive socket the server closed as the
            // body started, EPIPE): what a client does then is send again. Counted, and sent again.
            resets++;
            process.stderr.write(`memory: connection lost, sending again (${(e as Error).message})\n`);
            return { i, kind: 'lost' as const, retryAfter: 1 };
          }
          const state: unknown = body?.result?.task?.status?.state;
          const kind: 'triaged' | 'toldToRetry' | 'other' =
            res.status === 503 && res.headers.get('retry-after') !== null
              ? 'toldToRetry'
              : res.status === 200 && typeof state === 'string' && state !== 'TASK_STATE_FAILED'
                ? 'triaged'
                : 'other';
          if (kind === 'triaged') {
            readMs.push(Date.now() - t0);
            doneMs.push(Date.now() - sentAt);
          }
          if (kind === 'other')
            process.stderr.write(
              `memory: unexpected answer ${res.status} ${JSON.stringify(body).slice(0, 300)}\n`,
            );
          return { i, kind, retryAfter: Number(res.headers.get('retry-after') ?? '1') };
        }),
      );
      if (rounds === 1) {
        firstRound = {
          triaged: answers.filter((a) => a.kind === 'triaged').length,
          toldToRetry: answers.filter((a) => a.kind === 'toldToRetry').length,
          other: answers.filter((a) => a.kind === 'other').length,
        };
      }
      pending = answers.filter((a) => a.kind === 'toldToRetry' || a.kind === 'lost').map((a) => a.i);
      if (pending.length > 0) await sleep(Math.min(...answers.map((a) => a.retryAfter)) * 1000);
    }
    bodies.length = 0;
    await sleep(5_000);
    const afterRss = rssBytes(server.child.pid);
    await sleep(Math.max(0, settleS - 5) * 1000);
    clearInterval(sampler);
    const settledRss = rssBytes(server.child.pid);
    return {
      mails: options.mails,
      mailBytes,
      idleRss,
      peakRss,
      afterRss,
      settledRss,
      settleS,
      firstRound,
      rounds,
      allTriaged: pending.length === 0 && firstRound.other === 0,
      seconds: (Date.now() - started) / 1000,
      resets,
      readMs: spread(readMs),
      doneMs: spread(doneMs),
    };
  } finally {
    await server.child.stop();
    removeDir(dir);
  }
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function printMemory(f: MemoryFigures): void {
  process.stdout.write(
    `memory: ${f.mails} concurrent mails of ${(f.mailBytes / 1e6).toFixed(1)} MB: first round ${f.firstRound.triaged} triaged, ` +
      `${f.firstRound.toldToRetry} told to retry (503 + Retry-After), ${f.firstRound.other} other; all triaged after ${f.rounds} round(s): ${f.allTriaged ? 'yes' : 'NO'}\n` +
      `memory: RSS idle ${mib(f.idleRss)}, peak ${mib(f.peakRss)} (target < 1024 MiB: ${f.peakRss < 1024 * MiB ? 'held' : 'MISSED'}), ` +
      `5 s after ${mib(f.afterRss)}, ${f.settleS} s after ${mib(f.settledRss)} (${f.seconds.toFixed(0)} s in all)\n` +
      `memory: per mail, the request that read it ${secs(f.readMs.median)} median, ${secs(f.readMs.max)} max; ` +
      `first send to reading ${secs(f.doneMs.median)} median, ${secs(f.doneMs.max)} max; ` +
      `${f.resets} send(s) lost their connection and were sent again\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = numberArg;
  const env: Record<string, string> = {};
  for (const a of process.argv.filter((x) => /^--[A-Z_]+=/.test(x)))
    env[a.slice(2, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  for (let run = 0; run < arg('runs', 1); run++)
    printMemory(
      await runMemory({
        mails: arg('mails', 16),
        mailMb: arg('mail-mb', 24.6),
        env,
        settleS: arg('settle-s', 30),
      }),
    );
}
